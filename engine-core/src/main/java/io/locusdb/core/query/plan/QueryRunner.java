package io.locusdb.core.query.plan;

import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.MemoryBudget;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.exec.TaskLock;
import io.locusdb.core.query.Batch;
import io.locusdb.core.query.ColumnVector;
import io.locusdb.core.query.MaterializeJob;
import io.locusdb.core.query.PartScanJob;
import io.locusdb.core.query.PartTargets;
import io.locusdb.core.query.ScanPipeline;
import io.locusdb.core.query.TaskRecord;
import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.agg.GroupTable;
import io.locusdb.core.query.agg.StringIds;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.ExprCompiler;
import io.locusdb.core.query.join.JoinHashTable;
import io.locusdb.core.query.join.JoinProber;
import io.locusdb.core.result.BatchSource;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.table.TableVersion;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * Runs a {@link PhysicalPlan} on the executor. A plain scan streams its batches to the reader while it runs; an
 * aggregation over a scan aggregates into a local table per materialize task (on the part's node); a local table
 * that outgrows the cache, and each task's last one, is merged into disjoint result tables, one merge task per
 * hash partition, queued round-robin to the nodes that hold the parts, while scanning goes on. What follows the
 * aggregation runs on the merged relation.
 */
public final class QueryRunner {
    public static final String MERGE_TASK_CLASS = "aggregate-merge";
    private static final int STREAM_QUEUE_BATCHES = 16;

    private final NumaExecutor executor;
    private final int batchRows;
    private final PartTargets partTargets;

    public QueryRunner(NumaExecutor executor, int batchRows) {
        this(executor, batchRows, PartTargets.NONE);
    }

    /** A runner whose scan tasks account their use of each part's node to {@code targets}. */
    public QueryRunner(NumaExecutor executor, int batchRows, PartTargets targets) {
        this.executor = executor;
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
                relation = join(join, query, trace);
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

    /** A plan's whole result as a relation (the inputs of a join). */
    private Relation evaluate(PhysicalPlan plan, QueryContext query, Consumer<TaskRecord> trace) {
        List<PhysicalPlan.Op> ops = plan.ops();
        Relation relation;
        int done = 0;
        switch (plan.source()) {
            case PhysicalPlan.Values values -> relation = values(values);
            case PhysicalPlan.Rows rows -> relation = rows(rows);
            case PhysicalPlan.Join join -> relation = join(join, query, trace);
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
            relation = apply(ops.get(i), relation, plan.rex());
        }
        return relation;
    }

    // ---- joins ----

    /**
     * A hash join. The build side is evaluated whole; the probe side, where it is a table scan, is probed by the
     * scan's own tasks on the nodes of its parts (every task reading the one build table), otherwise by join-probe
     * tasks over ranges of its rows.
     * SEMI and ANTI joins build on the right; otherwise a scan is probed rather than built when the other side is
     * not a scan, and of two scans (or two computed inputs) the smaller side is built.
     */
    private Relation join(PhysicalPlan.Join join, QueryContext query, Consumer<TaskRecord> trace) {
        if (coPartitionKey(join) >= 0) {
            return coPartitionedJoin(join, query, trace);
        }
        return joinAcrossParts(join, query, trace);
    }

    /** The general hash join: one build table for every probe task. */
    private Relation joinAcrossParts(PhysicalPlan.Join join, QueryContext query, Consumer<TaskRecord> trace) {
        boolean probeLeft = probeLeft(join);
        PhysicalPlan probePlan = probeLeft ? join.left() : join.right();
        PhysicalPlan buildPlan = probeLeft ? join.right() : join.left();
        int[] probeKeys = probeLeft ? join.leftKeys() : join.rightKeys();
        int[] buildKeys = probeLeft ? join.rightKeys() : join.leftKeys();
        Relation build = evaluate(buildPlan, query, trace);
        JoinOutput output = new JoinOutput(join, query);
        List<ColumnType> probeTypes = probeLeft ? output.leftTypes : output.rightTypes;
        boolean keepBuild = probeLeft ? join.type().keepsUnmatchedRight() : join.type().keepsUnmatchedLeft();
        JoinHashTable table = new JoinHashTable(build.array(), build.rows(), buildKeys, keepBuild, query.memory());
        try {
            Supplier<JoinProber> probers = () -> new JoinProber(table, join.type(), probeLeft, probeKeys,
                    output.residual(), probeTypes, build.types(), output.sink);
            if (probePlan.source() instanceof PhysicalPlan.Scan scan && probePlan.ops().isEmpty()) {
                probeScan(probePlan, scan, probers, query, trace);
            } else {
                probeRelation(evaluate(probePlan, query, trace), probers, query);
            }
            probers.get().emitUnmatchedBuildRows();
        } finally {
            table.release();
        }
        return output.relation;
    }

    /** Where a join's rows go: one relation (left columns, then right), appended to by every probing task. */
    private static final class JoinOutput {
        final PhysicalPlan.Join join;
        final List<ColumnType> leftTypes;
        final List<ColumnType> rightTypes;
        final List<String> joinedNames;
        final Relation relation;
        final JoinProber.Output sink;

        JoinOutput(PhysicalPlan.Join join, QueryContext query) {
            this.join = join;
            this.leftTypes = join.left().columns().stream().map(ResultColumn::type).toList();
            this.rightTypes = join.right().columns().stream().map(ResultColumn::type).toList();
            List<ColumnType> outputTypes = new ArrayList<>(leftTypes);
            if (join.type().outputsRight()) {
                outputTypes.addAll(rightTypes);
            }
            List<String> names = new ArrayList<>(join.left().columns().stream().map(ResultColumn::name).toList());
            names.addAll(join.right().columns().stream().map(ResultColumn::name).toList());
            this.joinedNames = names;
            this.relation = Relation.empty(outputTypes, join.names()).chargedTo(query.memory());
            this.sink = (columns, rows) -> {
                synchronized (relation) {
                    relation.append(columns, rows);
                }
            };
        }

        /** The residual compiled for one task (expressions keep buffers), or null. */
        Expr residual() {
            return join.residual() == null ? null
                    : new ExprCompiler(join.left().rex(), joinedNames).compile(join.residual());
        }
    }

    private static final int PROBE_BATCH_ROWS = 4096;
    public static final String JOIN_BUILD_TASK_CLASS = "join-build";

    /**
     * The key pair on which both sides of the join are partitioned alike, or -1: both sides plain scans of tables
     * of one table group, with the same partitioning (HASH, or RANGE with the same bounds) and part count, joined
     * on the group's partition column. Such a join runs per table-group part, on that part's node.
     */
    static int coPartitionKey(PhysicalPlan.Join join) {
        if (!isPlainScan(join.left()) || !isPlainScan(join.right())) {
            return -1;
        }
        Table left = ((PhysicalPlan.Scan) join.left().source()).table();
        Table right = ((PhysicalPlan.Scan) join.right().source()).table();
        if (left.group() == null || !left.group().equals(right.group()) || left == right) {
            return -1;
        }
        TableVersion lv = left.version();
        TableVersion rv = right.version();
        boolean alike = lv.parts().size() == rv.parts().size() && lv.parts().size() > 1 && switch (lv.spec()) {
            case PartitionSpec.Hash h -> rv.spec() instanceof PartitionSpec.Hash;
            case PartitionSpec.Range r -> rv.spec() instanceof PartitionSpec.Range
                    && lv.rangeBounds().equals(rv.rangeBounds());
            default -> false;
        };
        if (!alike) {
            return -1;
        }
        int leftColumn = left.schema().indexOf(lv.spec().column());
        int rightColumn = right.schema().indexOf(rv.spec().column());
        List<RexNode> leftOutputs = ((PhysicalPlan.Scan) join.left().source()).outputs();
        List<RexNode> rightOutputs = ((PhysicalPlan.Scan) join.right().source()).outputs();
        for (int k = 0; k < join.leftKeys().length; k++) {
            if (leftOutputs.get(join.leftKeys()[k]) instanceof RexInputRef l && l.getIndex() == leftColumn
                    && rightOutputs.get(join.rightKeys()[k]) instanceof RexInputRef r
                    && r.getIndex() == rightColumn) {
                return k;
            }
        }
        return -1;
    }

    /**
     * A join of co-partitioned tables, per table-group part: the build side's part p is collected and its hash
     * table built by a task on p's node, then the probe side's part p, on the same node, probes only that table. No
     * row crosses nodes. (The parts may have moved apart since the check; then each task still reads its own part,
     * only not locally.)
     */
    private Relation coPartitionedJoin(PhysicalPlan.Join join, QueryContext query, Consumer<TaskRecord> trace) {
        boolean probeLeft = probeLeft(join);
        PhysicalPlan probePlan = probeLeft ? join.left() : join.right();
        PhysicalPlan buildPlan = probeLeft ? join.right() : join.left();
        int[] probeKeys = probeLeft ? join.leftKeys() : join.rightKeys();
        int[] buildKeys = probeLeft ? join.rightKeys() : join.leftKeys();
        PhysicalPlan.Scan buildScan = (PhysicalPlan.Scan) buildPlan.source();
        PhysicalPlan.Scan probeScan = (PhysicalPlan.Scan) probePlan.source();
        JoinOutput output = new JoinOutput(join, query);
        boolean keepBuild = probeLeft ? join.type().keepsUnmatchedRight() : join.type().keepsUnmatchedLeft();
        ScanProgram buildProgram = new ScanProgram(buildScan, buildScan.outputs(), buildPlan.rex(), batchRows);
        ScanProgram probeProgram = new ScanProgram(probeScan, probeScan.outputs(), probePlan.rex(), batchRows);
        try (TableSnapshot buildSnapshot = buildScan.table().snapshot();
             TableSnapshot probeSnapshot = probeScan.table().snapshot()) {
            int parts = buildSnapshot.parts().size();
            if (probeSnapshot.parts().size() != parts) {
                // Repartitioned between the check and the snapshots: the general join is always right.
                return joinAcrossParts(join, query, trace);
            }
            Relation[] builds = new Relation[parts];
            for (int p = 0; p < parts; p++) {
                builds[p] = Relation.empty(buildProgram.outputTypes(), buildScan.names()).chargedTo(query.memory());
            }
            collectInto(buildProgram, buildSnapshot, part -> builds[part], query, trace);
            JoinHashTable[] tables = new JoinHashTable[parts];
            TaskClass buildClass = executor.taskClass(JOIN_BUILD_TASK_CLASS);
            TaskGraph graph = new TaskGraph("join build");
            TaskGraph.Node root = graph.root(buildClass, TaskGraph.ANY_NODE, ctx -> { });
            for (int p = 0; p < parts; p++) {
                int part = p;
                int node = buildSnapshot.parts().get(p).homeNode();
                graph.node(buildClass, node, ctx -> {
                    tables[part] = new JoinHashTable(builds[part].array(), builds[part].rows(), buildKeys, keepBuild,
                            query.memory());
                    trace.accept(new TaskRecord(JOIN_BUILD_TASK_CLASS, part, node, ctx.node(), ctx.stolen(),
                            builds[part].rows()));
                }, root);
            }
            try {
                executor.submit(graph, query).await();
                ScanPipeline.submit(executor, query, probeSnapshot, probeProgram.ranges(), probeProgram.columns(true),
                        part -> {
                            ScanProgram.Kernels kernels = probeProgram.kernels();
                            JoinProber prober = new JoinProber(tables[part], join.type(), probeLeft, probeKeys,
                                    output.residual(), probeProgram.outputTypes(), builds[part].types(), output.sink);
                            return (ctx, batch) -> {
                                int n = kernels.apply(batch);
                                if (n > 0) {
                                    prober.probe(kernels.results(), n);
                                }
                            };
                        }, trace, partTargets).await();
                for (int p = 0; p < parts; p++) {
                    new JoinProber(tables[p], join.type(), probeLeft, probeKeys, null, probeProgram.outputTypes(),
                            builds[p].types(), output.sink).emitUnmatchedBuildRows();
                }
            } finally {
                for (JoinHashTable table : tables) {
                    if (table != null) {
                        table.release();
                    }
                }
            }
        }
        return output.relation;
    }

    /** Which side of a join is probed (the other is built), as {@link #join} and EXPLAIN decide it. */
    static boolean probeLeftSide(PhysicalPlan.Join join) {
        return probeLeft(join);
    }

    private static boolean probeLeft(PhysicalPlan.Join join) {
        if (!join.type().outputsRight()) {
            return true;
        }
        // A table scan is probed rather than built: its own tasks probe on the nodes of its parts, in parallel,
        // where a computed input is first collected whole. Otherwise the input estimated smaller is built.
        boolean leftScan = isPlainScan(join.left());
        boolean rightScan = isPlainScan(join.right());
        if (leftScan != rightScan) {
            return leftScan;
        }
        return join.leftRows() >= join.rightRows();
    }

    private static boolean isPlainScan(PhysicalPlan plan) {
        return plan.source() instanceof PhysicalPlan.Scan && plan.ops().isEmpty();
    }

    public static final String JOIN_PROBE_TASK_CLASS = "join-probe";

    /**
     * Probing a computed input: its rows cut into ranges, as many as the concurrency hint asks for (at least one
     * batch each), each probed by a task of its own. The rows are on the heap of no particular node, so the tasks
     * may run anywhere.
     */
    private void probeRelation(Relation probe, Supplier<JoinProber> probers, QueryContext query) {
        int rows = probe.rows();
        if (rows == 0) {
            return;
        }
        int tasks = (int) Math.max(1, Math.min(executor.concurrencyHint(),
                (rows + PROBE_BATCH_ROWS - 1) / PROBE_BATCH_ROWS));
        int step = (rows + tasks - 1) / tasks;
        ColumnVector[] columns = probe.array();
        TaskClass probeClass = executor.taskClass(JOIN_PROBE_TASK_CLASS);
        TaskGraph graph = new TaskGraph("join probe");
        TaskGraph.Node root = graph.root(probeClass, TaskGraph.ANY_NODE, ctx -> { });
        for (int start = 0; start < rows; start += step) {
            int first = start;
            int end = Math.min(rows, start + step);
            graph.node(probeClass, TaskGraph.ANY_NODE, ctx -> {
                JoinProber prober = probers.get();
                int[] selected = new int[PROBE_BATCH_ROWS];
                for (int from = first; from < end; from += PROBE_BATCH_ROWS) {
                    int n = Math.min(PROBE_BATCH_ROWS, end - from);
                    for (int i = 0; i < n; i++) {
                        selected[i] = from + i;
                    }
                    ColumnVector[] batch = new ColumnVector[columns.length];
                    for (int c = 0; c < columns.length; c++) {
                        batch[c] = columns[c].gather(selected, n);
                    }
                    prober.probe(batch, n);
                }
            }, root);
        }
        executor.submit(graph, query).await();
    }

    /** Probing by the scan's own materialize tasks, on the nodes of the probe side's parts. */
    private void probeScan(PhysicalPlan plan, PhysicalPlan.Scan scan, Supplier<JoinProber> probers,
                           QueryContext query, Consumer<TaskRecord> trace) {
        ScanProgram program = new ScanProgram(scan, scan.outputs(), plan.rex(), batchRows);
        try (TableSnapshot snapshot = scan.table().snapshot()) {
            ScanPipeline.submit(executor, query, snapshot, program.ranges(), program.columns(true), part -> {
                ScanProgram.Kernels kernels = program.kernels();
                JoinProber prober = probers.get();
                return (ctx, batch) -> {
                    int n = kernels.apply(batch);
                    if (n > 0) {
                        prober.probe(kernels.results(), n);
                    }
                };
            }, trace, partTargets).await();
        }
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
        ScanProgram program = new ScanProgram(scan, scan.outputs(), plan.rex(), batchRows);
        Relation relation = Relation.empty(program.outputTypes(), scan.names()).chargedTo(query.memory());
        try (TableSnapshot snapshot = scan.table().snapshot()) {
            collectInto(program, snapshot, part -> relation, query, trace);
        }
        return relation;
    }

    /** Runs the scan and appends every part's output rows to {@code target.apply(part)}. */
    private void collectInto(ScanProgram program, TableSnapshot snapshot, IntFunction<Relation> target,
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
        List<RexNode> outputs = input.outputs();
        ScanProgram program = new ScanProgram(scan, outputs, plan.rex(), batchRows);
        List<ColumnType> keyTypes = new ArrayList<>();
        for (int k : keys) {
            keyTypes.add(program.outputTypes().get(k));
        }
        if (input.countsOnly(program)) {
            return countOnly(scan, program, aggregate, query, trace);
        }
        StringIds strings = new StringIds();
        MergeTargets targets;
        try (TableSnapshot snapshot = scan.table().snapshot()) {
            List<Integer> nodes = snapshot.parts().stream().map(TablePart::homeNode).distinct().sorted().toList();
            int partitions = keys.length == 0 ? 1 : Math.max(1, executor.concurrencyHint());
            targets = new MergeTargets(partitions, nodes, keyTypes, calls, strings, query.memory());
            TaskClass mergeClass = executor.taskClass(MERGE_TASK_CLASS);
            ScanPipeline.submit(executor, query, snapshot, program.ranges(), program.columns(true), part -> {
                ScanProgram.Kernels kernels = program.kernels();
                ColumnVector[] keyColumns = new ColumnVector[keys.length];
                ColumnVector[] arguments = new ColumnVector[calls.size()];
                return new MaterializeJob.BatchConsumer() {
                    private GroupTable table = new GroupTable(keyTypes, calls, strings, query.memory());

                    @Override
                    public void accept(TaskContext ctx, Batch batch) {
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
                        // Alternate the phases: a local table that outgrows the cache goes to the merge and the
                        // task continues with a fresh one.
                        if (table.size() >= LOCAL_GROUPS_LIMIT) {
                            targets.hand(ctx, mergeClass, table, trace);
                            table = new GroupTable(keyTypes, calls, strings, query.memory());
                        }
                    }

                    @Override
                    public void finish(TaskContext ctx) {
                        targets.hand(ctx, mergeClass, table, trace);
                    }
                };
            }, trace, partTargets).await();
        }
        return targets.relation(aggregate);
    }

    /** Local tables up to this many groups stay in the task's cache; larger ones are merged and restarted. */
    private static final int LOCAL_GROUPS_LIMIT = 1 << 15;

    /**
     * The disjoint result tables of an aggregation, one per hash partition, each merged into by
     * "aggregate-merge" tasks queued round-robin to the nodes that hold the table's parts.
     */
    private final class MergeTargets {
        private final GroupTable[] tables;
        private final TaskLock[] locks;
        private final List<Integer> nodes;
        private final List<ColumnType> keyTypes;

        MergeTargets(int partitions, List<Integer> nodes, List<ColumnType> keyTypes, List<AggregateCall> calls,
                     StringIds strings, MemoryBudget memory) {
            this.tables = new GroupTable[partitions];
            this.locks = new TaskLock[partitions];
            for (int r = 0; r < partitions; r++) {
                tables[r] = new GroupTable(keyTypes, calls, strings, memory);
                locks[r] = new TaskLock(executor);
            }
            this.nodes = nodes;
            this.keyTypes = keyTypes;
        }

        /** Forks one merge task per partition for {@code local}'s groups of that partition. */
        void hand(TaskContext ctx, TaskClass mergeClass, GroupTable local, Consumer<TaskRecord> trace) {
            if (local.size() == 0) {
                return;
            }
            int partitions = tables.length;
            // The local table's memory goes back to the budget once every partition has taken its groups.
            AtomicInteger unmerged = new AtomicInteger(partitions);
            for (int r = 0; r < partitions; r++) {
                int partition = r;
                int node = nodes.isEmpty() ? TaskGraph.ANY_NODE : nodes.get(r % nodes.size());
                ctx.fork(mergeClass, node, c -> {
                    locks[partition].lock();
                    try {
                        GroupTable target = tables[partition];
                        for (int g = 0; g < local.size(); g++) {
                            if (partitions == 1 || Math.floorMod(local.hash(g) >>> 33, partitions) == partition) {
                                target.mergeGroup(local, g);
                            }
                        }
                    } finally {
                        locks[partition].unlock();
                        if (unmerged.decrementAndGet() == 0) {
                            local.releaseMemory();
                        }
                    }
                    trace.accept(new TaskRecord(MERGE_TASK_CLASS, partition, node, c.node(), c.stolen(),
                            local.size()));
                });
            }
        }

        Relation relation(PhysicalPlan.Aggregate aggregate) {
            Relation result = null;
            for (GroupTable t : tables) {
                Relation part = RelationOps.finish(t, keyTypes.size(), aggregate.outputTypes(), aggregate.names());
                if (result == null) {
                    result = part;
                } else {
                    result.append(part.columns(), part.rows());
                }
            }
            return result;
        }
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
