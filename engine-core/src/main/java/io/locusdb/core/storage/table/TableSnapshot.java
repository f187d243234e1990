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
    /** The parts this snapshot reads: all of the version's, or one where a caller selected it. */
    private final List<TablePart> parts;
    /** Closed at most once even when two threads close the same snapshot (a query and its canceller). */
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    TableSnapshot(Table table, TableVersion version, long commit) {
        this(table, version, commit, version.parts());
    }

    private TableSnapshot(Table table, TableVersion version, long commit, List<TablePart> parts) {
        this.table = table;
        this.version = version;
        this.commit = commit;
        this.parts = parts;
    }

    /**
     * This snapshot reading only part {@code part}: the references it holds pass to the returned snapshot, which
     * releases them when it closes; this one must not be used any more.
     */
    TableSnapshot select(int part) {
        if (!closed.compareAndSet(false, true)) {
            throw new IllegalStateException("the snapshot of " + table.name() + " is closed");
        }
        return new TableSnapshot(table, version, commit, List.of(version.parts().get(part)));
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

    /** Visible rows of the parts read: main and delta rows minus deletions. */
    public long visibleRows() {
        long n = 0;
        for (TablePart part : parts) {
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

    /** The parts this snapshot reads, in the order of the version's (all of them unless one was selected). */
    public List<TablePart> parts() {
        return parts;
    }

    /** Rows of the main columns of the parts read; see {@link #visibleRows()} for their content. */
    public long rows() {
        long n = 0;
        for (TablePart part : parts) {
            n += part.rows();
        }
        return n;
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
