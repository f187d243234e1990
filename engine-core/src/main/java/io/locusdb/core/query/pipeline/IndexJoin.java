package io.locusdb.core.query.pipeline;

import io.locusdb.core.query.expr.InputRef;
import io.locusdb.core.query.join.JoinHashTable;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.query.scan.IndexScan;
import io.locusdb.core.query.scan.ValueSet;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.type.TypeKind;
import java.util.Arrays;

/**
 * A hash join whose probe side is the scan of a table probed on a column an index leads with (the primary key's
 * first column, or a secondary index's): once the build side is known to hold few keys, the scan reads only the rows
 * of those keys, through each part's index, instead of every row (an index nested-loop join whose probes are one batch of lookups per part). The hash
 * table still decides which rows join; the index only spares the scan the rows that could not.
 */
record IndexJoin(int probeKey, int tableColumn) {

    /**
     * The index join {@code scan} can serve as the probe side of {@code join} (probe keys numbered as the scan
     * outputs them), or null: no probe key is a column an index leads with, as stored, or the join keeps probe rows
     * that match nothing.
     */
    static IndexJoin of(PhysicalPlan.Scan scan, PhysicalPlan.Join join) {
        Schema schema = scan.table().schema();
        int[] indexed = scan.table().indexedColumns();
        if (!HashJoinProbe.dropsUnmatchedProbeRows(join) || indexed.length == 0 || !IndexScan.enabled()) {
            return null;
        }
        int[] keys = join.probesLeft() ? join.leftKeys() : join.rightKeys();
        for (int column : indexed) {
            if (schema.column(column).type().physical() != TypeKind.Physical.LONG) {
                continue;
            }
            for (int k = 0; k < keys.length; k++) {
                if (scan.outputs().get(keys[k]) instanceof InputRef ref && ref.index() == column) {
                    return new IndexJoin(k, column);
                }
            }
        }
        return null;
    }

    /**
     * The build keys the scan is limited to, or null when they are too many for visiting rows one by one to beat
     * a scan of {@code tableRows} rows: the union over {@code tables} (one per co-partitioned part, else one).
     */
    ValueSet keys(JoinHashTable[] tables, long tableRows) {
        long buildRows = 0;
        for (JoinHashTable table : tables) {
            buildRows += table.rows();
        }
        if (!pays(buildRows, tableRows)) {
            return null;
        }
        long[] all = new long[(int) buildRows];
        int n = 0;
        for (JoinHashTable table : tables) {
            long[] distinct = table.distinctLongKeys(probeKey);
            if (distinct == null) {
                return null;
            }
            System.arraycopy(distinct, 0, all, n, distinct.length);
            n += distinct.length;
        }
        return ValueSet.of(tableColumn, Arrays.copyOf(all, n));
    }

    /**
     * Whether {@code keys} lookups beat a scan of {@code tableRows} rows. A scan tests a row's key code against the
     * build keys' bitmap in about a nanosecond; a lookup walks the key's dictionary (a few cache misses, more the
     * larger the table) and then visits rows apart. Measured on TPC-H SF 1 (lineitem's 6 M rows: 57 k keys lost to
     * the scan, a few thousand won), a lookup costs about 8 steps per level of the dictionary's search.
     */
    static boolean pays(long keys, long tableRows) {
        return keys <= maxKeys(tableRows);
    }

    /** The most keys for which lookups beat a scan of {@code tableRows} rows (see {@link #pays}). */
    static long maxKeys(long tableRows) {
        long levels = 64 - Long.numberOfLeadingZeros(Math.max(1, tableRows));
        return tableRows / (levels * LOOKUP_STEPS_PER_LEVEL);
    }

    private static final int LOOKUP_STEPS_PER_LEVEL = 8;

    /** How EXPLAIN says it. */
    static String describe(PhysicalPlan.Scan scan, IndexJoin join) {
        long rows;
        try (TableSnapshot snapshot = scan.table().snapshot()) {
            rows = snapshot.visibleRows();
        }
        return "index join: when the build side holds at most " + maxKeys(rows) + " keys (" + scan.table().name()
                + " has " + rows + " rows), the scan of " + scan.table().name() + " visits only the rows of those"
                + " keys, found per part in its key index on "
                + scan.table().schema().column(join.tableColumn()).name();
    }
}
