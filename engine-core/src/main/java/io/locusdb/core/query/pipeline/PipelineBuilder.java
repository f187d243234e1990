package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.type.ColumnType;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a plan into pipelines and runs them, each as task graphs whose tasks prefer the nodes of the data they read.
 * A pipeline is a source (the scan of a table, its materialize tasks on the nodes of its parts; a computed input cut
 * into ranges; the chains of a union's inputs), then operators each task runs on its chunks in turn (the probe of
 * every hash join up the probe chain, filters, projections), then a sink with global state and one local state per
 * task (a parallel aggregation, a top-N, the collected rows, or the stream to the client). A join's build side is a
 * pipeline of its own, run first, and its hash table built by join-build tasks; nothing between a pipeline's source
 * and its sink is materialized. The operators are the public types of this package; this class only wires them as
 * the plan says.
 */
final class PipelineBuilder {
    static final String JOIN_BUILD_TASK_CLASS = "join-build";
    static final String JOIN_PROBE_TASK_CLASS = "join-probe";
    /** The tasks that push a computed input of a union into the pipeline above it. */
    static final String UNION_TASK_CLASS = "union";

    /** What the pipeline produced and how many of the plan's operators it ran. */
    record Outcome(Relation relation, int opsDone) {
    }

    /** A plan's source and leading row-by-row operators as a chain: what flows out of it, and how many ops it ran. */
    private record Chained(OperatorChain chain, List<String> names, List<ColumnType> types, int opsDone) {
    }

    private final QueryRunner runner;
    private final PipelineContext context;

    PipelineBuilder(QueryRunner runner, PipelineContext context) {
        this.runner = runner;
        this.context = context;
    }

    /** Whether {@link #execute} runs pipelines for this plan's source. */
    static boolean runsAsPipeline(PhysicalPlan plan) {
        return plan.source() instanceof PhysicalPlan.Scan || plan.source() instanceof PhysicalPlan.Join
                || plan.source() instanceof PhysicalPlan.Union;
    }

    /**
     * Runs the pipeline of {@code plan}, whose source is a table scan, a join or a union: the scan, the join's
     * probe chain or the union's inputs, the row-by-row operators above, into the first aggregation above them
     * (done in parallel), a top-N, or a collected relation. The operators after that are left to the caller.
     */
    Outcome execute(PhysicalPlan plan) {
        List<PhysicalPlan.Op> ops = plan.ops();
        if (plan.source() instanceof PhysicalPlan.Scan scan && !ops.isEmpty()
                && ops.getFirst() instanceof PhysicalPlan.Aggregate aggregate) {
            // Only the scan outputs the aggregation reads are computed.
            AggregateInput input = AggregateInput.of(scan, aggregate);
            ScanProgram program = new ScanProgram(scan, input.outputs(), context.batchRows());
            TableScanSource source = new TableScanSource(context, scan, program);
            PhysicalPlan.Aggregate then = fusedNext(aggregate, ops, 1);
            PipelineSink sink = new AggregateSink(context, aggregate, input.keys(), input.calls(),
                    program.outputTypes(), source.nodes(), then);
            Relation result = new Pipeline(new OperatorChain(context, source, List.of()), sink).run();
            return new Outcome(result, then == null ? 1 : 2);
        }
        if (plan.source() instanceof PhysicalPlan.Scan scan && !ops.isEmpty()
                && ops.getFirst() instanceof PhysicalPlan.Sort sort && sort.fetchesLate(scan)) {
            return new Outcome(LateTopN.run(context, scan, sort), 1);
        }
        Chained chained = chain(plan);
        int done = chained.opsDone();
        PipelineSink sink;
        if (done < ops.size() && ops.get(done) instanceof PhysicalPlan.Aggregate aggregate) {
            PhysicalPlan.Aggregate then = fusedNext(aggregate, ops, done + 1);
            sink = new AggregateSink(context, aggregate, aggregate.keys(), aggregate.calls(), chained.types(),
                    chained.chain().nodes(), then);
            done += then == null ? 1 : 2;
        } else if (done < ops.size() && ops.get(done) instanceof PhysicalPlan.Sort sort && sort.isTopN()) {
            // The sort itself runs again, on the few rows the tasks kept.
            sink = new TopNSink(chained.types(), chained.names(), sort.keys(), (int) (sort.offset() + sort.fetch()),
                    context.query().memory());
        } else {
            sink = new CollectSink(chained.types(), chained.names(), context.query().memory());
        }
        return new Outcome(new Pipeline(chained.chain(), sink).run(), done);
    }

