package io.locusdb.core.query.pipeline;

/**
 * An operator in the middle of a pipeline, as planned and shared by the pipeline's tasks (its global state):
 * filters, projections, the probe of a hash join. It works chunk by chunk and never needs all its input at once.
 */
public interface PipelineOperator {
    /**
     * This operator's step for one task, pushing its output into {@code next}; {@code part} is the part of the
     * source the task reads (-1 where the source has no parts), for operators whose state is per part.
     */
    TaskStep open(TaskStep next, int part);

    /** What the operator does, as EXPLAIN ANALYZE names it. */
    default String describe() {
        return getClass().getSimpleName();
    }
}
