package io.locusdb.core.query.plan;

import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.query.ColumnVector;
import io.locusdb.core.query.PartScanJob;
import io.locusdb.core.query.ScanPipeline;
import io.locusdb.core.query.TaskRecord;
import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.agg.GroupTable;
import io.locusdb.core.query.agg.StringIds;
import io.locusdb.core.query.expr.ExprCompiler;
import io.locusdb.core.result.BatchSource;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.type.ColumnType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * Runs a {@link PhysicalPlan} on the executor. A plain scan streams its batches to the reader while it runs; an
 * aggregation over a scan aggregates into one local table per materialize task (on the part's node), then merges
 * them into disjoint result tables, one merge task per hash partition, spread round-robin over the nodes that
 * held the parts; what follows the aggregation runs on the merged relation.
 */
public final class QueryRunner {
    public static final String MERGE_TASK_CLASS = "aggregate-merge";
    private static final int STREAM_QUEUE_BATCHES = 16;
    /** Merging fewer groups than this per partition is not worth another task. */
    private static final int MIN_GROUPS_PER_MERGE = 4096;

    private final NumaExecutor executor;
    private final int batchRows;

    public QueryRunner(NumaExecutor executor, int batchRows) {
        this.executor = executor;
        this.batchRows = batchRows;
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
            case PhysicalPlan.Scan scan -> {
                if (!ops.isEmpty() && ops.getFirst() instanceof PhysicalPlan.Aggregate aggregate) {
                    relation = aggregateScan(plan, scan, aggregate, query, trace);
                    done = 1;
                } else if (ops.isEmpty() || ops.size() == 1 && ops.getFirst() instanceof PhysicalPlan.Sort sort
                        && sort.collations().isEmpty()) {
                    PhysicalPlan.Sort limit = ops.isEmpty() ? null : (PhysicalPlan.Sort) ops.getFirst();
                    return stream(plan, scan, limit, tasks, query, trace);
                } else {
                    relation = collect(plan, scan, query, trace);
                    done = 0;
                }
            }
        }
        for (int i = done; i < ops.size(); i++) {
            relation = apply(ops.get(i), relation, plan.rex());
        }
        return QueryResult.rows(plan.columns(), relationSource(relation, plan.columns()), tasks);
    }

    private Relation apply(PhysicalPlan.Op op, Relation in, RexBuilder rex) {
        ExprCompiler compiler = new ExprCompiler(rex, in.names());
        return switch (op) {
            case PhysicalPlan.Filter f -> RelationOps.filter(in, compiler.compile(f.condition()));
            case PhysicalPlan.Project p -> RelationOps.project(in, compiler.compileAll(p.exprs()), p.names());
            case PhysicalPlan.Sort s -> RelationOps.sort(in, s.collations(), s.offset(), s.fetch());
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
                Object value = ExprCompiler.literal((RexLiteral) values.rows().get(r).get(c)).value();
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

    // ---- plain scans ----

    private QueryResult stream(PhysicalPlan plan, PhysicalPlan.Scan scan, PhysicalPlan.Sort limit, List<TaskRecord> tasks,
                               QueryContext query, Consumer<TaskRecord> trace) {
        ScanProgram program = new ScanProgram(scan, scan.outputs(), plan.rex(), batchRows);
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
                    }, trace);
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
        ScanProgram program = new ScanProgram(scan, scan.outputs(), plan.rex(), batchRows);
        Relation relation = Relation.empty(program.outputTypes(), scan.names());
        try (TableSnapshot snapshot = scan.table().snapshot()) {
            ScanPipeline.submit(executor, query, snapshot, program.ranges(), program.columns(true), part -> {
                ScanProgram.Kernels kernels = program.kernels();
                return (ctx, batch) -> {
                    int n = kernels.apply(batch);
                    if (n > 0) {
                        synchronized (relation) {
                            relation.append(List.of(kernels.results()), n);
                        }
                    }
                };
            }, trace).await();
        }
        return relation;
    }

    // ---- aggregation ----

    private Relation aggregateScan(PhysicalPlan plan, PhysicalPlan.Scan scan, PhysicalPlan.Aggregate aggregate,
                                   QueryContext query, Consumer<TaskRecord> trace) {
        // Only the scan outputs the aggregation reads are computed.
        TreeSet<Integer> used = new TreeSet<>();
        for (int k : aggregate.keys()) {
            used.add(k);
        }
        for (AggregateCall call : aggregate.calls()) {
            if (call.argument() >= 0) {
                used.add(call.argument());
            }
        }
        Map<Integer, Integer> position = new TreeMap<>();
        List<RexNode> outputs = new ArrayList<>();
        for (int i : used) {
            position.put(i, outputs.size());
            outputs.add(scan.outputs().get(i));
        }
        int[] keys = new int[aggregate.keys().length];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = position.get(aggregate.keys()[k]);
        }
        List<AggregateCall> calls = new ArrayList<>();
        for (AggregateCall c : aggregate.calls()) {
            calls.add(new AggregateCall(c.function(), c.argument() < 0 ? -1 : position.get(c.argument()),
                    c.distinct(), c.argumentType(), c.resultType(), c.name()));
        }
        ScanProgram program = new ScanProgram(scan, outputs, plan.rex(), batchRows);
        List<ColumnType> keyTypes = new ArrayList<>();
        for (int k : keys) {
            keyTypes.add(program.outputTypes().get(k));
        }
        if (keys.length == 0 && program.residual() == null && calls.stream()
                .allMatch(c -> c.function() == AggregateCall.Function.COUNT && c.argument() < 0)) {
            return countOnly(scan, program, aggregate, query, trace);
        }
        StringIds strings = new StringIds();
        ConcurrentLinkedQueue<GroupTable> locals = new ConcurrentLinkedQueue<>();
        List<Integer> nodes;
        try (TableSnapshot snapshot = scan.table().snapshot()) {
            nodes = snapshot.parts().stream().map(TablePart::homeNode).distinct().sorted().toList();
            ScanPipeline.submit(executor, query, snapshot, program.ranges(), program.columns(true), part -> {
                ScanProgram.Kernels kernels = program.kernels();
                GroupTable table = new GroupTable(keyTypes, calls, strings);
                locals.add(table);
                ColumnVector[] keyColumns = new ColumnVector[keys.length];
                ColumnVector[] arguments = new ColumnVector[calls.size()];
                return (ctx, batch) -> {
                    int n = kernels.apply(batch);
                    if (n == 0) {
                        return;
                    }
                    ColumnVector[] results = kernels.results();
                    for (int k = 0; k < keys.length; k++) {
                        keyColumns[k] = results[keys[k]];
                    }
                    for (int a = 0; a < calls.size(); a++) {
                        int arg = calls.get(a).argument();
                        arguments[a] = arg < 0 ? null : results[arg];
                    }
                    table.add(keyColumns, arguments, n);
                };
            }, trace).await();
        }
        List<GroupTable> tables = new ArrayList<>(locals);
        if (tables.isEmpty()) {
            tables.add(new GroupTable(keyTypes, calls, strings));
        }
        if (tables.size() == 1) {
            return RelationOps.finish(tables.getFirst(), keys.length, aggregate.outputTypes(), aggregate.names());
        }
        return merge(tables, keyTypes, calls, strings, aggregate, nodes, query, trace);
    }

    /** COUNT(*) of pushed-down ranges only: phase 1 counts, nothing is materialized. */
    private Relation countOnly(PhysicalPlan.Scan scan, ScanProgram program, PhysicalPlan.Aggregate aggregate,
                               QueryContext query, Consumer<TaskRecord> trace) {
        long count;
        try (TableSnapshot snapshot = scan.table().snapshot()) {
            PartScanJob.Result result = PartScanJob.run(executor, query, snapshot, program.ranges(), false);
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

    private Relation merge(List<GroupTable> tables, List<ColumnType> keyTypes, List<AggregateCall> calls,
                           StringIds strings, PhysicalPlan.Aggregate aggregate, List<Integer> nodes,
                           QueryContext query, Consumer<TaskRecord> trace) {
        long groups = tables.stream().mapToLong(GroupTable::size).sum();
        int partitions = keyTypes.isEmpty() ? 1 : (int) Math.max(1, Math.min(executor.concurrencyHint(),
                groups / MIN_GROUPS_PER_MERGE));
        GroupTable[] merged = new GroupTable[partitions];
        TaskClass mergeClass = executor.taskClass(MERGE_TASK_CLASS);
        TaskGraph graph = new TaskGraph("merge " + query.label());
        TaskGraph.Node fork = graph.root(mergeClass, TaskGraph.ANY_NODE, ctx -> { });
        for (int r = 0; r < partitions; r++) {
            int partition = r;
            int node = nodes.isEmpty() ? TaskGraph.ANY_NODE : nodes.get(r % nodes.size());
            graph.node(mergeClass, node, ctx -> {
                GroupTable target = new GroupTable(keyTypes, calls, strings);
                for (GroupTable t : tables) {
                    for (int g = 0; g < t.size(); g++) {
                        if (partitions == 1 || Math.floorMod(t.hash(g) >>> 33, partitions) == partition) {
                            target.mergeGroup(t, g);
                        }
                    }
                    ctx.checkCancelled();
                }
                merged[partition] = target;
                trace.accept(new TaskRecord(MERGE_TASK_CLASS, partition, node, ctx.node(), ctx.stolen(),
                        target.size()));
            }, fork);
        }
        executor.submit(graph, query).await();
        Relation result = null;
        for (GroupTable t : merged) {
            Relation part = RelationOps.finish(t, keyTypes.size(), aggregate.outputTypes(), aggregate.names());
            if (result == null) {
                result = part;
            } else {
                result.append(part.columns(), part.rows());
            }
        }
        return result;
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