    /**
     * GROUP BY over a computed relation (an aggregation above another, as COUNT(DISTINCT) becomes): its rows cut
     * into ranges, each aggregated by a task of its own into the parallel aggregation's local tables and merged by
     * hash bucket, as above a scan.
     */
    Relation aggregate(Relation input, PhysicalPlan.Aggregate aggregate, PhysicalPlan.Aggregate then) {
        PipelineSource source = new RelationSource(context, input, AggregateMerge.TASK_CLASS_INPUT);
        PipelineSink sink = new AggregateSink(context, aggregate, aggregate.keys(), aggregate.calls(),
                input.types(), source.nodes(), then);
        return new Pipeline(new OperatorChain(context, source, List.of()), sink).run();
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
     * Whether {@link #stream} can send this plan's rows to the client as they are found: a scan (with its probes of
     * hash joins whose build rows need no second pass) and row-by-row operators, perhaps with OFFSET and LIMIT.
     */
    static boolean streams(PhysicalPlan plan) {
        List<PhysicalPlan.Op> ops = plan.ops();
        int rowOps = ops.size();
        if (rowOps > 0 && ops.getLast() instanceof PhysicalPlan.Sort sort && sort.keys().isEmpty()) {
            rowOps--;
        }
        for (int i = 0; i < rowOps; i++) {
            if (!(ops.get(i) instanceof PhysicalPlan.Filter || ops.get(i) instanceof PhysicalPlan.Project)) {
                return false;
            }
        }
        return streamingSource(plan);
    }

    private static boolean streamingSource(PhysicalPlan plan) {
        return switch (plan.source()) {
            case PhysicalPlan.Scan scan -> true;
            case PhysicalPlan.Join join -> {
                boolean keepsBuild = join.emitsBuildRowsAfterProbes();
                PhysicalPlan probe = join.probesLeft() ? join.left() : join.right();
                yield !keepsBuild && probe.hasStreamingOps() && streamingSource(probe);
            }
            default -> false;
        };
    }

    /**
     * Starts a plan that {@link #streams} whose rows go to the client as they are found, skipping {@code offset}
     * rows and stopping after {@code fetch} (-1: all). Hash tables below are built first; then it returns while the
     * scan runs, and the context closes when the scan's tasks are done.
     */
    StreamingSource stream(PhysicalPlan plan, List<ResultColumn> columns, long offset, long fetch, int queueBatches) {
        StreamingSource target = new StreamingSource(queueBatches, offset, fetch);
        GraphHandle handle;
        try {
            Chained chained = chain(plan);
            StreamSink sink = new StreamSink(context.executor(), context.query(), target, columns, chained.types());
            handle = chained.chain().start(part -> sink.local(), sink.describe());
            if (handle == null) {
                throw new IllegalStateException("the plan does not stream: " + plan.source());
            }
        } catch (RuntimeException | Error e) {
            context.close();
            throw e;
        }
        handle.completion().whenComplete((ignored, error) -> context.close());
        target.start(handle);
        return target;
    }

    /** The chain of {@code plan}'s source (a scan, a join or a union) and its leading filters and projections. */
    private Chained chain(PhysicalPlan plan) {
        List<PipelineOperator> operators = new ArrayList<>();
        PipelineSource source;
        List<String> names;
        List<ColumnType> types;
        switch (plan.source()) {
            case PhysicalPlan.Join join -> {
                source = joinChain(join, operators);
                names = join.names();
                types = join.outputTypes();
            }
            case PhysicalPlan.Scan scan -> {
                ScanProgram program = new ScanProgram(scan, context.batchRows());
                source = new TableScanSource(context, scan, program);
                names = scan.names();
                types = program.outputTypes();
            }
            case PhysicalPlan.Union union -> {
                source = union(union);
                names = union.names();
                types = union.inputs().getFirst().types();
            }
            default -> throw new IllegalArgumentException("no pipeline over " + plan.source());
        }
        int done = 0;
        for (PhysicalPlan.Op op : plan.ops()) {
            if (op instanceof PhysicalPlan.Filter f) {
                operators.add(new FilterOperator(f.condition()));
            } else if (op instanceof PhysicalPlan.Project p) {
                operators.add(new ProjectOperator(p.exprs()));
                names = p.names();
                types = p.exprs().stream().map(Expr::type).toList();
            } else {
                break;
            }
            done++;
        }
        return new Chained(new OperatorChain(context, source, operators), names, types, done);
    }

    /** Each input of a union as a chain of its own where its rows can flow; a computed relation otherwise. */
    private PipelineSource union(PhysicalPlan.Union union) {
        List<PipelineSource> inputs = new ArrayList<>();
        for (PhysicalPlan input : union.inputs()) {
            if (input.hasStreamingOps() && runsAsPipeline(input)) {
                inputs.add(chain(input).chain());
            } else {
                inputs.add(new RelationSource(context, runner.evaluate(input, context), UNION_TASK_CLASS));
            }
        }
        return new UnionSource(inputs);
    }

    /**
     * Adds to {@code operators} the probe of {@code join}, after whatever its probe side's own chain adds, and
     * returns the source at the bottom. Builds the join's hash table(s) now.
     */
    private PipelineSource joinChain(PhysicalPlan.Join join, List<PipelineOperator> operators) {
        if (join.coPartitionKey() >= 0) {
            HashJoinBuild.CoPartitioned coPartitioned = HashJoinBuild.coPartitioned(context, join);
            if (coPartitioned != null) {
                operators.add(coPartitioned.probe());
                return coPartitioned.source();
            }
        }
        boolean probeLeft = join.probesLeft();
        Relation build = runner.evaluate(probeLeft ? join.right() : join.left(), context);
        PipelineSource source = probeChain(probeLeft ? join.left() : join.right(), operators);
        operators.add(HashJoinBuild.build(context, join, build, source));
        return source;
    }

    /** The source of a probe side's rows, adding the operators its own plan runs on them. */
    private PipelineSource probeChain(PhysicalPlan plan, List<PipelineOperator> operators) {
        if (plan.hasStreamingOps()) {
            switch (plan.source()) {
                case PhysicalPlan.Scan scan -> {
                    PipelineSource source = new TableScanSource(context, scan,
                            new ScanProgram(scan, context.batchRows()));
                    addRowOps(plan, operators);
                    return source;
                }
                case PhysicalPlan.Join join -> {
                    PipelineSource source = joinChain(join, operators);
                    addRowOps(plan, operators);
                    return source;
                }
                default -> {
                }
            }
        }
        return new RelationSource(context, runner.evaluate(plan, context), JOIN_PROBE_TASK_CLASS);
    }

    private static void addRowOps(PhysicalPlan plan, List<PipelineOperator> operators) {
        for (PhysicalPlan.Op op : plan.ops()) {
            switch (op) {
                case PhysicalPlan.Filter f -> operators.add(new FilterOperator(f.condition()));
                case PhysicalPlan.Project p -> operators.add(new ProjectOperator(p.exprs()));
                default -> throw new IllegalArgumentException("not a row-by-row operator: " + op);
            }
        }
    }
}
