package io.locusdb.core.query;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.durable.DurableStore;
import io.locusdb.core.exec.ExecutionOptions;
import io.locusdb.core.exec.PartSelection;
import io.locusdb.core.exec.MemoryBudgetExceededException;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.placer.PlacementActions;
import io.locusdb.core.placer.UtilizationTracker;
import io.locusdb.core.query.expr.SessionTimeZone;
import io.locusdb.core.query.planner.ConstantFolder;
import io.locusdb.core.query.pipeline.ExplainWriter;
import io.locusdb.core.query.planner.JoinOrderRule;
import io.locusdb.core.query.planner.KeyLookupPlanning;
import io.locusdb.core.query.planner.ParameterBinder;
import io.locusdb.core.query.lookup.KeyLookupPlan;
import io.locusdb.core.query.scan.IndexScan;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.query.planner.PhysicalPlanner;
import io.locusdb.core.query.planner.SqlTypes;
import io.locusdb.core.query.pipeline.PipelineProfile;
import io.locusdb.core.query.pipeline.QueryRunner;
import io.locusdb.core.result.BatchSource;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.PartHint;
import io.locusdb.core.sql.PlanningTime;
import io.locusdb.core.sql.SqlFrontEnd;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.sql.SystemTable;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.PartsChangedException;
import io.locusdb.core.storage.type.ColumnType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/** Statements to plans: SQL through Calcite, then the physical planner onto the executor. */
public final class QueryEngine {
    private final Catalog catalog;
    private final NumaExecutor executor;
    private final int loadThreads;
    private final int batchRows;
    private final SqlFrontEnd frontEnd;
    private final QueryRunner runner;
    private final StatementRunner statements;
    private final QueryLog log;
    /** Plans kept for ad-hoc statements: {@code -Dlocus.plan-cache=N} (0 turns the cache off, for comparisons). */
    private final PlanCache<SelectPlan> plans = new PlanCache<>(Math.max(0, Integer.getInteger("locus.plan-cache",
            512)));
    /** Expected work of queries by their shape: the executor starts short queries' pipelines first. */
    private final WorkEstimates estimates = new WorkEstimates(4096);

    /**
     * @param tracker where scan tasks account their use of each part's node (the placer's histories)
     * @param actions how {@code ALTER TABLE ... MOVE / PARTITION / MERGE} change placements (as placer events)
     * @param systemTables the database's state as tables, beside the catalog's
     * @param store        where writes and DDL are logged; null when the database lives in memory only
     */
    /** Statements being planned right now (see {@link #busy()}). */
    private final AtomicInteger planning = new AtomicInteger();

    public QueryEngine(Catalog catalog, NumaExecutor executor, int loadThreads, int batchRows,
                       UtilizationTracker tracker, PlacementActions actions, List<SystemTable> systemTables,
                       DurableStore store) {
        this(catalog, executor, loadThreads, batchRows, tracker, actions, systemTables, store,
                new QueryLog(QueryLog.DEFAULT_CAPACITY));
    }

    /** @param log where every statement's planning and running time is kept ({@code locus_query_log}) */
    public QueryEngine(Catalog catalog, NumaExecutor executor, int loadThreads, int batchRows,
                       UtilizationTracker tracker, PlacementActions actions, List<SystemTable> systemTables,
                       DurableStore store, QueryLog log) {
        this.log = log;
        this.catalog = catalog;
        this.executor = executor;
        this.loadThreads = loadThreads;
        this.batchRows = batchRows;
        this.frontEnd = new SqlFrontEnd(catalog, ConstantFolder.INSTANCE, systemTables, List.of(JoinOrderRule.INSTANCE));
        this.runner = new QueryRunner(executor, catalog.memory(), batchRows,
                // Positions in a snapshot of one selected part are not the part's index in its table.
                (snapshot, part) -> tracker.target(snapshot.table(), snapshot.parts().get(part).index(),
                        snapshot.version().parts().size()));
        this.statements = new StatementRunner(catalog, loadThreads, actions, store,
                sql -> new SelectPlan(frontEnd.plan(sql)).execute(new Object[0]));
    }

    public Catalog catalog() {
        return catalog;
    }

