package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A source and the operators its chunks flow through, without an end: each task of the source pushes into its own
 * steps of every operator, then into the end its caller gives. A chain is a source itself (what reaches its end is
 * its output), so that a union's inputs can each be a chain feeding the pipeline above the union.
 */
public final class OperatorChain implements PipelineSource {
    private final PipelineContext context;
    private final PipelineSource source;
    private final List<PipelineOperator> operators;

    public OperatorChain(PipelineContext context, PipelineSource source, List<PipelineOperator> operators) {
        this.context = context;
        this.source = source;
        this.operators = List.copyOf(operators);
        if (source instanceof TableScanSource scan && !operators.isEmpty()
                && operators.getFirst() instanceof HashJoinProbe probe) {
            scan.probedBy(probe);
        }
    }

    public PipelineSource source() {
        return source;
    }

    public List<PipelineOperator> operators() {
        return operators;
    }

    @Override
    public void run(IntFunction<TaskStep> ends) {
        run(ends, "the pipeline above");
    }

    @Override
    public String describe() {
        return source.describe();
    }

    /** Runs the chain into {@code ends}, which EXPLAIN ANALYZE calls {@code endName}. */
    void run(IntFunction<TaskStep> ends, String endName) {
        PipelineProfile.Run run = profile(endName);
        source.run(part -> open(0, ends.apply(part), part, run));
        // Outer joins that keep unmatched build rows emit them once every probe is done, through the rest of the
        // chain, lowest join first (a join above may still match them).
        for (int i = 0; i < operators.size(); i++) {
            if (operators.get(i) instanceof HashJoinProbe probe && probe.keepsUnmatchedBuild()) {
                int from = i + 1;
                TaskClass probeClass = context.executor().taskClass(PipelineBuilder.JOIN_PROBE_TASK_CLASS);
                TaskGraph graph = new TaskGraph("join unmatched build rows");
                graph.root(probeClass, TaskGraph.ANY_NODE, ctx -> {
                    TaskStep next = open(from, ends.apply(-1), -1, run);
                    probe.emitUnmatched(ctx, next);
                    next.finish(ctx);
                });
                context.executor().submit(graph, context.query()).await();
            }
        }
        if (run != null) {
            run.finish();
        }
    }

    /**
     * Starts the chain's tasks without waiting, where one task graph runs all of it (a table scan whose operators
     * emit nothing after the scan); null otherwise.
     */
    GraphHandle start(IntFunction<TaskStep> ends, String endName) {
        if (!(source instanceof TableScanSource scan) || operators.stream()
                .anyMatch(op -> op instanceof HashJoinProbe probe && probe.keepsUnmatchedBuild())) {
            return null;
        }
        PipelineProfile.Run run = profile(endName);
        GraphHandle handle = scan.start(part -> open(0, ends.apply(part), part, run));
        if (run != null) {
            handle.completion().whenComplete((ignored, error) -> run.finish());
        }
        return handle;
    }

    /** The profile's record of this run of the chain, or null when the query is not analyzed. */
    private PipelineProfile.Run profile(String endName) {
        if (context.profile() == null) {
            return null;
        }
        List<String> steps = new ArrayList<>();
        for (PipelineOperator operator : operators) {
            steps.add(operator.describe());
        }
        steps.add(endName);
        return context.profile().start(source.describe(), steps);
    }

    /** Steps {@code from..} of the chain for one task, each counted into {@code run} when it is not null. */
    private TaskStep open(int from, TaskStep end, int part, PipelineProfile.Run run) {
        TaskStep step = run == null ? end : run.wrap(operators.size(), end);
        for (int i = operators.size() - 1; i >= from; i--) {
            step = operators.get(i).open(step, part);
            if (run != null) {
                step = run.wrap(i, step);
            }
        }
        return step;
    }

    @Override
    public List<Integer> nodes() {
        return source.nodes();
    }

    @Override
    public int nodeOf(int part) {
        return source.nodeOf(part);
    }
}
