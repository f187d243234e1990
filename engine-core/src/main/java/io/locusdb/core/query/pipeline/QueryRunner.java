package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.PartSelection;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.query.expr.ExprCopier;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.query.scan.PartScanJob;
import io.locusdb.core.query.scan.PartTargets;
import io.locusdb.core.result.BatchSource;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.natives.memory.NodeMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs a {@link PhysicalPlan} on the executor. Scans and joins run as {@link Pipelines}: a plain scan streams its
 * batches to the reader while it runs; an aggregation aggregates into a local table per pipeline task (on the
 * part's node); a local table that outgrows the cache, and each task's last one, is merged into disjoint result
 * tables, one merge task per hash partition, queued round-robin to the nodes that hold the parts, while scanning goes
 * on. What follows the aggregation runs on the merged relation. A bare COUNT(*) of pushed-down ranges is answered by
 * phase 1 alone.
 */
public final class QueryRunner {
    public static final String MERGE_TASK_CLASS = AggregateMerge.TASK_CLASS;
    public static final String JOIN_BUILD_TASK_CLASS = PipelineBuilder.JOIN_BUILD_TASK_CLASS;
    public static final String JOIN_PROBE_TASK_CLASS = PipelineBuilder.JOIN_PROBE_TASK_CLASS;
    private static final int STREAM_QUEUE_BATCHES = 16;
    /** A computed relation of this many rows is aggregated by parallel tasks; fewer, on the calling thread. */
    static final int PARALLEL_AGGREGATE_ROWS = 16_384;

    private final NumaExecutor executor;
    private final int batchRows;
    private final PartTargets partTargets;
    private final NodeMemory memory;
    /** Set on a runner made for one EXPLAIN ANALYZE: every pipeline it runs is counted there. */
    private final PipelineProfile profile;
    /** The single parts this runner's scans read of some tables (empty: whole tables). */
    private final List<PartSelection> parts;

    public QueryRunner(NumaExecutor executor, int batchRows) {
        this(executor, batchRows, PartTargets.NONE);
    }

    /** A runner whose scan tasks account their use of each part's node to {@code targets}. */
    public QueryRunner(NumaExecutor executor, int batchRows, PartTargets targets) {
        this(executor, null, batchRows, targets);
    }

    /** As above, with hash-table indexes in {@code memory} of the nodes that read them (null: on the heap). */
    public QueryRunner(NumaExecutor executor, NodeMemory memory, int batchRows, PartTargets targets) {
        this(executor, memory, batchRows, targets, null);
    }

    private QueryRunner(NumaExecutor executor, NodeMemory memory, int batchRows, PartTargets targets,
                        PipelineProfile profile) {
        this(executor, memory, batchRows, targets, profile, List.of());
    }

    private QueryRunner(NumaExecutor executor, NodeMemory memory, int batchRows, PartTargets targets,
                        PipelineProfile profile, List<PartSelection> parts) {
        this.parts = List.copyOf(parts);
        this.profile = profile;
        this.executor = executor;
        this.memory = memory;
        this.batchRows = batchRows;
        this.partTargets = targets;
    }

    /** This runner, counting the rows and time of every pipeline it runs into {@code profile}. */
    public QueryRunner profiled(PipelineProfile profile) {
        return new QueryRunner(executor, memory, batchRows, partTargets, profile, parts);
    }

    /** This runner, its scans of the tables {@code selected} names reading only the part named there. */
    public QueryRunner reading(List<PartSelection> selected) {
        return selected.isEmpty() && parts.isEmpty() ? this
                : new QueryRunner(executor, memory, batchRows, partTargets, profile, selected);
    }

    public QueryResult run(PhysicalPlan plan, QueryContext query, List<TaskRecord> tasks) {
        if (PipelineBuilder.streams(plan)) {
            // Rows that flow from a scan (through its joins' probes, filters and projections, perhaps to a LIMIT)
            // go to the reader while the scan runs.
            List<PhysicalPlan.Op> ops = plan.ops();
            PhysicalPlan.Sort limit = !ops.isEmpty() && ops.getLast() instanceof PhysicalPlan.Sort sort ? sort : null;
            PhysicalPlan body = limit == null ? plan
                    : new PhysicalPlan(plan.source(), ops.subList(0, ops.size() - 1), plan.columns());
            StreamingSource source = new PipelineBuilder(this, context(query, tasks::add)).stream(body,
                    plan.columns(), limit == null ? 0 : limit.offset(), limit == null ? -1 : limit.fetch(),
                    STREAM_QUEUE_BATCHES);
            return QueryResult.rows(plan.columns(), source, tasks);
        }
        Relation relation = evaluate(plan, query, tasks::add);
        return QueryResult.rows(plan.columns(), relationSource(relation, plan.columns()), tasks);
    }

    private PipelineContext context(QueryContext query, Consumer<TaskRecord> trace) {
        return new PipelineContext(executor, memory, batchRows, partTargets, query, trace, profile, parts);
    }

    /** The whole result of a computed input of {@code context}'s pipelines (a join's build side, say). */
    Relation evaluate(PhysicalPlan plan, PipelineContext context) {
        return evaluate(plan, context.query(), context.trace());
    }

    /** A plan's whole result as a relation (the result of a query that is not streamed; the inputs of a join). */
    Relation evaluate(PhysicalPlan plan, QueryContext query, Consumer<TaskRecord> trace) {
        List<PhysicalPlan.Op> ops = plan.ops();
        Relation relation;
        int done = 0;
        switch (plan.source()) {
            case PhysicalPlan.Values values -> relation = values(values);
            case PhysicalPlan.Rows rows -> relation = rows(rows);
            case PhysicalPlan.SetFunction function -> relation = SetFunctionRows.evaluate(function, query);
            case PhysicalPlan.Shared shared -> relation = query.attachment(SharedResults.class, SharedResults::new)
                    .get(shared.id(), () -> evaluate(shared.plan(), query, trace));
            case PhysicalPlan.Lateral lateral -> relation = SetFunctionRows.lateral(lateral,
                    evaluate(lateral.input(), query, trace), query);
            case PhysicalPlan.RepeatUnion repeat -> relation = RecursiveUnion.evaluate(repeat, query,
                    input -> evaluate(input, query, trace));
            case PhysicalPlan.WorkingTable working -> relation = query.attachment(RecursiveUnion.WorkingTables.class,
                    RecursiveUnion.WorkingTables::new).get(working.table());
            case PhysicalPlan.Scan scan when !ops.isEmpty()
                    && ops.getFirst() instanceof PhysicalPlan.Aggregate aggregate
                    && countsOnly(scan, aggregate) -> {
                relation = countOnly(scan, aggregate, query, trace);
                done = 1;
            }
            case PhysicalPlan.Scan _, PhysicalPlan.Join _, PhysicalPlan.Union _ -> {
                try (PipelineContext context = context(query, trace)) {
                    PipelineBuilder.Outcome outcome = new PipelineBuilder(this, context).execute(plan);
                    relation = outcome.relation();
                    done = outcome.opsDone();
                }
            }
        }
        for (int i = done; i < ops.size(); i++) {
            if (ops.get(i) instanceof PhysicalPlan.Aggregate aggregate && relation.rows() >= PARALLEL_AGGREGATE_ROWS) {
                PhysicalPlan.Aggregate then = PipelineBuilder.fusedNext(aggregate, ops, i + 1);
                try (PipelineContext context = context(query, trace)) {
                    relation = new PipelineBuilder(this, context).aggregate(relation, aggregate, then);
                }
                if (then != null) {
                    i++;
                }
            } else {
                relation = apply(ops.get(i), relation, query);
            }
        }
        return relation;
    }

    private Relation apply(PhysicalPlan.Op op, Relation in, QueryContext query) {
        return switch (op) {
            case PhysicalPlan.Filter f -> RelationOps.filter(in, ExprCopier.forTask().copy(f.condition()));
            case PhysicalPlan.Project p -> RelationOps.project(in, ExprCopier.forTask().copyAll(p.exprs()),
                    p.names());
            case PhysicalPlan.Sort s -> RelationSort.sort(in, s.keys(), s.offset(), s.fetch(), executor, query);
            case PhysicalPlan.Aggregate a -> RelationOps.aggregate(in, a.keys(), a.calls(), a.names(),
                    a.outputTypes());
            case PhysicalPlan.Window w -> WindowOperator.apply(in, w, executor, query);
        };
    }

    private Relation values(PhysicalPlan.Values values) {
        List<ColumnVector> columns = new ArrayList<>();
        int rows = values.rows().size();
        for (int c = 0; c < values.types().size(); c++) {
            ColumnVector v = new ColumnVector(values.types().get(c), Math.max(1, rows));
            for (int r = 0; r < rows; r++) {
                Object value = values.rows().get(r)[c];
                if (value == null) {
                    v.setNull(r);
                } else if (value instanceof Long l) {
                    v.setLong(r, l);
                } else if (value instanceof Double d) {
                    v.setDouble(r, d);
                } else {
                    v.setString(r, (String) value);
                }
            }
            columns.add(v);
        }
        return new Relation(columns, values.names(), rows);
    }

    private static Relation rows(PhysicalPlan.Rows source) {
        List<ColumnVector> columns = new ArrayList<>();
        int rows = source.rows().size();
        for (int c = 0; c < source.types().size(); c++) {
            ColumnVector v = new ColumnVector(source.types().get(c), Math.max(1, rows));
            boolean doubles = source.types().get(c).physical() == TypeKind.Physical.DOUBLE;
            for (int r = 0; r < rows; r++) {
                switch (source.rows().get(r)[c]) {
                    case null -> v.setNull(r);
                    case Boolean b -> v.setLong(r, b ? 1 : 0);
                    case Number n when doubles -> v.setDouble(r, n.doubleValue());
                    case Number n -> v.setLong(r, n.longValue());
                    case Object o -> v.setString(r, o.toString());
                }
            }
            v.setSize(rows);
            v.refreshNulls();
            columns.add(v);
        }
        return new Relation(columns, source.names(), rows);
    }

    // ---- aggregation ----

    /** COUNT(*) only, no grouping, no residual filter: the phase-1 counts are the answer. */
    private static boolean countsOnly(PhysicalPlan.Scan scan, PhysicalPlan.Aggregate aggregate) {
        return AggregateInput.of(scan, aggregate).countsOnly(scan.residual());
    }

    /** COUNT(*) of pushed-down ranges only: phase 1 counts, nothing is materialized. */
    private Relation countOnly(PhysicalPlan.Scan scan, PhysicalPlan.Aggregate aggregate, QueryContext query,
                               Consumer<TaskRecord> trace) {
        long count;
        try (TableSnapshot snapshot = PipelineContext.snapshot(scan.table(), parts)) {
            PartScanJob.Result result = PartScanJob.run(executor, query, snapshot, scan.ranges(), false,
                    partTargets);
            for (PartScanJob.PartResult p : result.parts()) {
                trace.accept(new TaskRecord(PartScanJob.TASK_CLASS, p.part(), p.homeNode(), p.ranOnNode(),
                        p.stolen(), p.matches()));
            }
            count = result.matches();
        }
        List<ColumnVector> columns = new ArrayList<>();
        for (ColumnType type : aggregate.outputTypes()) {
            ColumnVector v = new ColumnVector(type, 1);
            v.setLong(0, count);
            columns.add(v);
        }
        return new Relation(columns, aggregate.names(), 1);
    }

    // ---- results ----

    private BatchSource relationSource(Relation relation, List<ResultColumn> columns) {
        return new BatchSource() {
            private int next;

            @Override
            public ResultBatch next() {
                if (next >= relation.rows()) {
                    return null;
                }
                int count = Math.min(batchRows, relation.rows() - next);
                ResultBatch batch = relation.slice(columns, next, count);
                next += count;
                return batch;
            }

            @Override
            public void close() {
                next = Integer.MAX_VALUE;
            }
        };
    }
}
