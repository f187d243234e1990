package io.locusdb.core.query.plan;

import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryCancelledException;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.query.scan.MaterializeJob;
import io.locusdb.core.query.scan.PartTargets;
import io.locusdb.core.query.scan.ScanPipeline;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.ExprCopier;
import io.locusdb.core.query.expr.InputRef;
import io.locusdb.core.query.join.JoinHashTable;
import io.locusdb.core.query.join.JoinProber;
import io.locusdb.core.query.join.JoinType;
import io.locusdb.core.query.sort.RowComparator;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.table.TableVersion;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.memory.NodeMemory;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

/**
 * Turns a plan into pipelines and runs them, each as task graphs whose tasks prefer the nodes of the data they read.
 * A pipeline is a source (the scan of a table, its materialize tasks on the nodes of its parts; or a computed input
 * cut into ranges), then operators each task runs on its chunks in turn (the probe of every hash join up the probe
 * chain, filters, projections), then a sink with global state and one local state per task (a parallel
 * aggregation, the collected rows, or the stream to the client). A join's build side is a pipeline of its own, run
 * first, and its hash table built by join-build tasks; nothing between a pipeline's source and its sink is
 * materialized. One instance serves one execution of one plan and owns what it allocates (hash tables, their
 * off-heap indexes, table snapshots) until closed.
 */
final class Pipelines implements AutoCloseable {
    static final String JOIN_BUILD_TASK_CLASS = "join-build";
    static final String JOIN_PROBE_TASK_CLASS = "join-probe";
    /** Rows of a computed probe input per batch. */
    private static final int PROBE_BATCH_ROWS = 4096;
    /**
     * ORDER BY ... LIMIT n with offset + n up to this runs as a top-N per task; beyond it, every row is collected
     * (a top-N's buffers would hold as much, in arrays of int row numbers that must fit).
     */
    private static final long TOP_N_MAX_ROWS = Integer.MAX_VALUE / 4;
    /** A top-N task sorts its buffer no more often than once per this many rows. */
    private static final int TOP_N_MIN_BUFFER_ROWS = 4096;

    /** What the pipeline produced and how many of the plan's operators it ran. */
    record Outcome(Relation relation, int opsDone) {
    }

    /** One task's instance of an operator or sink: chunks in; the operator pushes its result on to the next. */
    private interface Step {
        /** The chunk and its vectors stay the caller's: a step keeps nothing of them after it returns. */
        void push(TaskContext ctx, Chunk chunk);

        /** After the task's last chunk. */
        void finish(TaskContext ctx);
    }

    /** An operator as planned, shared by the tasks: opens one step per task in front of {@code next}. */
    private interface Stage {
        Step open(Step next, int part);
    }

    /** The end of the pipeline: its global state, and one local step per task. */
    private interface Sink {
        Step local();

        Relation result();
    }

    /** Where the pipeline's chunks come from; runs one task per chunk of input, each through its own steps. */
    private interface Source {
        /** Runs the source's tasks, each pushing into the steps {@code chains} opens for its part. */
        void run(IntFunction<Step> chains);

        /** The nodes the source's tasks run on (where merges go), empty when it has none. */
        List<Integer> nodes();

        /** The node whose tasks read part {@code part} of the source, or -1 (a computed input's tasks). */
        int nodeOf(int part);
    }

    private final QueryRunner runner;
    private final NumaExecutor executor;
    private final int batchRows;
    private final PartTargets partTargets;
    private final QueryContext query;
    private final Consumer<TaskRecord> trace;
    private final List<JoinHashTable> tables = new ArrayList<>();
    private final List<TableSnapshot> snapshots = new ArrayList<>();
    /** Where hash-table indexes go, node by node; null: on the heap. */
    private final NodeMemory memory;
    /** Owns the off-heap indexes of this run's hash tables; closed with the pipeline. */
    private Arena arena;
    /** Index memory by node, made on first use: see {@link #indexMemory}. */
    private JoinHashTable.IndexMemory[] indexMemories;

    /** Pipelines for one execution of a plan by {@code runner} (its executor, memory, batch size and targets). */
    Pipelines(QueryRunner runner, QueryContext query, Consumer<TaskRecord> trace) {
        this.runner = runner;
        this.memory = runner.memory();
        this.executor = runner.executor();
        this.batchRows = runner.batchRows();
        this.partTargets = runner.partTargets();
        this.query = query;
        this.trace = trace;
    }

    /**
     * Runs the pipeline of {@code plan}, whose source is a table scan or a join: the scan or the join's probe
     * chain, the row-by-row operators above it, into the first aggregation above them (done in parallel) or into a
     * collected relation. The operators after that are left to the caller.
     */
    Outcome execute(PhysicalPlan plan) {
        List<Stage> stages = new ArrayList<>();
        List<PhysicalPlan.Op> ops = plan.ops();
        Source source;
        Flow flow;
        switch (plan.source()) {
            case PhysicalPlan.Join join -> {
                source = joinChain(join, stages);
                flow = new Flow(join.names(), outputTypes(join));
            }
            case PhysicalPlan.Scan scan -> {
                if (!ops.isEmpty() && ops.getFirst() instanceof PhysicalPlan.Aggregate aggregate) {
                    // Only the scan outputs the aggregation reads are computed.
                    AggregateInput input = AggregateInput.of(scan, aggregate);
                    ScanProgram program = new ScanProgram(scan, input.outputs(), batchRows);
                    ScanSource scanSource = new ScanSource(scan, program, null);
                    PhysicalPlan.Aggregate then = fusedNext(aggregate, ops, 1);
                    Sink sink = new AggregateSink(aggregate, input.keys(), input.calls(), program.outputTypes(),
                            scanSource.nodes(), then);
                    run(scanSource, stages, sink);
                    return new Outcome(sink.result(), then == null ? 1 : 2);
                }
                source = new ScanSource(scan, new ScanProgram(scan, batchRows), null);
                flow = new Flow(scan.names(), scan.outputs().stream().map(Expr::type).toList());
            }
            default -> throw new IllegalArgumentException("no pipeline over " + plan.source());
        }
        int done = flow.addOps(plan, stages);
        Sink sink;
        if (done < ops.size() && ops.get(done) instanceof PhysicalPlan.Aggregate aggregate) {
            PhysicalPlan.Aggregate then = fusedNext(aggregate, ops, done + 1);
            sink = new AggregateSink(aggregate, aggregate.keys(), aggregate.calls(), flow.types, source.nodes(), then);
            done += then == null ? 1 : 2;
        } else if (done < ops.size() && ops.get(done) instanceof PhysicalPlan.Sort sort && topN(sort)) {
            // The sort itself runs again, on the few rows the tasks kept.
            sink = new TopNSink(flow.types, flow.names, sort.keys(), (int) (sort.offset() + sort.fetch()));
        } else {
            sink = new CollectSink(flow.types, flow.names);
        }
        run(source, stages, sink);
        return new Outcome(sink.result(), done);
    }

