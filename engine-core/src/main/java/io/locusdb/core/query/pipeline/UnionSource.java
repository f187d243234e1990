package io.locusdb.core.query.pipeline;

import java.util.List;
import java.util.TreeSet;
import java.util.function.IntFunction;

/**
 * UNION ALL: the rows of every input, each input a chain of its own (a scan, its operators, a join's probes) that
 * pushes straight into the pipeline above the union, so nothing is collected between. The inputs run one after
 * another, each with all the tasks its source has; their chunks reach the operators above as any source's would.
 * Above the union, a task has no part of its own (-1): each input's parts are its own.
 */
public final class UnionSource implements PipelineSource {
    private final List<PipelineSource> inputs;

    UnionSource(List<PipelineSource> inputs) {
        this.inputs = List.copyOf(inputs);
    }

    @Override
    public String describe() {
        return "union of " + inputs.size() + " inputs";
    }

    @Override
    public void run(IntFunction<TaskStep> chains) {
        for (PipelineSource input : inputs) {
            input.run(part -> chains.apply(-1));
        }
    }

    @Override
    public List<Integer> nodes() {
        TreeSet<Integer> nodes = new TreeSet<>();
        for (PipelineSource input : inputs) {
            nodes.addAll(input.nodes());
        }
        return List.copyOf(nodes);
    }

    @Override
    public int nodeOf(int part) {
        return -1;
    }
}