    public QueryLog queryLog() {
        return log;
    }

    /**
     * Runs an ad-hoc statement. A query's plan is kept by its text and used again while the catalog is at the same
     * epoch, so a statement sent again skips parsing, validation and the optimizer.
     */
    public QueryResult execute(String sql, ExecutionOptions options) {
        return SessionTimeZone.in(options.timeZone(), () -> executeAdHoc(sql, options));
    }

    private QueryResult executeAdHoc(String sql, ExecutionOptions options) {
        PartHint hint = PartHint.read(sql);
        if (hint != null) {
            sql = hint.statement();
            options = options.withParts(hint.parts());
        }
        String key = sql.strip();
        long epoch = catalog.epoch();
        SelectPlan plan = plans.take(key, epoch);
        QueryLog.PlanSource source = QueryLog.PlanSource.CACHED;
        if (plan == null) {
            PreparedStatementPlan prepared;
            try {
                prepared = prepare(sql);
            } catch (RuntimeException e) {
                log.add(Instant.now(), logText(sql), QueryLog.PlanSource.PLANNED, PlanningTime.NONE, 0, 0, 0,
                        describe(e));
                throw e;
            }
            if (!(prepared instanceof SelectPlan select) || select.parameterCount() > 0) {
                if (!(prepared instanceof SelectPlan)) {
                    refuseParts(options);
                }
                return prepared.execute(new Object[0], options);
            }
            plan = select;
            source = QueryLog.PlanSource.PLANNED;
        }
        try {
            return plan.run(new Object[0], options, source);
        } finally {
            plans.put(key, epoch, plan);
        }
    }

    /** Ad-hoc statements whose plan came from the cache, and those that were planned. */
    public long[] planCacheHitsAndMisses() {
        return new long[] {plans.hits(), plans.misses()};
    }

    public PreparedStatementPlan prepare(String sql) {
        PartHint hint = PartHint.read(sql);
        if (hint != null) {
            PreparedStatementPlan plan = prepare(hint.statement());
            ExecutionOptions parts = ExecutionOptions.DEFAULTS.withParts(hint.parts());
            if (!(plan instanceof SelectPlan select)) {
                refuseParts(parts);
                return plan;
            }
            return hint.parts().isEmpty() ? select : select.reading(hint.parts());
        }
        planning.incrementAndGet();
        try {
            PreparedStatementPlan statement = statements.prepare(sql);
            if (statement != null) {
                return new LoggedStatement(sql, statement);
            }
            return new SelectPlan(frontEnd.plan(sql));
        } finally {
            planning.decrementAndGet();
        }
    }

    /**
     * True while a statement is being planned or a query's tasks run: background work that can wait (the preload of a
     * restarted database) gives way then.
     */
    public boolean busy() {
        return planning.get() > 0 || executor.outstandingGraphs() > 0;
    }

    /** DDL, DML and the other statements run without the query planner, timed into the query log. */
    private final class LoggedStatement implements PreparedStatementPlan {
        /** The text as the query log keeps it, made once. */
        private final String text;
        private final PreparedStatementPlan statement;

        LoggedStatement(String sql, PreparedStatementPlan statement) {
            this.text = logText(sql);
            this.statement = statement;
        }

        @Override
        public int parameterCount() {
            return statement.parameterCount();
        }

        @Override
        public List<ResultColumn> columns() {
            return statement.columns();
        }

        @Override
        public List<ColumnType> parameterTypes() {
            return statement.parameterTypes();
        }

        @Override
        public QueryResult execute(Object[] parameters) {
            return execute(parameters, ExecutionOptions.DEFAULTS);
        }

        @Override
        public QueryResult execute(Object[] parameters, ExecutionOptions options) {
            return SessionTimeZone.in(options.timeZone(), () -> executeInZone(parameters, options));
        }

