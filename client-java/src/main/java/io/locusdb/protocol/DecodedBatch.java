package io.locusdb.protocol;

import java.util.List;

/**
 * A received BATCH: per column, the null flags (null when the batch has no NULL in that column) and the values —
 * {@code longs} for BOOLEAN, INTEGER, BIGINT, DECIMAL (unscaled) and DATE (epoch days), {@code doubles} for
 * DOUBLE, {@code strings} for VARCHAR and CHAR.
 */
public record DecodedBatch(int rows, List<Column> columns) {
    public record Column(WireType type, boolean[] nulls, long[] longs, double[] doubles, String[] strings) {
        public boolean isNull(int row) {
            return nulls != null && nulls[row];
        }
    }
}
