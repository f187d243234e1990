package io.locusdb.core.query;

import io.locusdb.core.storage.table.Catalog;

/** DDL, DML and LOAD statements. */
final class StatementRunner {
    private final Catalog catalog;
    private final int loadThreads;

    StatementRunner(Catalog catalog, int loadThreads) {
        this.catalog = catalog;
        this.loadThreads = loadThreads;
    }

    /** The statement's plan, or null when it is a query (for Calcite). */
    PreparedStatementPlan prepare(String sql) {
        return null;
    }
}
