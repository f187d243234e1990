package io.locusdb.core.exec;

import io.locusdb.core.exec.TaskClass;

/**
 * Whether a worker of {@code thiefNode} may take a task of {@code taskClass} that waits in {@code ownerNode}'s pool.
 * Asked on every inter-node steal attempt, so implementations must be cheap and thread-safe. Tasks without a
 * preferred node are always taken; they never reach a policy.
 */
public interface StealingPolicy {
    boolean maySteal(TaskClass taskClass, int ownerNode, int thiefNode);

    /** One line for logs and the calibration report. */
    String describe();
}
