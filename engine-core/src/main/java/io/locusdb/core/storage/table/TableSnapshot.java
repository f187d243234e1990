package io.locusdb.core.storage.table;

import java.util.List;

/**
 * A query's consistent view of a table: the parts of one version, each held by a reference until {@link #close()}.
 * Moves, repartitions and merges never wait for snapshots and never free what a snapshot holds.
 */
public final class TableSnapshot implements AutoCloseable {
    private final Table table;
    private final TableVersion version;
    private final long commit;
    /** Closed at most once even when two threads close the same snapshot (a query and its canceller). */
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    TableSnapshot(Table table, TableVersion version, long commit) {
        this.table = table;
        this.version = version;
        this.commit = commit;
    }

    /** The commit this snapshot reads: inserts and deletions of later commits are invisible to it. */
    public long commit() {
        return commit;
    }

    /** Delta rows of {@code part} this snapshot sees (rows 0..n-1 of {@code part.delta()}). */
    public int deltaRows(TablePart part) {
        return part.delta().visibleRows(commit);
    }

    /**
     * Whether row {@code row} of {@code part} is visible: main rows are 0..rows-1, delta rows follow. Only upserts
     * delete, so for most parts this is a constant {@code true} (check {@link PartDelta#hasDeletions()}).
     */
    public boolean isVisible(TablePart part, long row) {
        return !part.delta().isDeleted(row, commit);
    }

    /** Visible rows of the whole table: main and delta rows minus deletions. */
    public long visibleRows() {
        long n = 0;
        for (TablePart part : version.parts()) {
            int delta = deltaRows(part);
            long total = part.rows() + delta;
            if (part.delta().hasDeletions()) {
                for (long r = 0; r < total; r++) {
                    if (isVisible(part, r)) {
                        n++;
                    }
                }
            } else {
                n += total;
            }
        }
        return n;
    }

    public Table table() {
        return table;
    }

    public TableVersion version() {
        return version;
    }

    public List<TablePart> parts() {
        return version.parts();
    }

    /** Rows of the main columns only; see {@link #visibleRows()} for the table's content. */
    public long rows() {
        return version.rows();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            for (TablePart part : version.parts()) {
                part.release();
            }
        }
    }
}