        private QueryResult executeInZone(Object[] parameters, ExecutionOptions options) {
            Instant started = Instant.now();
            long start = System.nanoTime();
            try {
                QueryResult result = statement.execute(parameters, options);
                long ranUntilReturned = System.nanoTime() - start;
                return result.whenComplete((rows, failure) -> log.add(started, text,
                        QueryLog.PlanSource.STATEMENT, PlanningTime.NONE, 0,
                        result.hasRows() ? System.nanoTime() - start : ranUntilReturned,
                        result.hasRows() ? rows : Math.max(0, result.updateCount()), describe(failure)));
            } catch (RuntimeException e) {
                log.add(started, text, QueryLog.PlanSource.STATEMENT, PlanningTime.NONE, 0,
                        System.nanoTime() - start, 0, describe(e));
                throw e;
            }
        }
    }

    /** A planned query: physical planning happens per execution, once the parameters are bound. */
    private final class SelectPlan implements PreparedStatementPlan {
        private final SqlFrontEnd.LogicalQuery query;
        /** The text as the query log keeps it, made once: a prepared statement runs many times. */
        private final String logText;
        /** The executor's name for its runs (task graphs, logs), made once for the same reason. */
        private final String label;
        /** The key of the statement's work estimates. */
        private final String shape;
        /** Set when the statement reads one row by its whole primary key: it then runs without a plan. */
        private final KeyLookupPlan lookup;
        private final int parameters;
        private final List<ResultColumn> columns;

        SelectPlan(SqlFrontEnd.LogicalQuery query) {
            this.query = query;
            this.logText = logText(query.sql());
            this.label = label(query.sql());
            this.shape = StatementShape.of(query.sql());
            this.parameters = query.parameterCount();
            this.columns = query.explain() ? List.of(new ResultColumn("plan", ColumnType.VARCHAR))
                    : PhysicalPlanner.columns(query.plan(), query.columnNames());
            this.lookup = KeyLookupPlanning.match(query.plan(), query.explain()
                    ? PhysicalPlanner.columns(query.plan(), query.columnNames()) : columns);
        }

        /** This statement, every execution reading only the table parts {@code parts} names. */
        PreparedStatementPlan reading(List<PartSelection> parts) {
            SelectPlan plan = this;
            return new PreparedStatementPlan() {
                @Override
                public int parameterCount() {
                    return plan.parameterCount();
                }

                @Override
                public List<ResultColumn> columns() {
                    return plan.columns();
                }

                @Override
                public List<ColumnType> parameterTypes() {
                    return plan.parameterTypes();
                }

                @Override
                public QueryResult execute(Object[] values) {
                    return plan.execute(values, ExecutionOptions.DEFAULTS.withParts(parts));
                }

                @Override
                public QueryResult execute(Object[] values, ExecutionOptions options) {
                    return plan.execute(values, options.withParts(parts));
                }
            };
        }

        @Override
        public int parameterCount() {
            return parameters;
        }

        @Override
        public List<ResultColumn> columns() {
            return columns;
        }

        @Override
        public List<ColumnType> parameterTypes() {
            List<ColumnType> types = new ArrayList<>(parameters);
            for (RelDataType type : query.parameterTypes()) {
                ColumnType known;
                try {
                    known = type.getSqlTypeName() == SqlTypeName.NULL || type.getSqlTypeName() == SqlTypeName.ANY
                            ? null : SqlTypes.of(type);
                } catch (LocusSqlException e) {
                    known = null;
                }
                types.add(known);
            }
            return types;
        }

        @Override
        public QueryResult execute(Object[] values) {
            return execute(values, ExecutionOptions.DEFAULTS);
        }

        @Override
        public QueryResult execute(Object[] values, ExecutionOptions options) {
            return run(values, options, QueryLog.PlanSource.PREPARED);
        }

        /** Executes, and keeps the statement's planning and running time in the query log. */
        QueryResult run(Object[] values, ExecutionOptions options, QueryLog.PlanSource source) {
            return SessionTimeZone.in(options.timeZone(), () -> runInZone(values, options, source));
        }

        private QueryResult runInZone(Object[] values, ExecutionOptions options, QueryLog.PlanSource source) {
            Instant started = Instant.now();
            long start = System.nanoTime();
            PlanningTime front = source == QueryLog.PlanSource.PLANNED ? query.planning() : PlanningTime.NONE;
            long[] physicalNanos = {0};
            try {
                QueryResult result = bindAndRun(values, options, physicalNanos, front);
                long runStart = start + physicalNanos[0];
                return result.whenComplete((rows, failure) -> log.add(started, logText, source, front,
                        physicalNanos[0], System.nanoTime() - runStart, rows, describe(failure)));
            } catch (RuntimeException e) {
                long elapsed = System.nanoTime() - start;
                log.add(started, logText, source, front, physicalNanos[0],
                        elapsed - physicalNanos[0], 0, describe(e));
                throw e;
            }
        }