    /**
     * GROUP BY over a computed relation (an aggregation above another, as COUNT(DISTINCT) becomes): its rows cut
     * into ranges, each aggregated by a task of its own into the parallel aggregation's local tables and merged by
     * hash partition, as above a scan.
     */
    Relation aggregate(Relation input, PhysicalPlan.Aggregate aggregate, PhysicalPlan.Aggregate then) {
        Source source = new RelationSource(input, AggregateMerge.TASK_CLASS_INPUT);
        Sink sink = new AggregateSink(aggregate, aggregate.keys(), aggregate.calls(), input.types(), source.nodes(),
                then);
        run(source, List.of(), sink);
        return sink.result();
    }

    /**
     * The aggregation at {@code ops[next]} if it groups {@code aggregate}'s result by some of its keys (as the second
     * half of a split COUNT(DISTINCT) does), so that the merge finishes it too; null otherwise.
     */
    static PhysicalPlan.Aggregate fusedNext(PhysicalPlan.Aggregate aggregate, List<PhysicalPlan.Op> ops, int next) {
        return next < ops.size() && ops.get(next) instanceof PhysicalPlan.Aggregate following
                && AggregateMerge.fuses(aggregate.keys().length, following) ? following : null;
    }

    /**
     * Starts a plain scan whose rows go to the client as they are found, skipping {@code offset} rows and stopping
     * after {@code fetch} (-1: all). Returns at once; the pipelines close when the scan's tasks are done.
     */
    StreamingSource stream(PhysicalPlan.Scan scan, List<ResultColumn> columns, long offset, long fetch,
                           int queueBatches) {
        ScanProgram program = new ScanProgram(scan, batchRows);
        StreamingSource target = new StreamingSource(queueBatches, offset, fetch);
        GraphHandle handle;
        try {
            ScanSource source = new ScanSource(scan, program, null);
            handle = source.start(part -> new StreamStep(target, columns, program.outputTypes()));
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
        handle.completion().whenComplete((ignored, error) -> close());
        target.start(handle);
        return target;
    }

    /** The names and types of the columns flowing at a point of the pipeline. */
    private static final class Flow {
        List<String> names;
        List<ColumnType> types;

        Flow(List<String> names, List<ColumnType> types) {
            this.names = names;
            this.types = types;
        }

        /** Adds the leading filters and projections of {@code plan}'s operators; returns how many. */
        int addOps(PhysicalPlan plan, List<Stage> stages) {
            int done = 0;
            for (PhysicalPlan.Op op : plan.ops()) {
                switch (op) {
                    case PhysicalPlan.Filter f -> stages.add(new FilterStage(f.condition()));
                    case PhysicalPlan.Project p -> {
                        stages.add(new ProjectStage(p.exprs()));
                        names = p.names();
                        types = p.exprs().stream().map(Expr::type).toList();
                    }
                    default -> {
                        return done;
                    }
                }
                done++;
            }
            return done;
        }
    }

    private static boolean streamingOps(PhysicalPlan plan) {
        return plan.ops().stream().allMatch(op -> op instanceof PhysicalPlan.Filter
                || op instanceof PhysicalPlan.Project);
    }

    private static List<ColumnType> outputTypes(PhysicalPlan.Join join) {
        List<ColumnType> types = new ArrayList<>(types(join.left()));
        if (join.type().outputsRight()) {
            types.addAll(types(join.right()));
        }
        return types;
    }

    private static List<ColumnType> types(PhysicalPlan plan) {
        return plan.columns().stream().map(ResultColumn::type).toList();
    }

    private void run(Source source, List<Stage> stages, Sink sink) {
        if (source instanceof ScanSource scan && !stages.isEmpty() && stages.getFirst() instanceof ProbeStage probe) {
            scan.probedBy(probe);
        }
        source.run(part -> open(stages, 0, sink, part));
        // Outer joins that keep unmatched build rows emit them once every probe is done, through the rest of the
        // pipeline, lowest join first (a join above may still match them).
        for (int i = 0; i < stages.size(); i++) {
            if (stages.get(i) instanceof ProbeStage probe && probe.keepsUnmatchedBuild()) {
                int from = i + 1;
                TaskClass probeClass = executor.taskClass(JOIN_PROBE_TASK_CLASS);
                TaskGraph graph = new TaskGraph("join unmatched build rows");
                graph.root(probeClass, TaskGraph.ANY_NODE, ctx -> {
                    Step next = open(stages, from, sink, -1);
                    probe.emitUnmatched(ctx, next);
                    next.finish(ctx);
                });
                executor.submit(graph, query).await();
            }
        }
    }

    private static Step open(List<Stage> stages, int from, Sink sink, int part) {
        Step step = sink.local();
        for (int i = stages.size() - 1; i >= from; i--) {
            step = stages.get(i).open(step, part);
        }
        return step;
    }

    // ---- planning the chain ----

    /**
     * Adds to {@code stages} the probe of {@code join}, after whatever its probe side's own pipeline adds, and
     * returns the source at the bottom. Builds the join's hash table(s) now.
     */
    private Source joinChain(PhysicalPlan.Join join, List<Stage> stages) {
        boolean probeLeft = probeLeft(join);
        PhysicalPlan probePlan = probeLeft ? join.left() : join.right();
        PhysicalPlan buildPlan = probeLeft ? join.right() : join.left();
        int[] buildKeys = probeLeft ? join.rightKeys() : join.leftKeys();
        boolean keepBuild = probeLeft ? join.type().keepsUnmatchedRight() : join.type().keepsUnmatchedLeft();
        if (coPartitionKey(join) >= 0) {
            ScanSource source = coPartitioned(join, probePlan, buildPlan, buildKeys, keepBuild, stages);
            if (source != null) {
                return source;
            }
        }
        Relation build = runner.evaluate(buildPlan, query, trace);
        Source source = probeChain(probePlan, stages, null);
        List<Integer> nodes = source.nodes();
        BuildPlacement placement = BuildPlacement.of(join, nodes.size());
        int home = nodes.isEmpty() ? TaskGraph.ANY_NODE : nodes.getFirst();
        JoinHashTable[] byNode = new JoinHashTable[Math.max(1, executor.topology().nodeCount())];
        TaskClass buildClass = executor.taskClass(JOIN_BUILD_TASK_CLASS);
        int partitions = BuildPlacement.partitions(placement, build.rows(), nodes.size(),
                executor.concurrencyHint());
        // Partition p of the index goes to the memory of the node that builds it: the probe side's nodes in turn
        // when the table is partitioned across them, else the first one.
        IntUnaryOperator nodeOf = p -> placement == BuildPlacement.PARTITIONED ? nodes.get(p % nodes.size()) : home;
        JoinHashTable table = JoinHashTable.partitioned(build.chunk().vectors(), build.rows(), buildKeys, keepBuild,
                query.memory(), partitions, p -> indexMemory(nodeOf.applyAsInt(p)), (count, body) -> {
                    TaskGraph graph = new TaskGraph("join build");
                    TaskGraph.Node root = graph.root(buildClass, TaskGraph.ANY_NODE, ctx -> { });
                    for (int p = 0; p < count; p++) {
                        int partition = p;
                        int node = nodeOf.applyAsInt(p);
                        graph.node(buildClass, node, ctx -> {
                            body.accept(partition);
                            trace.accept(new TaskRecord(JOIN_BUILD_TASK_CLASS, partition, node, ctx.node(),
                                    ctx.stolen(), -1));
                        }, root);
                    }
                    executor.submit(graph, query).await();
                });
        tables.add(table);
        if (home >= 0) {
            byNode[home] = table;
        }
        if (placement == BuildPlacement.COPY_PER_NODE) {
            // One copy of the index per further node, each written by a task on its node into its memory.
            TaskGraph graph = new TaskGraph("join build copies");
            TaskGraph.Node root = graph.root(buildClass, TaskGraph.ANY_NODE, ctx -> { });
            for (int node : nodes.subList(1, nodes.size())) {
                graph.node(buildClass, node, ctx -> {
                    JoinHashTable copy = table.copyInto(indexMemory(node));
                    synchronized (tables) {
                        byNode[node] = copy;
                        if (copy != table) {
                            tables.add(copy);
                        }
                    }
                    trace.accept(new TaskRecord(JOIN_BUILD_TASK_CLASS, -1, node, ctx.node(), ctx.stolen(),
                            build.rows()));
                }, root);
            }
            executor.submit(graph, query).await();
        }
        stages.add(new ProbeStage(join, probeLeft, new JoinHashTable[] {table}, part -> {
            int node = source.nodeOf(part);
            return node >= 0 && byNode[node] != null ? byNode[node] : table;
        }));
        return source;
    }

    private static long bitCount(long[] bits) {
        long count = 0;
        for (long word : bits) {
            count += Long.bitCount(word);
        }
        return count;
    }

    /** Memory for a hash table's index on {@code node} (off-heap, bound there); the heap where none is known. */
    /** One object per node, so that a table's partitions in one node's memory share one allocation. */
    private synchronized JoinHashTable.IndexMemory indexMemory(int node) {
        if (memory == null || node < 0) {
            return JoinHashTable.IndexMemory.HEAP;
        }
        if (indexMemories == null) {
            indexMemories = new JoinHashTable.IndexMemory[memory.topology().nodeCount()];
        }
        if (indexMemories[node] == null) {
            // Huge pages for an index of several: a fresh mapping is touched page by page while it is built, and
            // a 4 KiB fault per page is what an off-heap index costs over a heap array.
            indexMemories[node] = bytes -> memory.allocate(bytes, new MemoryPolicy.Bind(node), arena(),
                    bytes >= 2 * NodeMemory.HUGE_PAGE_SIZE).segment();
        }
        return indexMemories[node];
    }

    private synchronized Arena arena() {
        if (arena == null) {
            arena = Arena.ofShared();
        }
        return arena;
    }

    /** The source of a probe side's rows, adding the operators its own plan runs on them. */
    private Source probeChain(PhysicalPlan plan, List<Stage> stages, TableSnapshot snapshot) {
        if (streamingOps(plan)) {
            switch (plan.source()) {
                case PhysicalPlan.Scan scan -> {
                    Source source = new ScanSource(scan, new ScanProgram(scan, batchRows), snapshot);
                    new Flow(scan.names(), List.of()).addOps(plan, stages);
                    return source;
                }
                case PhysicalPlan.Join join -> {
                    Source source = joinChain(join, stages);
                    new Flow(join.names(), List.of()).addOps(plan, stages);
                    return source;
                }
                default -> {
                }
            }
        }
        return new RelationSource(runner.evaluate(plan, query, trace));
    }

    /**
     * A join of co-partitioned tables, per table-group part: the build side's part p is collected and its hash
     * table built by a task on p's node, then the probe side's part p, on the same node, probes only that table. No
     * row crosses nodes. (The parts may have moved apart since the check; then each task still reads its own part,
     * only not locally.) Null when the tables were repartitioned apart since planning.
     */
    private ScanSource coPartitioned(PhysicalPlan.Join join, PhysicalPlan probePlan, PhysicalPlan buildPlan,
                                     int[] buildKeys, boolean keepBuild, List<Stage> stages) {
        PhysicalPlan.Scan buildScan = (PhysicalPlan.Scan) buildPlan.source();
        PhysicalPlan.Scan probeScan = (PhysicalPlan.Scan) probePlan.source();
        TableSnapshot buildSnapshot = buildScan.table().snapshot();
        snapshots.add(buildSnapshot);
        TableSnapshot probeSnapshot = probeScan.table().snapshot();
        snapshots.add(probeSnapshot);
        int parts = buildSnapshot.parts().size();
        if (probeSnapshot.parts().size() != parts) {
            return null;
        }
        ScanProgram buildProgram = new ScanProgram(buildScan, batchRows);
        Relation[] builds = new Relation[parts];
        for (int p = 0; p < parts; p++) {
            builds[p] = Relation.empty(buildProgram.outputTypes(), buildScan.names()).chargedTo(query.memory());
        }
        runner.collectInto(buildProgram, buildSnapshot, part -> builds[part], query, trace);
        JoinHashTable[] perPart = new JoinHashTable[parts];
        TaskClass buildClass = executor.taskClass(JOIN_BUILD_TASK_CLASS);
        TaskGraph graph = new TaskGraph("join build");
        TaskGraph.Node root = graph.root(buildClass, TaskGraph.ANY_NODE, ctx -> { });
        for (int p = 0; p < parts; p++) {
            int part = p;
            int node = buildSnapshot.parts().get(p).homeNode();
            graph.node(buildClass, node, ctx -> {
                perPart[part] = new JoinHashTable(builds[part].chunk().vectors(), builds[part].rows(), buildKeys, keepBuild,
                        query.memory(), indexMemory(node));
                trace.accept(new TaskRecord(JOIN_BUILD_TASK_CLASS, part, node, ctx.node(), ctx.stolen(),
                        builds[part].rows()));
            }, root);
        }
        try {
            executor.submit(graph, query).await();
        } finally {
            for (JoinHashTable table : perPart) {
                if (table != null) {
                    tables.add(table);
                }
            }
        }
        ScanSource source = new ScanSource(probeScan, new ScanProgram(probeScan, batchRows), probeSnapshot);
        stages.add(new ProbeStage(join, probeLeft(join), perPart, part -> perPart[part]));
        return source;
    }

    // ---- sources ----

    /** A table scan whose materialize tasks run the pipeline on the nodes of the parts they decode. */
    private final class ScanSource implements Source {
        private final PhysicalPlan.Scan scan;
        private final ScanProgram program;
        private final TableSnapshot snapshot;
        /** The join whose probe takes the scan's rows first, if one of its keys lets rows be dropped by code. */
        private ProbeStage probe;
        /** Per probe key the scan decodes: the key's number and the position of its column among those decoded. */
        private final List<int[]> probeKeyColumns = new ArrayList<>();
        private MaterializeJob.IdFilter[] idFilters;

        ScanSource(PhysicalPlan.Scan scan, ScanProgram program, TableSnapshot snapshot) {
            this.scan = scan;
            this.program = program;
            if (snapshot == null) {
                snapshot = scan.table().snapshot();
                snapshots.add(snapshot);
            }
            this.snapshot = snapshot;
        }

        /**
         * {@code probe} takes this scan's rows first. If it drops rows without a match and one of its keys is a
         * column the scan decodes, the materialize tasks test that column's codes against the IDs of the build
         * keys' values in the part's dictionary before decoding anything else.
         */
        void probedBy(ProbeStage probe) {
            if (!probe.dropsUnmatchedProbeRows()) {
                return;
            }
            int[] keys = probe.probeKeys();
            int[] decoded = program.tableColumns();
            for (int k = 0; k < keys.length; k++) {
                if (scan.outputs().get(keys[k]) instanceof InputRef ref) {
                    for (int i = 0; i < decoded.length; i++) {
                        if (decoded[i] == ref.index()) {
                            probeKeyColumns.add(new int[] {k, i});
                            break;
                        }
                    }
                }
            }
            if (!probeKeyColumns.isEmpty()) {
                this.probe = probe;
                this.idFilters = new MaterializeJob.IdFilter[snapshot.parts().size()];
            }
        }

        /**
         * Part {@code part}'s filter, computed by the first of its tasks to ask: of the keys that have one, the key
         * whose build values hold the smallest share of the part's dictionary. Null when there is none.
         */
        private MaterializeJob.IdFilter idFilter(int part) {
            if (probe == null || part < 0) {
                return null;
            }
            synchronized (idFilters) {
                if (idFilters[part] == null) {
                    JoinHashTable table = probe.tableFor(part);
                    MaterializeJob.IdFilter best = new MaterializeJob.IdFilter(-1, null);
                    double bestShare = 1;
                    for (int[] keyColumn : probeKeyColumns) {
                        Column column = snapshot.parts().get(part).column(program.tableColumns()[keyColumn[1]]);
                        if (column.dictionary() instanceof LongDictionary dictionary) {
                            long[] allowed = table.allowedIds(keyColumn[0], dictionary);
                            double share = allowed == null ? 1 : (double) bitCount(allowed) / dictionary.size();
                            if (share < bestShare) {
                                best = new MaterializeJob.IdFilter(keyColumn[1], allowed);
                                bestShare = share;
                            }
                        }
                    }
                    // No filter is remembered as a filter of no column, so it is not computed again.
                    idFilters[part] = best;
                }
                return idFilters[part].column() < 0 ? null : idFilters[part];
            }
        }

        @Override
        public void run(IntFunction<Step> chains) {
            start(chains).await();
        }

        /** Submits the scan's tasks without waiting for them. */
        GraphHandle start(IntFunction<Step> chains) {
            return ScanPipeline.submit(executor, query, snapshot, program.ranges(), program.columns(true), part -> {
                ScanProgram.Kernels kernels = program.kernels();
                Step head = chains.apply(part);
                MaterializeJob.IdFilter joinFilter = idFilter(part);
                MaterializeJob.IdFilter filter = joinFilter == null && head instanceof TopNSink.Local topN
                        ? topN.codeFilter(snapshot.parts().get(part), scan, program) : joinFilter;
                return new MaterializeJob.BatchConsumer() {
                    @Override
                    public void accept(TaskContext ctx, Chunk batch) {
                        Chunk out = kernels.apply(batch);
                        if (out.rows() > 0) {
                            head.push(ctx, out);
                        }
                    }

                    @Override
                    public MaterializeJob.IdFilter idFilter() {
                        return filter;
                    }

                    @Override
                    public void finish(TaskContext ctx) {
                        head.finish(ctx);
                    }
                };
            }, trace, partTargets);
        }

        @Override
        public List<Integer> nodes() {
            return snapshot.parts().stream().map(TablePart::homeNode).distinct().sorted().toList();
        }

        @Override
        public int nodeOf(int part) {
            return part < 0 ? -1 : snapshot.parts().get(part).homeNode();
        }
    }

    /**
     * A computed input: its rows cut into ranges, as many as the concurrency hint asks for (at least one batch
     * each), each run by a join-probe task of its own. The rows are on the heap of no particular node, so the tasks
     * may run anywhere.
     */
    private final class RelationSource implements Source {
        private final Relation relation;
        private final String taskClass;

        RelationSource(Relation relation) {
            this(relation, JOIN_PROBE_TASK_CLASS);
        }

        /** A source whose tasks are of class {@code taskClass}. */
        RelationSource(Relation relation, String taskClass) {
            this.relation = relation;
            this.taskClass = taskClass;
        }

        @Override
        public void run(IntFunction<Step> chains) {
            int rows = relation.rows();
            if (rows == 0) {
                return;
            }
            int tasks = (int) Math.max(1, Math.min(executor.concurrencyHint(),
                    (rows + PROBE_BATCH_ROWS - 1) / PROBE_BATCH_ROWS));
            int step = (rows + tasks - 1) / tasks;
            ColumnVector[] columns = relation.chunk().vectors();
            TaskClass probeClass = executor.taskClass(taskClass);
            TaskGraph graph = new TaskGraph(taskClass);
            TaskGraph.Node root = graph.root(probeClass, TaskGraph.ANY_NODE, ctx -> { });
            for (int start = 0; start < rows; start += step) {
                int first = start;
                int end = Math.min(rows, start + step);
                int range = start / step;
                graph.node(probeClass, TaskGraph.ANY_NODE, ctx -> {
                    Step head = chains.apply(-1);
                    int[] selected = new int[PROBE_BATCH_ROWS];
                    ColumnVector[] batch = new ColumnVector[columns.length];
                    Chunk chunk = new Chunk(batch, 0);
                    for (int from = first; from < end; from += PROBE_BATCH_ROWS) {
                        int n = Math.min(PROBE_BATCH_ROWS, end - from);
                        for (int i = 0; i < n; i++) {
                            selected[i] = from + i;
                        }
                        for (int c = 0; c < columns.length; c++) {
                            batch[c] = columns[c].gather(selected, n);
                        }
                        chunk.rows(n);
                        head.push(ctx, chunk);
                    }
                    head.finish(ctx);
                    trace.accept(new TaskRecord(taskClass, range, TaskGraph.ANY_NODE, ctx.node(),
                            ctx.stolen(), end - first));
                }, root);
            }
            executor.submit(graph, query).await();
        }

        @Override
        public List<Integer> nodes() {
            return List.of();
        }

        @Override
        public int nodeOf(int part) {
            return -1;
        }
    }

    // ---- operators ----

    /** Rows for which a condition is true. */
    private record FilterStage(Expr condition) implements Stage {
        @Override
        public Step open(Step next, int part) {
            ExprCopier copies = ExprCopier.forTask();
            Expr expr = copies.copy(condition);
            return new Step() {
                private int[] selected = new int[1024];

                @Override
                public void push(TaskContext ctx, Chunk chunk) {
                    ColumnVector[] columns = chunk.vectors();
                    int rows = chunk.rows();
                    copies.newChunk();
                    ColumnVector keep = expr.eval(columns, rows);
                    if (selected.length < rows) {
                        selected = new int[rows];
                    }
                    int n = Selection.trueRows(keep, rows, selected);
                    if (n == rows) {
                        next.push(ctx, chunk);
                    } else if (n > 0) {
                        ColumnVector[] out = new ColumnVector[columns.length];
                        for (int c = 0; c < columns.length; c++) {
                            out[c] = columns[c].gather(selected, n);
                        }
                        next.push(ctx, new Chunk(out, n));
                    }
                }

                @Override
                public void finish(TaskContext ctx) {
                    next.finish(ctx);
                }
            };
        }
    }

    /** Expressions over each row. */
    private record ProjectStage(List<Expr> exprs) implements Stage {
        @Override
        public Step open(Step next, int part) {
            ExprCopier copies = ExprCopier.forTask();
            List<Expr> compiled = copies.copyAll(exprs);
            return new Step() {
                private final ColumnVector[] out = new ColumnVector[compiled.size()];
                private final Chunk chunk = new Chunk(out, 0);

                @Override
                public void push(TaskContext ctx, Chunk in) {
                    copies.newChunk();
                    for (int i = 0; i < out.length; i++) {
                        out[i] = compiled.get(i).eval(in.vectors(), in.rows());
                    }
                    chunk.rows(in.rows());
                    next.push(ctx, chunk);
                }

                @Override
                public void finish(TaskContext ctx) {
                    next.finish(ctx);
                }
            };
        }
    }

    /** The probe of one hash join: one table, or one per table-group part when the join is co-partitioned. */
    private static final class ProbeStage implements Stage {
        private final PhysicalPlan.Join join;
        private final boolean probeLeft;
        /** Every table built (copies not counted): where unmatched build rows are read. */
        private final JoinHashTable[] tables;
        /** The table the tasks reading a part of the source probe. */
        private final IntFunction<JoinHashTable> tableFor;
        private final List<ColumnType> probeTypes;
        private final List<ColumnType> buildTypes;

        ProbeStage(PhysicalPlan.Join join, boolean probeLeft, JoinHashTable[] tables,
                   IntFunction<JoinHashTable> tableFor) {
            this.join = join;
            this.probeLeft = probeLeft;
            this.tables = tables;
            this.tableFor = tableFor;
            this.probeTypes = types(probeLeft ? join.left() : join.right());
            this.buildTypes = types(probeLeft ? join.right() : join.left());
        }

        boolean keepsUnmatchedBuild() {
            return probeLeft ? join.type().keepsUnmatchedRight() : join.type().keepsUnmatchedLeft();
        }

        /** Whether a probe row that matches no build row leaves the join (not null-extended, not anti-joined). */
        boolean dropsUnmatchedProbeRows() {
            boolean keepsProbe = probeLeft ? join.type().keepsUnmatchedLeft() : join.type().keepsUnmatchedRight();
            return !keepsProbe && join.type() != JoinType.ANTI;
        }

        /** The probe side's key columns, as the stage's input numbers them. */
        int[] probeKeys() {
            return probeLeft ? join.leftKeys() : join.rightKeys();
        }

        /** The table the tasks reading part {@code part} of the source probe. */
        JoinHashTable tableFor(int part) {
            return tableFor.apply(part);
        }

        private JoinProber prober(JoinHashTable table, JoinProber.Output output) {
            // Each task evaluates its own copy of the residual: expressions keep buffers.
            Expr residual = ExprCopier.forTask().copy(join.residual());
            return new JoinProber(table, join.type(), probeLeft, probeLeft ? join.leftKeys() : join.rightKeys(),
                    residual, probeTypes, buildTypes, output);
        }

        @Override
        public Step open(Step next, int part) {
            JoinHashTable table = tableFor.apply(part);
            return new Step() {
                private TaskContext current;
                private final JoinProber prober = prober(table,
                        joined -> next.push(current, joined));

                @Override
                public void push(TaskContext ctx, Chunk chunk) {
                    current = ctx;
                    prober.probe(chunk);
                }

                @Override
                public void finish(TaskContext ctx) {
                    next.finish(ctx);
                }
            };
        }

        /** Every table's build rows that no probe row matched, null-extended, into {@code next}. */
        void emitUnmatched(TaskContext ctx, Step next) {
            for (JoinHashTable table : tables) {
                prober(table, joined -> next.push(ctx, joined))
                        .emitUnmatchedBuildRows();
            }
        }
    }

    // ---- sinks ----

    /** Every row, appended to one relation (what follows, e.g. a sort, needs them all). */
    private final class CollectSink implements Sink {
        private final Relation relation;

        CollectSink(List<ColumnType> types, List<String> names) {
            this.relation = Relation.empty(types, names).chargedTo(query.memory());
        }

        @Override
        public Step local() {
            return new Step() {
                @Override
                public void push(TaskContext ctx, Chunk chunk) {
                    synchronized (relation) {
                        relation.append(chunk);
                    }
                }

                @Override
                public void finish(TaskContext ctx) {
                }
            };
        }

        @Override
        public Relation result() {
            return relation;
        }
    }

    /**
     * ORDER BY ... LIMIT: each task keeps the first {@code limit} rows of what it saw (sorting its buffer whenever
     * that holds twice as many), and hands them to the global state when done; no task holds more than about
     * {@code 2 * limit} rows, and the result holds at most {@code limit} per task. Once a task has {@code limit}
     * rows, its last one is a cut-off: a row whose first key sorts after the cut-off's cannot be among the first,
     * so it is dropped on arrival, before it is copied or sorted.
     */
    private final class TopNSink implements Sink {
        private final List<ColumnType> types;
        private final List<String> names;
        private final List<PhysicalPlan.SortKey> keys;
        private final int limit;
        private final Relation kept;
        /** The best cut-off of all tasks, where the first key is an integer column; null otherwise. */
        private final SharedCutoff shared;

        TopNSink(List<ColumnType> types, List<String> names, List<PhysicalPlan.SortKey> keys, int limit) {
            this.types = types;
            this.names = names;
            this.keys = keys;
            this.limit = limit;
            this.kept = Relation.empty(types, names).chargedTo(query.memory());
            PhysicalPlan.SortKey first = keys.getFirst();
            this.shared = types.get(first.column()).physical() == TypeKind.Physical.LONG
                    ? new SharedCutoff(first.descending(), first.nullsFirst()) : null;
        }

        @Override
        public Step local() {
            return new Local();
        }

        /** One task's first rows. */
        final class Local implements Step {
            private Relation buffer = Relation.empty(types, names);
            /** The buffer's last row once sorted to exactly {@code limit} rows; -1 before that. */
            private int cutoff = -1;
            private int[] selected = new int[1024];
            /** The cut-off as codes of the scan's first sort column, where the scan feeds this directly. */
            private CodeCutoff codes;
            /** Bytes of the buffer charged to the query's budget. */
            private long charged;

            /**
             * A filter for the scan of {@code part} that feeds this task: the codes of the first sort key's
             * column that may still be among the first rows, as the cut-off tightens. Null where the key is not a
             * column of integers, decimals or dates decoded straight from the table.
             */
            MaterializeJob.IdFilter codeFilter(TablePart part, PhysicalPlan.Scan scan, ScanProgram program) {
                PhysicalPlan.SortKey first = keys.getFirst();
                if (!(scan.outputs().get(first.column()) instanceof InputRef ref)) {
                    return null;
                }
                int[] decoded = program.tableColumns();
                for (int i = 0; i < decoded.length; i++) {
                    if (decoded[i] == ref.index()
                            && part.column(ref.index()).dictionary() instanceof LongDictionary dictionary) {
                        codes = new CodeCutoff(dictionary, first.descending(), first.nullsFirst());
                        return new MaterializeJob.IdFilter(i, codes.allowed());
                    }
                }
                return null;
            }

            @Override
            public void push(TaskContext ctx, Chunk chunk) {
                Chunk rows = chunk;
                if (shared != null && shared.isSet()) {
                    // Another task's cut-off may be tighter than this one's: rows past it go first.
                    if (codes != null) {
                        codes.tighten(shared.value());
                    }
                    rows = sharedPass(rows);
                }
                if (rows != null && cutoff >= 0) {
                    rows = beforeCutoff(rows);
                }
                if (rows == null) {
                    return;
                }
                charge(rows.rows());
                buffer.append(rows);
                if (buffer.rows() >= Math.max(2L * limit, TOP_N_MIN_BUFFER_ROWS)) {
                    int before = buffer.rows();
                    buffer = RelationOps.sort(buffer, keys, 0, limit);
                    charge(buffer.rows() - before);
                    cutoff = buffer.rows() == limit ? limit - 1 : -1;
                    ColumnVector key = buffer.columns().get(keys.getFirst().column());
                    if ((codes != null || shared != null) && cutoff >= 0 && !key.isNull(cutoff)) {
                        long value = key.longs()[cutoff];
                        if (codes != null) {
                            codes.tighten(value);
                        }
                        if (shared != null) {
                            shared.offer(value);
                        }
                    }
                }
            }

            /**
             * Charges (or, for a negative count, gives back) the memory of {@code rows} buffered rows to the query's
             * budget: a top-N of a large LIMIT holds up to twice that many rows per task.
             */
            private void charge(long rows) {
                long bytes = rows * buffer.estimatedRowBytes();
                if (bytes > 0) {
                    query.memory().reserve(bytes);
                } else if (bytes < 0) {
                    query.memory().release(-bytes);
                }
                charged += bytes;
            }

            /** The rows of {@code chunk} the best cut-off of all tasks lets pass; null when none. */
            private Chunk sharedPass(Chunk chunk) {
                int n = chunk.rows();
                if (selected.length < n) {
                    selected = new int[n];
                }
                ColumnVector key = chunk.column(keys.getFirst().column());
                long[] values = key.longs();
                boolean[] nulls = key.nulls();
                int count = 0;
                for (int i = 0; i < n; i++) {
                    if (shared.mayPass(nulls[i], values[i])) {
                        selected[count++] = i;
                    }
                }
                return selected(chunk, count);
            }

            /** The rows of {@code chunk} that may still be among the first; null when none. */
            private Chunk beforeCutoff(Chunk chunk) {
                int n = chunk.rows();
                if (selected.length < n) {
                    selected = new int[n];
                }
                RowComparator order = RelationSort.comparator(chunk.vectors(), keys);
                ColumnVector[] best = buffer.chunk().vectors();
                int count = 0;
                for (int i = 0; i < n; i++) {
                    if (order.compareFirstKey(i, best, cutoff) <= 0) {
                        selected[count++] = i;
                    }
                }
                return selected(chunk, count);
            }

            /** The first {@code count} rows listed in {@code selected}: the chunk itself if all, null if none. */
            private Chunk selected(Chunk chunk, int count) {
                if (count == chunk.rows()) {
                    return chunk;
                }
                if (count == 0) {
                    return null;
                }
                ColumnVector[] columns = chunk.vectors();
                ColumnVector[] out = new ColumnVector[columns.length];
                for (int c = 0; c < columns.length; c++) {
                    out[c] = columns[c].gather(selected, count);
                }
                return new Chunk(out, count);
            }

            @Override
            public void finish(TaskContext ctx) {
                Relation best = RelationOps.sort(buffer, keys, 0, limit);
                synchronized (kept) {
                    kept.append(best.chunk());
                }
                // The kept rows are charged again as they are appended to the global state.
                charge(-buffer.rows());
                buffer = Relation.empty(types, names);
            }
        }

        @Override
        public Relation result() {
            return kept;
        }
    }

    /** GROUP BY: a local table per task, handed to the disjoint merged tables as it outgrows the cache. */
    private final class AggregateSink implements Sink {
        private final PhysicalPlan.Aggregate aggregate;
        private final int[] keys;
        private final List<AggregateCall> calls;
        private final AggregateMerge merge;

        /**
         * {@code aggregate} as planned; {@code keys} and {@code calls} over the columns that reach the sink, of
         * {@code inputTypes} (a scan computes only those the aggregation reads).
         */
        AggregateSink(PhysicalPlan.Aggregate aggregate, int[] keys, List<AggregateCall> calls,
                      List<ColumnType> inputTypes, List<Integer> nodes, PhysicalPlan.Aggregate then) {
            this.aggregate = aggregate;
            List<ColumnType> keyTypes = new ArrayList<>();
            for (int k : keys) {
                keyTypes.add(inputTypes.get(k));
            }
            this.keys = keys;
            this.calls = calls;
            int mergeTasks = keys.length == 0 ? 1 : Math.max(1, executor.concurrencyHint());
            // Merge tasks go round-robin to the nodes the pipeline's tasks run on.
            this.merge = new AggregateMerge(executor, query, mergeTasks, nodes, keyTypes, calls, trace);
            if (then != null) {
                merge.then(then);
            }
        }

        @Override
        public Step local() {
            AggregateMerge.Local local = merge.local(keys, calls);
            return new Step() {
                @Override
                public void push(TaskContext ctx, Chunk chunk) {
                    local.add(ctx, chunk);
                }

                @Override
                public void finish(TaskContext ctx) {
                    local.finish(ctx);
                }
            };
        }

        @Override
        public Relation result() {
            return merge.relation(aggregate);
        }
    }

    /**
     * A stream to the client: each chunk copied into a result batch of its own (the task reuses its vectors) and
     * queued; the task waits, as inactive, while the reader is behind.
     */
    private final class StreamStep implements Step {
        private final StreamingSource target;
        private final List<ResultColumn> columns;
        private final List<ColumnType> types;

        StreamStep(StreamingSource target, List<ResultColumn> columns, List<ColumnType> types) {
            this.target = target;
            this.columns = columns;
            this.types = types;
        }

        @Override
        public void push(TaskContext ctx, Chunk chunk) {
            int rows = chunk.rows();
            List<ColumnVector> copies = new ArrayList<>(chunk.width());
            for (int c = 0; c < chunk.width(); c++) {
                copies.add(RelationOps.copy(chunk.column(c), types.get(c), rows));
            }
            ResultBatch out = new ResultBatch(columns, copies, rows);
            try {
                executor.blocking().inactive(() -> {
                    target.queue().put(out);
                    return null;
                });
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new QueryCancelledException(query, "interrupted while waiting for the reader");
            }
        }

        @Override
        public void finish(TaskContext ctx) {
        }
    }

    // ---- decisions shared with EXPLAIN ----

    /** Whether a sort is an ORDER BY with a LIMIT small enough for each task to keep its own first rows. */
    static boolean topN(PhysicalPlan.Sort sort) {
        return !sort.keys().isEmpty() && sort.fetch() >= 0 && sort.offset() <= TOP_N_MAX_ROWS
                && sort.fetch() <= TOP_N_MAX_ROWS - sort.offset();
    }

    /** Which side of a join is probed (the other is built). */
    static boolean probeLeft(PhysicalPlan.Join join) {
        if (!join.type().outputsRight()) {
            return true;
        }
        // A table scan, or a join whose probe side leads down to one, is probed rather than built: its tasks probe
        // on the nodes of the scan's parts, in parallel, where a computed input is first collected whole.
        // Otherwise the input estimated smaller is built.
        boolean leftStreams = streamsFromScan(join.left());
        boolean rightStreams = streamsFromScan(join.right());
        if (leftStreams != rightStreams) {
            return leftStreams;
        }
        return join.leftRows() >= join.rightRows();
    }

    /** Whether a plan's rows can flow through a pipeline from a table scan without being collected. */
    static boolean streamsFromScan(PhysicalPlan plan) {
        if (!streamingOps(plan)) {
            return false;
        }
        return switch (plan.source()) {
            case PhysicalPlan.Scan scan -> true;
            case PhysicalPlan.Join join -> streamsFromScan(probeLeft(join) ? join.left() : join.right());
            default -> false;
        };
    }

    /**
     * The nodes of the parts of the scan at the bottom of a join's probe chain, as the table stands now; empty when
     * the probe side is a computed input.
     */
    static List<Integer> probeNodes(PhysicalPlan.Join join) {
        PhysicalPlan probe = probeLeft(join) ? join.left() : join.right();
        if (!streamsFromScan(probe)) {
            return List.of();
        }
        return switch (probe.source()) {
            case PhysicalPlan.Scan scan -> scan.table().version().parts().stream().map(TablePart::homeNode)
                    .distinct().sorted().toList();
            case PhysicalPlan.Join inner -> probeNodes(inner);
            default -> List.of();
        };
    }

    private static boolean isPlainScan(PhysicalPlan plan) {
        return plan.source() instanceof PhysicalPlan.Scan && plan.ops().isEmpty();
    }

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
        List<Expr> leftOutputs = ((PhysicalPlan.Scan) join.left().source()).outputs();
        List<Expr> rightOutputs = ((PhysicalPlan.Scan) join.right().source()).outputs();
        for (int k = 0; k < join.leftKeys().length; k++) {
            if (leftOutputs.get(join.leftKeys()[k]) instanceof InputRef l && l.index() == leftColumn
                    && rightOutputs.get(join.rightKeys()[k]) instanceof InputRef r
                    && r.index() == rightColumn) {
                return k;
            }
        }
        return -1;
    }

    @Override
    public void close() {
        for (JoinHashTable table : tables) {
            table.release();
        }
        for (TableSnapshot snapshot : snapshots) {
            snapshot.close();
        }
        if (arena != null) {
            arena.close();
        }
    }
}
