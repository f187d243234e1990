package io.locusdb.core.storage;

import io.locusdb.core.storage.table.PartitionRouter;
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
                long total = part.rows() + snapshot.deltaRows(part);
                for (long r = 0; r < total; r++) {
                    if (!snapshot.isVisible(part, r)) {
                        continue;
                    }
                    long h = 17;
                    for (int c = 0; c < part.columns().size(); c++) {
                        Object v = r < part.rows() ? part.column(c).boxedValue(r)
                                : part.delta().row((int) (r - part.rows()))[c];
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
