package io.locusdb.core;

import io.locusdb.core.exec.ExecutionOptions;
import io.locusdb.core.query.QueryEngine;
import io.locusdb.core.result.QueryResult;

/**
 * A connection to an embedded database. Statements run one at a time per session; results stream, so a result
 * should be closed (or read to the end) before the next statement.
 */
public final class Session implements AutoCloseable {
    private final QueryEngine engine;
    private boolean closed;

    Session(QueryEngine engine) {
        this.engine = engine;
    }

    /** Runs any statement: a query (the result streams) or DDL/DML/LOAD (the result holds the update count). */
    public QueryResult execute(String sql) {
        checkOpen();
        return engine.execute(sql, ExecutionOptions.DEFAULTS);
    }

    /** Runs any statement under per-query limits (memory budget, priority). */
    public QueryResult execute(String sql, ExecutionOptions options) {
        checkOpen();
        return engine.execute(sql, options);
    }

    /** Plans a statement with {@code ?} parameters once; set them and execute as often as needed. */
    public PreparedQuery prepare(String sql) {
        checkOpen();
        return new PreparedQuery(engine.prepare(sql));
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the session is closed");
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
