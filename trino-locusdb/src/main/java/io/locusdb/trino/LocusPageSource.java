package io.locusdb.trino;

import io.locusdb.jdbc.ColumnBatches;
import io.locusdb.protocol.DecodedBatch;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
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
    /** Whether the server sends exactly {@link #columns} (else all of the table's, picked from by name). */
    private final boolean pushdown;
    /** Per column of {@link #columns}, its position in the server's result. */
    private int[] positionInResult;
    private Connection connection;
    private Statement statement;
    private ResultSet result;
    private ColumnBatches batches;
    private long countLeft = -1;
    private boolean finished;
    private long bytes;
    private long positions;
    private long readNanos;

    LocusPageSource(LocusServers servers, LocusSplit split, String sql, List<LocusColumnHandle> columns,
                    boolean pushdown) {
        this.pushdown = pushdown;
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
            if (columns.isEmpty() && pushdown) {
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
                blocks[c] = LocusTypes.block(columns.get(c).type(), batch.columns().get(positionInResult[c]), rows);
            }
            // What came from the server, whether or not Trino reads all of it.
            bytes += LocusTypes.bytes(batch);
            positions += rows;
            return SourcePage.create(new Page(rows, blocks));
        } catch (SQLException e) {
            finish(false);
            throw servers.failure(split.server(), e);
        } catch (TrinoException e) {
            finish(false);
            throw e;
        } catch (RuntimeException e) {
            finish(false);
            throw new TrinoException(LocusServers.Error.LOCUSDB_SERVER_ERROR, "LocusDB server " + split.server()
                    + ": reading part " + split.part() + " of " + split.table() + " failed: " + e, e);
        } finally {
            readNanos += System.nanoTime() - start;
        }
    }

    private void open() throws SQLException {
        connection = servers.open(split.server());
        statement = connection.createStatement();
        result = statement.executeQuery(sql);
        if (columns.isEmpty() && pushdown) {
            countLeft = result.next() ? result.getLong(1) : 0;
            positions = countLeft;
            bytes += Long.BYTES;
            return;
        }
        batches = result.unwrap(ColumnBatches.class);
        positionInResult = new int[columns.size()];
        ResultSetMetaData meta = result.getMetaData();
        for (int c = 0; c < columns.size(); c++) {
            positionInResult[c] = -1;
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                if (meta.getColumnName(i).equalsIgnoreCase(columns.get(c).name())) {
                    positionInResult[c] = i - 1;
                    break;
                }
            }
            if (positionInResult[c] < 0) {
                throw new SQLException("table " + split.table() + " has no column " + columns.get(c).name()
                        + " any more", "42703");
            }
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
