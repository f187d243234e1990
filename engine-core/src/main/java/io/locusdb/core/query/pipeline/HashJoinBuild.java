package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.query.join.JoinHashTable;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.query.scan.ScanPipeline;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.vector.Chunk;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The build side of a hash join, the sink of the pipeline that computes the build rows: their hash table, built by
 * join-build tasks on the nodes that will probe it (one table, one index copy per node, or the index partitioned
 * across the nodes, as {@link BuildPlacement} decides), or, for co-partitioned tables, one table per table-group
 * part, built on that part's node. The result is the {@link HashJoinProbe} of the pipeline above.
 */
final class HashJoinBuild {
    /** A co-partitioned join's probe side: the scan of the probe table and the probe of the per-part tables. */
    record CoPartitioned(TableScanSource source, HashJoinProbe probe) {
    }

    private HashJoinBuild() {
    }

    /** The hash table of {@code build}, the join's build rows, placed for the probe tasks of {@code probeSource}. */
    static HashJoinProbe build(PipelineContext context, PhysicalPlan.Join join, Relation build,
                               PipelineSource probeSource) {
        boolean probeLeft = join.probesLeft();
        int[] buildKeys = probeLeft ? join.rightKeys() : join.leftKeys();
        boolean keepBuild = join.emitsBuildRowsAfterProbes();
        NumaExecutor executor = context.executor();
        QueryContext query = context.query();
        List<Integer> nodes = probeSource.nodes();
        BuildPlacement placement = BuildPlacement.of(join, nodes.size());
        int home = nodes.isEmpty() ? TaskGraph.ANY_NODE : nodes.getFirst();
        JoinHashTable[] byNode = new JoinHashTable[Math.max(1, executor.topology().nodeCount())];
        TaskClass buildClass = executor.taskClass(PipelineBuilder.JOIN_BUILD_TASK_CLASS);
        int partitions = BuildPlacement.partitions(placement, build.rows(), nodes.size(),
                executor.concurrencyHint());
        // Partition p of the index goes to the memory of the node that builds it: the probe side's nodes in turn
        // when the table is partitioned across them, else the first one.
        IntUnaryOperator nodeOf = p -> placement == BuildPlacement.PARTITIONED ? nodes.get(p % nodes.size()) : home;
        JoinHashTable table = JoinHashTable.partitioned(build.chunk().vectors(), build.rows(), buildKeys, keepBuild,
                query.memory(), partitions, p -> context.indexMemory(nodeOf.applyAsInt(p)), (count, body) -> {
                    TaskGraph graph = new TaskGraph("join build");
                    TaskGraph.Node root = graph.root(buildClass, TaskGraph.ANY_NODE, ctx -> { });
                    for (int p = 0; p < count; p++) {
                        int partition = p;
                        int node = nodeOf.applyAsInt(p);
                        graph.node(buildClass, node, ctx -> {
                            body.accept(partition);
                            context.trace().accept(new TaskRecord(PipelineBuilder.JOIN_BUILD_TASK_CLASS,
                                    partition, node, ctx.node(), ctx.stolen(), -1));
                        }, root);
                    }
                    executor.submit(graph, query).await();
                });
        context.own(table);
        if (home >= 0) {
            byNode[home] = table;
        }
        if (placement == BuildPlacement.COPY_PER_NODE) {
            // One copy of the index per further node, each written by a task on its node into its memory.
            TaskGraph graph = new TaskGraph("join build copies");
            TaskGraph.Node root = graph.root(buildClass, TaskGraph.ANY_NODE, ctx -> { });
            for (int node : nodes.subList(1, nodes.size())) {
                graph.node(buildClass, node, ctx -> {
                    JoinHashTable copy = table.copyInto(context.indexMemory(node));
                    synchronized (byNode) {
                        byNode[node] = copy;
                    }
                    if (copy != table) {
                        context.own(copy);
                    }
                    context.trace().accept(new TaskRecord(PipelineBuilder.JOIN_BUILD_TASK_CLASS, -1, node,
                            ctx.node(), ctx.stolen(), build.rows()));
                }, root);
            }
            executor.submit(graph, query).await();
        }
        return new HashJoinProbe(join, new JoinHashTable[] {table}, part -> {
            int node = probeSource.nodeOf(part);
            return node >= 0 && byNode[node] != null ? byNode[node] : table;
        });
    }

