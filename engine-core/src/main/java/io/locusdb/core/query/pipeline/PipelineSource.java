package io.locusdb.core.query.pipeline;

import java.util.List;
import java.util.function.IntFunction;

/**
 * Where a pipeline's chunks come from: a table scan, a computed relation, or the pipelines of a union's inputs. The
 * source decides the tasks (one per part and range of rows, each on its preferred node) and pushes each task's
 * chunks through the steps the pipeline opens for it.
 */
public interface PipelineSource {
    /**
     * Runs the source's tasks and waits for them; each task pushes into the steps {@code chains} opens for the part
     * it reads (-1 where the source has no parts).
     */
    void run(IntFunction<TaskStep> chains);

    /** The nodes the source's tasks run on (where the sink's merge tasks go), empty when it has none. */
    List<Integer> nodes();

    /** The node whose tasks read part {@code part} of the source, or -1 (a computed input's tasks). */
    int nodeOf(int part);

    /** Where the rows come from, as EXPLAIN ANALYZE names it. */
    default String describe() {
        return getClass().getSimpleName();
    }
}
