package io.locusdb.core.query;

import io.locusdb.core.exec.ExecutionOptions;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultColumn;
import java.util.List;

/** A statement planned once, executed with parameter values bound by position. */
public interface PreparedStatementPlan {
    int parameterCount();

    List<ResultColumn> columns();

    QueryResult execute(Object[] parameters);

    /** Executes under the caller's limits; statements that run no query operators ignore them. */
    default QueryResult execute(Object[] parameters, ExecutionOptions options) {
        return execute(parameters);
    }
}
