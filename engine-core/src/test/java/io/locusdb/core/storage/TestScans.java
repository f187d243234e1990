package io.locusdb.core.storage;

import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.scan.IdRange;
import io.locusdb.core.storage.scan.PackedRangeScan;
import io.locusdb.core.storage.scan.ScanBytes;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;

/** Scans the tests run while placement operations change a table under them. */
public final class TestScans {
    private TestScans() {
    }

    /** Rows of the main parts whose long-typed {@code column} is at most {@code max}, over one snapshot. */
    public static long countAtMost(Table table, String column, long max) {
        int index = table.schema().indexOf(column);
        long count = 0;
        try (TableSnapshot snapshot = table.snapshot()) {
            for (TablePart part : snapshot.parts()) {
                LongDictionary dictionary = (LongDictionary) part.column(index).dictionary();
                count += PackedRangeScan.count(part.column(index).codes(),
                        IdRange.between(dictionary, Long.MIN_VALUE, max), new ScanBytes());
            }
        }
        return count;
    }
}
