package io.locusdb.core;

import io.locusdb.core.exec.ExecutionOptions;
import io.locusdb.core.query.PreparedStatementPlan;
import io.locusdb.core.query.QueryEngine;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.sql.TimeZoneCommand;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TimeZones;
import java.time.ZoneId;
import java.util.List;

/**
 * A connection to an embedded database. Statements run one at a time per session; results stream, so a result
 * should be closed (or read to the end) before the next statement. The session keeps its time zone
 * ({@code SET TIME ZONE}), in which TIMESTAMP WITH TIME ZONE values are read and shown.
 */
public final class Session implements AutoCloseable {
    private final QueryEngine engine;
    private volatile ZoneId timeZone = TimeZones.DEFAULT;
    private boolean closed;

    Session(QueryEngine engine) {
        this.engine = engine;
    }

    /** Runs any statement: a query (the result streams) or DDL/DML/LOAD (the result holds the update count). */
    public QueryResult execute(String sql) {
        return execute(sql, ExecutionOptions.DEFAULTS);
    }

    /** Runs any statement under per-query limits (memory budget, priority), in the session's time zone. */
    public QueryResult execute(String sql, ExecutionOptions options) {
        checkOpen();
        TimeZoneCommand command = TimeZoneCommand.parse(sql);
        if (command != null) {
            return apply(command);
        }
        return engine.execute(sql, options.withTimeZone(timeZone));
    }

    /** Plans a statement with {@code ?} parameters once; set them and execute as often as needed. */
    public PreparedQuery prepare(String sql) {
        checkOpen();
        TimeZoneCommand command = TimeZoneCommand.parse(sql);
        return new PreparedQuery(command != null ? new TimeZoneStatement(command) : engine.prepare(sql), this);
    }

    /** The zone TIMESTAMP WITH TIME ZONE values are read and shown in: UTC until set. */
    public ZoneId timeZone() {
        return timeZone;
    }

    /** Sets the session's time zone, as {@code SET TIME ZONE} does. */
    public void timeZone(ZoneId zone) {
        timeZone = zone;
    }

    private QueryResult apply(TimeZoneCommand command) {
        return switch (command) {
            case TimeZoneCommand.Set set -> {
                timeZone = set.zone();
                yield QueryResult.updateCount(0);
            }
            case TimeZoneCommand.Show show -> QueryResult.text("TimeZone", List.of(TimeZones.show(timeZone)));
        };
    }

    /** A prepared {@code SET TIME ZONE} or {@code SHOW TIME ZONE}. */
    private final class TimeZoneStatement implements PreparedStatementPlan {
        private final TimeZoneCommand command;

        TimeZoneStatement(TimeZoneCommand command) {
            this.command = command;
        }

        @Override
        public int parameterCount() {
            return 0;
        }

        @Override
        public List<ResultColumn> columns() {
            return command instanceof TimeZoneCommand.Show ? List.of(new ResultColumn("TimeZone", ColumnType.VARCHAR))
                    : List.of();
        }

        @Override
        public List<ColumnType> parameterTypes() {
            return List.of();
        }

        @Override
        public QueryResult execute(Object[] parameters) {
            return apply(command);
        }

        @Override
        public QueryResult execute(Object[] parameters, ExecutionOptions options) {
            return apply(command);
        }
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
