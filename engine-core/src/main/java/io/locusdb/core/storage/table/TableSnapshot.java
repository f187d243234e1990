package io.locusdb.core.storage.table;

import java.util.List;

/**
 * A query's consistent view of a table: the parts of one version, each held by a reference until {@link #close()}.
 * Moves, repartitions and merges never wait for snapshots and never free what a snapshot holds.
 */
public final class TableSnapshot implements AutoCloseable {
    private final Table table;
    private final TableVersion version;
    private boolean closed;

    TableSnapshot(Table table, TableVersion version) {
        this.table = table;
        this.version = version;
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

    public long rows() {
        return version.rows();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            for (TablePart part : version.parts()) {
                part.release();
            }
        }
    }
}
