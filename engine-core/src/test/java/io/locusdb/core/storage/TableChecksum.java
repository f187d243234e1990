package io.locusdb.core.storage;

import io.locusdb.core.storage.load.PartitionRouter;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import java.util.Objects;

/** An order-independent checksum over every value of every row: equal iff the same multiset of rows (whp). */
public record TableChecksum(long rows, long sum, long xor) {
    public static TableChecksum of(Table table) {
        long rows = 0;
        long sum = 0;
        long xor = 0;
        try (TableSnapshot snapshot = table.snapshot()) {
            for (TablePart part : snapshot.parts()) {
                for (long r = 0; r < part.rows(); r++) {
                    long h = 17;
                    for (int c = 0; c < part.columns().size(); c++) {
                        Object v = part.column(c).boxedValue(r);
                        h = h * 31 + (v == null ? 0x5bd1e995 : Objects.hashCode(v));
                    }
                    long mixed = PartitionRouter.hash(h);
                    sum += mixed;
                    xor ^= mixed;
                    rows++;
                }
            }
        }
        return new TableChecksum(rows, sum, xor);
    }
}
