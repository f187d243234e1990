package io.locusdb.core.query.pipeline;

/**
 * The end of a pipeline, a pipeline breaker: one global state, one local step per task. Tasks push into their
 * local steps, each {@link TaskStep#finish finish} combines a task's local state into the global one, and once the
 * pipeline's tasks are done {@link #result()} finalizes it. The result is the source of the pipeline that follows.
 */
public interface PipelineSink {
    /** A new local state, for one task. */
    TaskStep local();

    /** The finished result; called once, after every task's step has finished. */
    Relation result();

    /** What the sink makes of its rows, as EXPLAIN ANALYZE names it. */
    default String describe() {
        return getClass().getSimpleName();
    }
}
