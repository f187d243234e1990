package io.locusdb.trino;

import io.locusdb.jdbc.ColumnBatches;
import io.locusdb.protocol.DecodedBatch;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.OptionalLong;

/**
 * The rows of one split, batch by batch as the server sends them, each batch one Trino page. The query starts on
 * the first call for a page; the connection goes back to the pool when the result was read to its end or closed
 * cleanly, and is dropped after a failure (which names the server).
 */
final class LocusPageSource implements ConnectorPageSource {
    /** Rows per page when only a row count came back (Trino read no column). */
    private static final int COUNT_PAGE_ROWS = 1 << 16;
    private final LocusServers servers;
    private final LocusSplit split;
    private final String sql;
    private final List<LocusColumnHandle> columns;
    private Connection connection;
    private Statement statement;
    private ResultSet result;
    private ColumnBatches batches;
    private long countLeft = -1;
    private boolean finished;
    private long bytes;
    private long positions;
    private long readNanos;

    LocusPageSource(LocusServers servers, LocusSplit split, String sql, List<LocusColumnHandle> columns) {
        this.servers = servers;
        this.split = split;
        this.sql = sql;
        this.columns = columns;
    }

    @Override
    public SourcePage getNextSourcePage() {
        if (finished) {
            return null;
        }
        long start = System.nanoTime();
        try {
            if (connection == null) {
                open();
            }
            if (columns.isEmpty()) {
                return countPage();
            }
            DecodedBatch batch = batches.nextBatch();
            if (batch == null) {
                finish(true);
                return null;
            }
            int rows = batch.rows();
            Block[] blocks = new Block[columns.size()];
            for (int c = 0; c < blocks.length; c++) {
                blocks[c] = LocusTypes.block(columns.get(c).type(), batch.columns().get(c), rows);
                bytes += blocks[c].getSizeInBytes();
            }
            positions += rows;
            return SourcePage.create(new Page(rows, blocks));
        } catch (SQLException e) {
            finish(false);
            throw servers.failure(split.server(), e);
        } catch (RuntimeException e) {
            finish(false);
            throw e;
        } finally {
            readNanos += System.nanoTime() - start;
        }
    }

    private void open() throws SQLException {
        connection = servers.open(split.server());
        statement = connection.createStatement();
        result = statement.executeQuery(sql);
        if (columns.isEmpty()) {
            countLeft = result.next() ? result.getLong(1) : 0;
            positions = countLeft;
        } else {
            batches = result.unwrap(ColumnBatches.class);
        }
    }

    private SourcePage countPage() {
        if (countLeft <= 0) {
            finish(true);
            return null;
        }
        int rows = (int) Math.min(COUNT_PAGE_ROWS, countLeft);
        countLeft -= rows;
        return SourcePage.create(rows);
    }

    private void finish(boolean healthy) {
        finished = true;
        if (connection == null) {
            return;
        }
        boolean clean = healthy;
        try {
            if (result != null) {
                result.close();
            }
            if (statement != null) {
                statement.close();
            }
        } catch (SQLException e) {
            clean = false;
        }
        servers.release(split.server(), connection, clean);
        connection = null;
    }

    @Override
    public long getCompletedBytes() {
        return bytes;
    }

    @Override
    public OptionalLong getCompletedPositions() {
        return OptionalLong.of(positions);
    }

    @Override
    public long getReadTimeNanos() {
        return readNanos;
    }

    @Override
    public boolean isFinished() {
        return finished;
    }

    @Override
    public void close() {
        if (!finished) {
            finish(true);
        }
    }
}
