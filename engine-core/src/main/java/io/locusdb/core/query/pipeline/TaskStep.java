package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.vector.Chunk;

/**
 * One task's instance of an operator or a sink (its local state): chunks in, and an operator pushes its result on
 * to the next step of the same task. A step is used by one task only, so it needs no locks.
 */
public interface TaskStep {
    /** The chunk and its vectors stay the caller's: a step keeps nothing of them after it returns. */
    void push(TaskContext ctx, Chunk chunk);

    /** After the task's last chunk: a sink hands its local state to its global state here (DuckDB's combine). */
    void finish(TaskContext ctx);
}