        private QueryResult bindAndRun(Object[] values, ExecutionOptions options, long[] physicalNanos,
                                       PlanningTime front) {
            if (values.length != parameters) {
                throw new LocusSqlException(SqlState.INVALID_PARAMETER, "the statement has " + parameters
                        + " parameter(s), " + values.length + " given");
            }
            List<PartSelection> parts = options.parts();
            for (PartSelection p : parts) {
                if (catalog.find(p.table()).isEmpty()) {
                    throw new LocusSqlException(SqlState.UNDEFINED_TABLE, "table '" + p.table()
                            + "' of the PART hint does not exist");
                }
            }
            // A key lookup reads the whole table's index: with parts selected, the query runs as planned.
            KeyLookupPlan lookup = parts.isEmpty() ? this.lookup : null;
            if (lookup != null && query.explain() && IndexScan.enabled()) {
                List<String> lines = new ArrayList<>(lookup.explain(QueryEngine.this::current));
                if (query.analyze()) {
                    long start = System.nanoTime();
                    QueryResult found = lookup.execute(values, QueryEngine.this::current);
                    long rows = found == null ? -1 : drain(found, new long[1], start);
                    lines.add(rows < 0 ? "Actual: the table changed since planning; the statement would run as a"
                            + " scan" : String.format(Locale.ROOT, "Actual: %,d row%s in %.3f ms, no tasks", rows,
                            rows == 1 ? "" : "s", (System.nanoTime() - start) / 1e6));
                }
                return text(lines);
            }
            if (lookup != null && !query.explain()) {
                QueryResult found = lookup.execute(values, QueryEngine.this::current);
                if (found != null) {
                    return found;
                }
            }
            long start = System.nanoTime();
            RelNode plan = query.plan();
            PhysicalPlan physical = PhysicalPlanner.plan(plan, query.columnNames(),
                    new ParameterBinder(plan.getCluster().getRexBuilder(), values), QueryEngine.this::current);
            physicalNanos[0] = System.nanoTime() - start;
            if (query.explain() && !query.analyze()) {
                return text(ExplainWriter.explain(physical, batchRows));
            }
            long scannedRows = physical.scannedRows();
            QueryContext context = QueryContext.create(label, options.priority(),
                    options.memoryBudgetBytes(), estimates.expectedNanos(shape, scannedRows));
            try {
                if (query.analyze()) {
                    return analyze(runner.reading(parts), physical, context, front, physicalNanos[0]);
                }
                return runner.reading(parts).run(physical, context, new CopyOnWriteArrayList<>())
                        .whenComplete((rows, failure) -> {
                            if (failure == null) {
                                estimates.record(shape, scannedRows, context.workNanos());
                            }
                        });
            } catch (CancellationException e) {
                // The calling thread was interrupted while the query ran (the server cancelling a statement): the
                // wait gave up, so stop the query's tasks too instead of letting them run on unread.
                context.cancel("the statement was cancelled");
                throw e;
            } catch (MemoryBudgetExceededException e) {
                throw new LocusSqlException(SqlState.OUT_OF_MEMORY, e.getMessage(), 0, 0, e);
            } catch (PartsChangedException e) {
                throw new LocusSqlException(SqlState.SERIALIZATION_FAILURE, e.getMessage(), 0, 0, e);
            } catch (IllegalStateException e) {
                if (e.getMessage() != null && e.getMessage().contains("was dropped")) {
                    throw new LocusSqlException(SqlState.UNDEFINED_TABLE, e.getMessage());
                }
                throw e;
            }
        }
    }

