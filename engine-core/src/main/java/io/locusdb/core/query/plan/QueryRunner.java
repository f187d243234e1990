package io.locusdb.core.query.plan;

import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.vector.Batch;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.query.scan.MaterializeJob;
import io.locusdb.core.query.scan.PartScanJob;
import io.locusdb.core.query.scan.PartTargets;
import io.locusdb.core.query.scan.ScanPipeline;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.expr.ExprCopier;
import io.locusdb.core.result.BatchSource;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.natives.memory.NodeMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Runs a {@link PhysicalPlan} on the executor. A plain scan streams its batches to the reader while it runs; an
 * aggregation over a scan aggregates into a local table per materialize task (on the part's node); a local table
 * that outgrows the cache, and each task's last one, is merged into disjoint result tables, one merge task per
 * hash partition, queued round-robin to the nodes that hold the parts, while scanning goes on. What follows the
 * aggregation runs on the merged relation. A plan over a join runs as a {@link JoinPipeline}.
 */
public final class QueryRunner {
    public static final String MERGE_TASK_CLASS = AggregateMerge.TASK_CLASS;
    public static final String JOIN_BUILD_TASK_CLASS = JoinPipeline.JOIN_BUILD_TASK_CLASS;
    public static final String JOIN_PROBE_TASK_CLASS = JoinPipeline.JOIN_PROBE_TASK_CLASS;
    private static final int STREAM_QUEUE_BATCHES = 16;

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

    public QueryResult run(PhysicalPlan plan, QueryContext query, List<TaskRecord> tasks) {
        Consumer<TaskRecord> trace = tasks::add;
        List<PhysicalPlan.Op> ops = plan.ops();
        Relation relation;
        int done;
        switch (plan.source()) {
            case PhysicalPlan.Values values -> {
                relation = values(values);
                done = 0;
            }
            case PhysicalPlan.Rows rows -> {
                relation = rows(rows);
                done = 0;
            }
            case PhysicalPlan.Join join -> {
                JoinPipeline.Outcome outcome = JoinPipeline.run(this, executor, memory, batchRows, partTargets, plan,
                        query, trace);
                relation = outcome.relation();
                done = outcome.opsDone();
            }
            case PhysicalPlan.Scan scan -> {
                if (!ops.isEmpty() && ops.getFirst() instanceof PhysicalPlan.Aggregate aggregate) {
                    relation = aggregateScan(plan, scan, aggregate, query, trace);
                    done = 1;
                } else if (ops.isEmpty() || ops.size() == 1 && ops.getFirst() instanceof PhysicalPlan.Sort sort
                        && sort.keys().isEmpty()) {
                    PhysicalPlan.Sort limit = ops.isEmpty() ? null : (PhysicalPlan.Sort) ops.getFirst();
                    return stream(plan, scan, limit, tasks, query, trace);
                } else {
                    relation = collect(plan, scan, query, trace);
                    done = 0;
                }
            }
        }
        for (int i = done; i < ops.size(); i++) {
            relation = apply(ops.get(i), relation);
        }
        return QueryResult.rows(plan.columns(), relationSource(relation, plan.columns()), tasks);
    }

    /** A plan's whole result as a relation (the inputs of a join). */
    Relation evaluate(PhysicalPlan plan, QueryContext query, Consumer<TaskRecord> trace) {
        List<PhysicalPlan.Op> ops = plan.ops();
        Relation relation;
        int done = 0;
        switch (plan.source()) {
            case PhysicalPlan.Values values -> relation = values(values);
            case PhysicalPlan.Rows rows -> relation = rows(rows);
            case PhysicalPlan.Join join -> {
                JoinPipeline.Outcome outcome = JoinPipeline.run(this, executor, memory, batchRows, partTargets, plan,
                        query, trace);
                relation = outcome.relation();
                done = outcome.opsDone();
            }
            case PhysicalPlan.Scan scan -> {
                if (!ops.isEmpty() && ops.getFirst() instanceof PhysicalPlan.Aggregate aggregate) {
                    relation = aggregateScan(plan, scan, aggregate, query, trace);
                    done = 1;
                } else {
                    relation = collect(plan, scan, query, trace);
                }
            }
        }
        for (int i = done; i < ops.size(); i++) {
            relation = apply(ops.get(i), relation);
        }
        return relation;
    }

    private Relation apply(PhysicalPlan.Op op, Relation in) {
        return switch (op) {
            case PhysicalPlan.Filter f -> RelationOps.filter(in, ExprCopier.forTask().copy(f.condition()));
            case PhysicalPlan.Project p -> RelationOps.project(in, ExprCopier.forTask().copyAll(p.exprs()),
                    p.names());
            case PhysicalPlan.Sort s -> RelationOps.sort(in, s.keys(), s.offset(), s.fetch());
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

    // ---- plain scans ----

    private QueryResult stream(PhysicalPlan plan, PhysicalPlan.Scan scan, PhysicalPlan.Sort limit, List<TaskRecord> tasks,
                               QueryContext query, Consumer<TaskRecord> trace) {
        ScanProgram program = new ScanProgram(scan, batchRows);
        StreamingSource source = new StreamingSource(STREAM_QUEUE_BATCHES, limit == null ? 0 : limit.offset(),
                limit == null ? -1 : limit.fetch());
        List<ResultColumn> columns = plan.columns();
        TableSnapshot snapshot = scan.table().snapshot();
        GraphHandle handle;
        try {
            handle = ScanPipeline.submit(executor, query, snapshot, program.ranges(), program.columns(true),
                    part -> {
                        ScanProgram.Kernels kernels = program.kernels();
                        return (ctx, batch) -> {
                            int n = kernels.apply(batch);
                            if (n == 0) {
                                return;
                            }
                            ResultBatch out = copy(columns, kernels.results(), program.outputTypes(), n);
                            executor.blocking().inactive(() -> {
                                source.queue().put(out);
                                return null;
                            });
                        };
                    }, trace, partTargets);
        } catch (RuntimeException | Error e) {
            snapshot.close();
            throw e;
        }
        handle.completion().whenComplete((ignored, error) -> snapshot.close());
        source.start(handle);
        return QueryResult.rows(columns, source, tasks);
    }

    private static ResultBatch copy(List<ResultColumn> columns, ColumnVector[] results, List<ColumnType> types,
                                    int rows) {
        List<ColumnVector> vectors = new ArrayList<>(results.length);
        for (int c = 0; c < results.length; c++) {
            vectors.add(RelationOps.copy(results[c], types.get(c), rows));
        }
        return new ResultBatch(columns, vectors, rows);
    }

    private Relation collect(PhysicalPlan plan, PhysicalPlan.Scan scan, QueryContext query,
                             Consumer<TaskRecord> trace) {
        ScanProgram program = new ScanProgram(scan, batchRows);
        Relation relation = Relation.empty(program.outputTypes(), scan.names()).chargedTo(query.memory());
        try (TableSnapshot snapshot = scan.table().snapshot()) {
            collectInto(program, snapshot, part -> relation, query, trace);
        }
        return relation;
    }

    /** Runs the scan and appends every part's output rows to {@code target.apply(part)}. */
    void collectInto(ScanProgram program, TableSnapshot snapshot, IntFunction<Relation> target,
                             QueryContext query, Consumer<TaskRecord> trace) {
        ScanPipeline.submit(executor, query, snapshot, program.ranges(), program.columns(true), part -> {
            ScanProgram.Kernels kernels = program.kernels();
            Relation relation = target.apply(part);
            return (ctx, batch) -> {
                int n = kernels.apply(batch);
                if (n > 0) {
                    synchronized (relation) {
                        relation.append(List.of(kernels.results()), n);
                    }
                }
            };
        }, trace, partTargets).await();
    }

    // ---- aggregation ----

    private Relation aggregateScan(PhysicalPlan plan, PhysicalPlan.Scan scan, PhysicalPlan.Aggregate aggregate,
                                   QueryContext query, Consumer<TaskRecord> trace) {
        // Only the scan outputs the aggregation reads are computed.
        AggregateInput input = AggregateInput.of(scan, aggregate);
        int[] keys = input.keys();
        List<AggregateCall> calls = input.calls();
        ScanProgram program = new ScanProgram(scan, input.outputs(), batchRows);
        List<ColumnType> keyTypes = new ArrayList<>();
        for (int k : keys) {
            keyTypes.add(program.outputTypes().get(k));
        }
        if (input.countsOnly(program)) {
            return countOnly(scan, program, aggregate, query, trace);
        }
        AggregateMerge targets;
        try (TableSnapshot snapshot = scan.table().snapshot()) {
            List<Integer> nodes = snapshot.parts().stream().map(TablePart::homeNode).distinct().sorted().toList();
            int partitions = keys.length == 0 ? 1 : Math.max(1, executor.concurrencyHint());
            targets = new AggregateMerge(executor, partitions, nodes, keyTypes, calls, query.memory(), trace);
            ScanPipeline.submit(executor, query, snapshot, program.ranges(), program.columns(true), part -> {
                ScanProgram.Kernels kernels = program.kernels();
                AggregateMerge.Local local = targets.local(keys, calls);
                return new MaterializeJob.BatchConsumer() {
                    @Override
                    public void accept(TaskContext ctx, Batch batch) {
                        int n = kernels.apply(batch);
                        if (n > 0) {
                            // A local table that outgrows the cache goes to the merge while scanning goes on.
                            local.add(ctx, kernels.results(), n);
                        }
                    }

                    @Override
                    public void finish(TaskContext ctx) {
                        local.finish(ctx);
                    }
                };
            }, trace, partTargets).await();
        }
        return targets.relation(aggregate);
    }

    /** COUNT(*) of pushed-down ranges only: phase 1 counts, nothing is materialized. */
    private Relation countOnly(PhysicalPlan.Scan scan, ScanProgram program, PhysicalPlan.Aggregate aggregate,
                               QueryContext query, Consumer<TaskRecord> trace) {
        long count;
        try (TableSnapshot snapshot = scan.table().snapshot()) {
            PartScanJob.Result result = PartScanJob.run(executor, query, snapshot, program.ranges(), false,
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
