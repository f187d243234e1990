package io.locusdb.core.exec;

/** The code of one task-graph node. It may block only through the executor's primitives (see {@link Blocking}). */
@FunctionalInterface
public interface TaskBody {
    void run(TaskContext context) throws Exception;
}
