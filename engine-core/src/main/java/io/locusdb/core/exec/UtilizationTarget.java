package io.locusdb.core.exec;

/**
 * Where the executor accounts a task's use of the machine while it runs on the node of its data: a table part or a
 * table-group part (adaptive-placement paper, §5). The worker adds one thread and the task class's average memory
 * throughput when the task starts, and takes both back when it ends, blocks or waits; stolen tasks and tasks away
 * from their data are not counted, since they say nothing about what the data's node is asked to do.
 *
 * <p>Called twice per task on the hot path: implementations must not lock or allocate.
 */
@FunctionalInterface
public interface UtilizationTarget {
    /** {@code threads} is +1 or -1, {@code bytesPerSecond} the class's average throughput (or its negation). */
    void adjust(int threads, long bytesPerSecond);
}
