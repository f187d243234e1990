package io.locusdb.core.query.plan;

import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.query.scan.PartScanJob;
import io.locusdb.core.query.scan.PartTargets;
import io.locusdb.core.query.scan.ScanPipeline;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.query.expr.ExprCopier;
import io.locusdb.core.result.BatchSource;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.natives.memory.NodeMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntFunction;

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
    public static final String JOIN_BUILD_TASK_CLASS = Pipelines.JOIN_BUILD_TASK_CLASS;
    public static final String JOIN_PROBE_TASK_CLASS = Pipelines.JOIN_PROBE_TASK_CLASS;
    private static final int STREAM_QUEUE_BATCHES = 16;
    /** A computed relation of this many rows is aggregated by parallel tasks; fewer, on the calling thread. */
    static final int PARALLEL_AGGREGATE_ROWS = 16_384;

    private final NumaExecutor executor;
    private final int batchRows;
    private final PartTargets partTargets;
    private final NodeMemory memory;

    public QueryRunner(NumaExecutor executor, int batchRows) {
        this(executor, batchRows, PartTargets.NONE);
    }

    /** A runner whose scan tasks account their use of each part's node to {@code targets}. */
    public QueryRunner(NumaExecutor executor, int batchRows, PartTargets targets) {
        this(executor, null, batchRows, targets);
    }

    /** As above, with hash-table indexes in {@code memory} of the nodes that read them (null: on the heap). */
    public QueryRunner(NumaExecutor executor, NodeMemory memory, int batchRows, PartTargets targets) {
        this.executor = executor;
        this.memory = memory;
        this.batchRows = batchRows;
        this.partTargets = targets;
    }

    NumaExecutor executor() {
        return executor;
    }

    NodeMemory memory() {
        return memory;
    }

    int batchRows() {
        return batchRows;
    }

    PartTargets partTargets() {
        return partTargets;
    }

    public QueryResult run(PhysicalPlan plan, QueryContext query, List<TaskRecord> tasks) {
        List<PhysicalPlan.Op> ops = plan.ops();
        if (plan.source() instanceof PhysicalPlan.Scan scan && (ops.isEmpty() || ops.size() == 1
                && ops.getFirst() instanceof PhysicalPlan.Sort sort && sort.keys().isEmpty())) {
            // A plain scan (perhaps with OFFSET/LIMIT) streams its rows to the reader while it runs.
            PhysicalPlan.Sort limit = ops.isEmpty() ? null : (PhysicalPlan.Sort) ops.getFirst();
            StreamingSource source = new Pipelines(this, query, tasks::add).stream(scan, plan.columns(),
                    limit == null ? 0 : limit.offset(), limit == null ? -1 : limit.fetch(), STREAM_QUEUE_BATCHES);
            return QueryResult.rows(plan.columns(), source, tasks);
        }
        Relation relation = evaluate(plan, query, tasks::add);
        return QueryResult.rows(plan.columns(), relationSource(relation, plan.columns()), tasks);
    }

    /** A plan's whole result as a relation (the result of a query that is not streamed; the inputs of a join). */
    Relation evaluate(PhysicalPlan plan, QueryContext query, Consumer<TaskRecord> trace) {
        List<PhysicalPlan.Op> ops = plan.ops();
        Relation relation;
        int done = 0;
        switch (plan.source()) {
            case PhysicalPlan.Values values -> relation = values(values);
            case PhysicalPlan.Rows rows -> relation = rows(rows);
            case PhysicalPlan.Scan scan when !ops.isEmpty()
                    && ops.getFirst() instanceof PhysicalPlan.Aggregate aggregate
                    && countsOnly(scan, aggregate) -> {
                relation = countOnly(scan, aggregate, query, trace);
                done = 1;
            }
            case PhysicalPlan.Scan _, PhysicalPlan.Join _ -> {
                Pipelines.Outcome outcome = pipelines(plan, query, trace);
                relation = outcome.relation();
                done = outcome.opsDone();
            }
        }
        for (int i = done; i < ops.size(); i++) {
            if (ops.get(i) instanceof PhysicalPlan.Aggregate aggregate && relation.rows() >= PARALLEL_AGGREGATE_ROWS) {
                PhysicalPlan.Aggregate then = Pipelines.fusedNext(aggregate, ops, i + 1);
                try (Pipelines pipelines = new Pipelines(this, query, trace)) {
                    relation = pipelines.aggregate(relation, aggregate, then);
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

    private Pipelines.Outcome pipelines(PhysicalPlan plan, QueryContext query, Consumer<TaskRecord> trace) {
        try (Pipelines pipelines = new Pipelines(this, query, trace)) {
            return pipelines.execute(plan);
        }
    }

    private Relation apply(PhysicalPlan.Op op, Relation in, QueryContext query) {
        return switch (op) {
            case PhysicalPlan.Filter f -> RelationOps.filter(in, ExprCopier.forTask().copy(f.condition()));
            case PhysicalPlan.Project p -> RelationOps.project(in, ExprCopier.forTask().copyAll(p.exprs()),
                    p.names());
            case PhysicalPlan.Sort s -> RelationSort.sort(in, s.keys(), s.offset(), s.fetch(), executor, query);
            case PhysicalPlan.Aggregate a -> RelationOps.aggregate(in, a.keys(), a.calls(), a.names(),
                    a.outputTypes());
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

    /** Runs the scan and appends every part's output rows to {@code target.apply(part)}. */
    void collectInto(ScanProgram program, TableSnapshot snapshot, IntFunction<Relation> target,
                             QueryContext query, Consumer<TaskRecord> trace) {
        ScanPipeline.submit(executor, query, snapshot, program.ranges(), program.columns(true), part -> {
            ScanProgram.Kernels kernels = program.kernels();
            Relation relation = target.apply(part);
            return (ctx, batch) -> {
                Chunk out = kernels.apply(batch);
                if (out.rows() > 0) {
                    synchronized (relation) {
                        relation.append(out);
                    }
                }
            };
        }, trace, partTargets).await();
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
        try (TableSnapshot snapshot = scan.table().snapshot()) {
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
