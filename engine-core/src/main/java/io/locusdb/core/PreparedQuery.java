package io.locusdb.core;

import io.locusdb.core.exec.ExecutionOptions;
import io.locusdb.core.query.PreparedStatementPlan;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.type.ColumnType;
import java.util.Arrays;
import java.util.List;

/**
 * A planned statement whose {@code ?} parameters are bound by position (1-based, as in JDBC) before each
 * execution. Values: Long/Integer/Short/Byte, BigDecimal, Double/Float, String, LocalDate, Boolean, or null.
 */
public final class PreparedQuery {
    private final PreparedStatementPlan plan;
    private final Object[] parameters;
    private final boolean[] bound;
    /** The session it was prepared in: it runs in the session's time zone of the moment. */
    private final Session session;

    PreparedQuery(PreparedStatementPlan plan, Session session) {
        this.plan = plan;
        this.session = session;
        this.parameters = new Object[plan.parameterCount()];
        this.bound = new boolean[parameters.length];
    }

    public int parameterCount() {
        return parameters.length;
    }

    /** The result's columns (empty for statements that return no rows). */
    public List<ResultColumn> columns() {
        return plan.columns();
    }

    /** Each parameter's type in the statement (null where the statement leaves it open), by position. */
    public List<ColumnType> parameterTypes() {
        return plan.parameterTypes();
    }

    public PreparedQuery set(int index, Object value) {
        if (index < 1 || index > parameters.length) {
            throw new IllegalArgumentException("parameter index " + index + " out of range: the statement has "
                    + parameters.length + " parameter(s)");
        }
        parameters[index - 1] = value;
        bound[index - 1] = true;
        return this;
    }

    public PreparedQuery clearParameters() {
        Arrays.fill(parameters, null);
        Arrays.fill(bound, false);
        return this;
    }

    public QueryResult execute() {
        return execute(ExecutionOptions.DEFAULTS);
    }

    /** Executes under per-query limits (memory budget, priority). */
    public QueryResult execute(ExecutionOptions options) {
        for (int i = 0; i < bound.length; i++) {
            if (!bound[i]) {
                throw new IllegalStateException("parameter " + (i + 1) + " is not set");
            }
        }
        return plan.execute(parameters.clone(), options.withTimeZone(session.timeZone()));
    }
}
