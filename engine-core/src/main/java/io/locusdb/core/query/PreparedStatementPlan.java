package io.locusdb.core.query;

import io.locusdb.core.exec.ExecutionOptions;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.type.ColumnType;
import java.util.Collections;
import java.util.List;

/** A statement planned once, executed with parameter values bound by position. */
public interface PreparedStatementPlan {
    int parameterCount();

    List<ResultColumn> columns();

    /**
     * The type each parameter takes in the statement, by position; null where the statement does not fix one (the
     * value is then converted where it is used).
     */
    default List<ColumnType> parameterTypes() {
        return Collections.nCopies(parameterCount(), null);
    }

    QueryResult execute(Object[] parameters);

    /** Executes under the caller's limits; statements that run no query operators ignore them. */
    default QueryResult execute(Object[] parameters, ExecutionOptions options) {
        return execute(parameters);
    }
}
