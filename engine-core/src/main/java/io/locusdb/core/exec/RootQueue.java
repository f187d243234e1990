package io.locusdb.core.exec;

import java.util.ArrayDeque;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntPredicate;

/**
 * Roots of submitted graphs that no worker has started yet, one FIFO per priority, for one node. Workers start a
 * new root only when the task pools hold nothing for them (by default), which finishes started graphs first and
 * acts as a light admission control. Among priorities, the highest non-empty one is picked with probability
 * {@code bias}; otherwise a lower non-empty one at random, so low priorities cannot starve when bias &lt; 1.
 */
final class RootQueue {
    private final int node;
    private final double bias;
    private final ReentrantLock lock = new ReentrantLock();
    @SuppressWarnings("unchecked")
    private final ArrayDeque<Task>[] byPriority = new ArrayDeque[QueryContext.Priority.LEVELS];
    private volatile int size;

    RootQueue(int node, double bias) {
        this.node = node;
        this.bias = bias;
        for (int p = 0; p < byPriority.length; p++) {
            byPriority[p] = new ArrayDeque<>();
        }
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void push(Task root, int priority) {
        lock.lock();
        try {
            root.queuedNode = node;
            byPriority[priority - QueryContext.Priority.LOWEST].addLast(root);
            size++;
        } finally {
            lock.unlock();
        }
    }

    /** A root whose heap index (as in {@link TaskPool}) satisfies {@code allowed}, or null. */
    Task poll(IntPredicate allowed) {
        if (size == 0) {
            return null;
        }
        lock.lock();
        try {
            int highest = -1;
            int candidates = 0;
            for (int p = byPriority.length - 1; p >= 0; p--) {
                Task head = byPriority[p].peekFirst();
                if (head != null && allowed.test(heapIndex(head))) {
                    if (highest < 0) {
                        highest = p;
                    }
                    candidates++;
                }
            }
            if (highest < 0) {
                return null;
            }
            int pick = highest;
            if (candidates > 1 && bias < 1.0 && ThreadLocalRandom.current().nextDouble() >= bias) {
                int skip = 1 + ThreadLocalRandom.current().nextInt(candidates - 1);
                for (int p = highest - 1; p >= 0; p--) {
                    Task head = byPriority[p].peekFirst();
                    if (head != null && allowed.test(heapIndex(head)) && --skip == 0) {
                        pick = p;
                        break;
                    }
                }
            }
            size--;
            return byPriority[pick].pollFirst();
        } finally {
            lock.unlock();
        }
    }

    private static int heapIndex(Task root) {
        return root.preferredNode() == Task.ANY_NODE ? TaskPool.ANY_NODE_HEAP : root.taskClass().id();
    }

    boolean hasAny(IntPredicate allowed) {
        if (size == 0) {
            return false;
        }
        lock.lock();
        try {
            for (ArrayDeque<Task> queue : byPriority) {
                Task head = queue.peekFirst();
                if (head != null && allowed.test(heapIndex(head))) {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }
}
