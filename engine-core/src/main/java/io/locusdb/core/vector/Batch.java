package io.locusdb.core.vector;

import java.util.List;

/**
 * Up to {@link #capacity()} rows of some columns of one table part, materialized from the selection of a scan.
 * Batches are reused by the task that fills them: a consumer must copy what it keeps.
 */
public record Batch(int part, List<ColumnVector> columns, int capacity) {
    public int rows() {
        return columns.isEmpty() ? 0 : columns.getFirst().size();
    }

    public ColumnVector column(int i) {
        return columns.get(i);
    }
}