    /**
     * A join of co-partitioned tables, per table-group part: the build side's part p is collected and its hash
     * table built by a task on p's node, then the probe side's part p, on the same node, probes only that table. No
     * row crosses nodes. (The parts may have moved apart since the check; then each task still reads its own part,
     * only not locally.) Null when the tables were repartitioned apart since planning.
     */
    static CoPartitioned coPartitioned(PipelineContext context, PhysicalPlan.Join join) {
        boolean probeLeft = join.probesLeft();
        PhysicalPlan probePlan = probeLeft ? join.left() : join.right();
        PhysicalPlan buildPlan = probeLeft ? join.right() : join.left();
        int[] buildKeys = probeLeft ? join.rightKeys() : join.leftKeys();
        boolean keepBuild = join.emitsBuildRowsAfterProbes();
        PhysicalPlan.Scan buildScan = (PhysicalPlan.Scan) buildPlan.source();
        PhysicalPlan.Scan probeScan = (PhysicalPlan.Scan) probePlan.source();
        TableSnapshot buildSnapshot = context.snapshot(buildScan.table());
        TableSnapshot probeSnapshot = context.snapshot(probeScan.table());
        int parts = buildSnapshot.parts().size();
        if (probeSnapshot.parts().size() != parts) {
            return null;
        }
        NumaExecutor executor = context.executor();
        QueryContext query = context.query();
        ScanProgram buildProgram = new ScanProgram(buildScan, context.batchRows());
        Relation[] builds = new Relation[parts];
        for (int p = 0; p < parts; p++) {
            builds[p] = Relation.empty(buildProgram.outputTypes(), buildScan.names()).chargedTo(query.memory());
        }
        ScanPipeline.submit(executor, query, buildSnapshot, buildProgram.ranges(), buildProgram.columns(true),
                part -> {
                    ScanProgram.Kernels kernels = buildProgram.kernels();
                    Relation relation = builds[part];
                    return (ctx, batch) -> {
                        Chunk out = kernels.apply(batch);
                        if (out.rows() > 0) {
                            synchronized (relation) {
                                relation.append(out);
                            }
                        }
                    };
                }, context.trace(), context.partTargets()).await();
        JoinHashTable[] perPart = new JoinHashTable[parts];
        TaskClass buildClass = executor.taskClass(PipelineBuilder.JOIN_BUILD_TASK_CLASS);
        TaskGraph graph = new TaskGraph("join build");
        TaskGraph.Node root = graph.root(buildClass, TaskGraph.ANY_NODE, ctx -> { });
        for (int p = 0; p < parts; p++) {
            int part = p;
            int node = buildSnapshot.parts().get(p).homeNode();
            graph.node(buildClass, node, ctx -> {
                perPart[part] = new JoinHashTable(builds[part].chunk().vectors(), builds[part].rows(), buildKeys,
                        keepBuild, query.memory(), context.indexMemory(node));
                context.trace().accept(new TaskRecord(PipelineBuilder.JOIN_BUILD_TASK_CLASS, part, node,
                        ctx.node(), ctx.stolen(), builds[part].rows()));
            }, root);
        }
        try {
            executor.submit(graph, query).await();
        } finally {
            for (JoinHashTable table : perPart) {
                if (table != null) {
                    context.own(table);
                }
            }
        }
        TableScanSource source = new TableScanSource(context, probeScan,
                new ScanProgram(probeScan, context.batchRows()), probeSnapshot);
        return new CoPartitioned(source, new HashJoinProbe(join, perPart, part -> perPart[part]));
    }
}
