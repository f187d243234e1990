package io.locusdb.jdbc;

import io.locusdb.protocol.Message;
import io.locusdb.protocol.Protocol;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A statement: QUERY messages (prepare and execute once). Results stream: the result set reads batches as
 * {@code next()} needs them, with a credit of {@link #fetchBatches()} batches at a time.
 */
public class LocusStatement implements Statement {
    final LocusConnection connection;
    private LocusResultSet resultSet;
    private long updateCount = -1;
    private int maxRows;
    private int fetchSize;
    private int queryTimeoutSeconds;
    private boolean closed;
    private boolean closeOnCompletion;
    private boolean poolable;
    private final WarningChain warnings = new WarningChain();
    private final List<String> batch = new ArrayList<>();
    /** Set while this statement runs or its result is open, so that cancel() knows there is something to stop. */
    private volatile boolean active;

    LocusStatement(LocusConnection connection) {
        this.connection = connection;
        this.fetchSize = connection.config().fetchSize();
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("the statement is closed", Errors.OBJECT_CLOSED);
        }
        connection.checkOpen();
    }

    /** Batches of credit for {@code fetchSize} rows: ceil(rows / 4096), at least 1; the default keeps 2. */
    static int fetchBatches(int fetchSize) {
        if (fetchSize <= 0) {
            return LocusConnection.DEFAULT_FETCH_BATCHES;
        }
        return Math.max(1, (int) ((fetchSize + (long) Protocol.MAX_BATCH_ROWS - 1) / Protocol.MAX_BATCH_ROWS));
    }

    int fetchBatches() {
        return fetchBatches(fetchSize);
    }

    int timeoutMillis() {
        return (int) Math.min(Integer.MAX_VALUE, queryTimeoutSeconds * 1000L);
    }

    /** Runs {@code request} and keeps its outcome as this statement's current result. */
    boolean run(Message request) throws SQLException {
        checkOpen();
        closeCurrentResult();
        active = true;
        try {
            LocusConnection.Outcome o = connection.run(this, request, fetchBatches());
            resultSet = o.resultSet();
            updateCount = o.updateCount();
            if (resultSet == null) {
                active = false;
            }
            return resultSet != null;
        } catch (SQLException | RuntimeException e) {
            active = false;
            throw e;
        }
    }

    /** The result read its RESULT_END (or ERROR): nothing runs any more, so cancel() has nothing to stop. */
    void resultEnded(LocusResultSet rs) {
        if (rs == resultSet) {
            active = false;
        }
    }

    void resultClosed(LocusResultSet rs) throws SQLException {
        active = false;
        if (rs == resultSet && closeOnCompletion && !closed) {
            close();
        }
    }

    private void closeCurrentResult() throws SQLException {
        if (resultSet != null) {
            LocusResultSet rs = resultSet;
            resultSet = null;
            rs.close();
        }
        updateCount = -1;
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        if (!execute(sql)) {
            throw new SQLException("the statement did not return a result set (it changed "
                    + updateCount + " row(s)); use executeUpdate", Errors.GENERAL);
        }
        return resultSet;
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return (int) Math.min(Integer.MAX_VALUE, executeLargeUpdate(sql));
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        if (execute(sql)) {
            closeCurrentResult();
            throw new SQLException("the statement returned a result set; use executeQuery", Errors.GENERAL);
        }
        return updateCount;
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw new SQLException("sql is null", Errors.INVALID_PARAMETER);
        }
        return run(new Message.Query(sql, maxRows, fetchBatches(), timeoutMillis()));
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        try {
            if (!connection.isClosed() && !connection.isBroken()) {
                closeCurrentResult();
            }
        } finally {
            closed = true;
            resultSet = null;
        }
    }

    @Override
    public int getMaxFieldSize() throws SQLException {
        checkOpen();
        return 0;
    }

    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        checkOpen();
        if (max != 0) {
            throw Errors.unsupported("Max field size");
        }
    }

    @Override
    public int getMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw new SQLException("max rows " + max + " is negative", Errors.INVALID_PARAMETER);
        }
        maxRows = max;
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        return getMaxRows();
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        setMaxRows((int) Math.max(-1, Math.min(Integer.MAX_VALUE, max)));
    }

    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        checkOpen();
        if (enable) {
            // JDBC escapes ({d '...'}, {fn ...}) are not translated; SQL is sent as written
            addWarning(new SQLWarning("LocusDB's driver does not translate JDBC escape syntax"));
        }
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeoutSeconds;
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw new SQLException("query timeout " + seconds + " is negative", Errors.INVALID_PARAMETER);
        }
        queryTimeoutSeconds = seconds;
    }

    /**
     * Cancels the running statement from another thread: CANCEL_REQUEST with the session's id and key on a second
     * connection, which works while the executing thread is blocked reading. Nothing running: nothing happens.
     */
    @Override
    public void cancel() throws SQLException {
        if (closed) {
            throw new SQLException("the statement is closed", Errors.OBJECT_CLOSED);
        }
        if (active && !connection.isClosed()) {
            connection.cancelRequest();
        }
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings.first();
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        warnings.clear();
    }

    void addWarning(SQLWarning w) {
        warnings.add(w);
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        throw Errors.unsupported("Named cursors");
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        return resultSet;
    }

    @Override
    public int getUpdateCount() throws SQLException {
        return (int) Math.min(Integer.MAX_VALUE, getLargeUpdateCount());
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        return resultSet != null ? -1 : updateCount;
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        return getMoreResults(CLOSE_CURRENT_RESULT);
    }

    @Override
    public boolean getMoreResults(int current) throws SQLException {
        checkOpen();
        if (current == KEEP_CURRENT_RESULT || current == CLOSE_ALL_RESULTS) {
            if (current == KEEP_CURRENT_RESULT && resultSet != null) {
                throw Errors.unsupported("Keeping a result open while moving to the next");
            }
        }
        closeCurrentResult();
        return false;
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw Errors.unsupported("Fetch direction other than FETCH_FORWARD");
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return ResultSet.FETCH_FORWARD;
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw new SQLException("fetch size " + rows + " is negative", Errors.INVALID_PARAMETER);
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    /**
     * Adds a statement to the batch. A batch runs its statements one after the other, each its own commit: a failure
     * stops the batch, and the statements before it stay done (their counts are in the {@link BatchUpdateException}).
     */
    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw new SQLException("a batch statement cannot be null", Errors.GENERAL);
        }
        batch.add(sql);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        long[] counts = executeLargeBatch();
        int[] narrow = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            narrow[i] = (int) Math.min(Integer.MAX_VALUE, counts[i]);
        }
        return narrow;
    }

    /** Runs the batch's entries in order through {@code entry}, collecting update counts; the batch is emptied. */
    long[] runBatch(int entries, BatchEntry entry) throws SQLException {
        long[] counts = new long[entries];
        try {
            for (int i = 0; i < entries; i++) {
                try {
                    counts[i] = entry.run(i);
                } catch (SQLException e) {
                    throw new BatchUpdateException("batch entry " + (i + 1) + " failed: " + e.getMessage(),
                            e.getSQLState(), e.getErrorCode(), Arrays.copyOf(counts, i), e);
                }
            }
            return counts;
        } finally {
            clearBatchEntries();
        }
    }

    /** One entry of a batch, run; returns its update count. */
    @FunctionalInterface
    interface BatchEntry {
        long run(int index) throws SQLException;
    }

    void clearBatchEntries() {
        batch.clear();
    }

    @Override
    public Connection getConnection() throws SQLException {
        checkOpen();
        return connection;
    }

    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        throw Errors.unsupported("Generated keys");
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        checkNoKeys(autoGeneratedKeys);
        return executeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        throw Errors.unsupported("Generated keys");
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        throw Errors.unsupported("Generated keys");
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        checkNoKeys(autoGeneratedKeys);
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        throw Errors.unsupported("Generated keys");
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        throw Errors.unsupported("Generated keys");
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        checkNoKeys(autoGeneratedKeys);
        return executeLargeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        throw Errors.unsupported("Generated keys");
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        throw Errors.unsupported("Generated keys");
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<String> statements = List.copyOf(batch);
        return runBatch(statements.size(), i -> {
            if (execute(statements.get(i))) {
                getResultSet().close();
                throw new SQLException("a batch statement returned a result set: batches take updates only",
                        Errors.GENERAL);
            }
            return getLargeUpdateCount();
        });
    }

    private static void checkNoKeys(int autoGeneratedKeys) throws SQLException {
        if (autoGeneratedKeys != NO_GENERATED_KEYS) {
            throw Errors.unsupported("Generated keys");
        }
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        checkOpen();
        this.poolable = poolable;
    }

    @Override
    public boolean isPoolable() throws SQLException {
        checkOpen();
        return poolable;
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        checkOpen();
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        checkOpen();
        return closeOnCompletion;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Errors.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
