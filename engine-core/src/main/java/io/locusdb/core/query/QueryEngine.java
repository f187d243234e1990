package io.locusdb.core.query;

import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.storage.table.Catalog;

/** Statements to plans: SQL through Calcite, then the physical planner onto the executor. */
public final class QueryEngine {
    private final Catalog catalog;
    private final NumaExecutor executor;
    private final int loadThreads;
    private final int batchRows;

    public QueryEngine(Catalog catalog, NumaExecutor executor, int loadThreads, int batchRows) {
        this.catalog = catalog;
        this.executor = executor;
        this.loadThreads = loadThreads;
        this.batchRows = batchRows;
    }

    public PreparedStatementPlan prepare(String sql) {
        throw new UnsupportedOperationException("not yet");
    }
}