    /**
     * EXPLAIN ANALYZE: runs the plan, reading its rows to the end and throwing them away, then shows the plan with
     * what happened: rows, planning time by stage (the front end's is zero when the plan came from the cache or
     * was prepared), time to the first batch and to the end, each pipeline's counts and the tasks by class and node.
     */
    private QueryResult analyze(QueryRunner runner, PhysicalPlan physical, QueryContext context,
                                PlanningTime front, long planningNanos) {
        PipelineProfile profile = new PipelineProfile();
        List<TaskRecord> tasks = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        long[] firstBatch = {-1};
        long rows = drain(runner.profiled(profile).run(physical, context, tasks), firstBatch, start);
        long total = System.nanoTime() - start;
        List<String> lines = new ArrayList<>(ExplainWriter.explain(physical, batchRows));
        lines.add(String.format(Locale.ROOT, "Actual: %,d row%s; planning %.3f ms (parse %.3f, validate %.3f,"
                        + " convert %.3f, rewrite and join order %.3f, physical %.3f), execution %.3f ms (first batch"
                        + " at %.3f ms)", rows, rows == 1 ? "" : "s", (front.totalNanos() + planningNanos) / 1e6,
                front.parseNanos() / 1e6, front.validateNanos() / 1e6, front.convertNanos() / 1e6,
                front.rewriteNanos() / 1e6, planningNanos / 1e6, total / 1e6,
                firstBatch[0] < 0 ? total / 1e6 : firstBatch[0] / 1e6));
        lines.addAll(profile.lines());
        lines.addAll(PipelineProfile.taskLines(tasks));
        return text(lines);
    }

    /**
     * Reads a result to the end and closes it; returns its rows, and puts when the first batch came in
     * {@code firstBatch}.
     */
    private static long drain(QueryResult result, long[] firstBatch, long start) {
        long rows = 0;
        try (result) {
            for (ResultBatch batch = result.nextBatch(); batch != null; batch = result.nextBatch()) {
                if (firstBatch[0] < 0) {
                    firstBatch[0] = System.nanoTime() - start;
                }
                rows += batch.rows();
            }
        }
        return rows;
    }

    /** A PART hint selects what a query reads; other statements take none. */
    private static void refuseParts(ExecutionOptions options) {
        if (!options.parts().isEmpty()) {
            throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "a PART hint selects the table parts a query"
                    + " reads; it does not apply to this statement");
        }
    }

    /** The table registered now under the name a statement was planned against, if it still has that schema. */
    private io.locusdb.core.storage.table.Table current(io.locusdb.core.storage.table.Table planned) {
        io.locusdb.core.storage.table.Table now = catalog.find(planned.name()).orElseThrow(() ->
                new LocusSqlException(SqlState.UNDEFINED_TABLE, "table '" + planned.name()
                        + "' no longer exists"));
        if (now != planned && !now.schema().columns().equals(planned.schema().columns())) {
            throw new LocusSqlException(SqlState.INVALID_STATE, "table '" + planned.name() + "' was replaced with"
                    + " different columns since the statement was prepared: prepare it again");
        }
        return now;
    }

    static QueryResult text(List<String> lines) {
        List<ResultColumn> columns = List.of(new ResultColumn("plan", ColumnType.VARCHAR));
        ColumnVector v = new ColumnVector(ColumnType.VARCHAR, Math.max(1, lines.size()));
        for (int i = 0; i < lines.size(); i++) {
            v.setString(i, lines.get(i));
        }
        v.setSize(lines.size());
        ResultBatch batch = new ResultBatch(columns, List.of(v), lines.size());
        return QueryResult.rows(columns, BatchSource.of(batch));
    }

    /** The statement as the query log keeps it: on one line, at most 1000 characters. */
    private static String logText(String sql) {
        String flat = sql.strip().replaceAll("\\s+", " ");
        return flat.length() > 1000 ? flat.substring(0, 997) + "..." : flat;
    }

    private static String describe(Throwable failure) {
        if (failure == null) {
            return null;
        }
        return failure instanceof LocusSqlException e ? e.sqlState() + " " + e.getMessage()
                : String.valueOf(failure.getMessage());
    }

    private static String label(String sql) {
        String flat = sql.strip().replaceAll("\\s+", " ");
        return flat.length() > 60 ? flat.substring(0, 57) + "..." : flat;
    }
}
