package io.locusdb.core.exec;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntPredicate;

/**
 * Roots of submitted graphs that no worker has started yet, for one node: per priority, oldest query first (then
 * oldest root), and within a priority one queue per task class so that a thief finds the oldest root of a class it
 * may steal even when the oldest root overall is one it may not. Workers start a new root only when the task pools
 * hold nothing for them (by default), which finishes started graphs first and acts as a light admission control;
 * ordering by query finishes started queries first: the next pipeline of a query under way goes before the first
 * of a query that arrived after it. Ordered by root alone, hundreds of concurrent queries would advance in
 * lockstep, a pipeline each in turn, none finishing until nearly all do, and all holding their intermediate state
 * (hash tables, handed groups) at once. Among priorities, the highest
 * non-empty one is picked with probability {@code bias}; otherwise a lower non-empty one at random, so low
 * priorities cannot starve when bias &lt; 1.
 */
final class RootQueue {
    private static final int HEAPS = TaskClasses.MAX_CLASSES + 1;

    private final int node;
    private final double bias;
    private final ReentrantLock lock = new ReentrantLock();
    @SuppressWarnings("unchecked")
    private final PriorityQueue<Task>[][] queues = new PriorityQueue[QueryContext.Priority.LEVELS][HEAPS];
    private final int[] sizeByPriority = new int[QueryContext.Priority.LEVELS];
    private long sequence;
    private volatile int size;

    RootQueue(int node, double bias) {
        this.node = node;
        this.bias = bias;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Queries by age (their ids grow), then roots by the order they came in. */
    private static final Comparator<Task> OLDEST_QUERY_FIRST = Comparator.<Task>comparingLong(t -> t.run.query.id())
            .thenComparingLong(t -> t.sequence);

    private static int heapIndex(Task root) {
        return root.preferredNode() == Task.ANY_NODE ? TaskPool.ANY_NODE_HEAP : root.taskClass().id();
    }

    void push(Task root, int priority) {
        int p = priority - QueryContext.Priority.LOWEST;
        int heap = heapIndex(root);
        lock.lock();
        try {
            root.queuedNode = node;
            root.sequence = sequence++;
            PriorityQueue<Task> queue = queues[p][heap];
            if (queue == null) {
                queue = new PriorityQueue<>(OLDEST_QUERY_FIRST);
                queues[p][heap] = queue;
            }
            queue.add(root);
            sizeByPriority[p]++;
            size++;
        } finally {
            lock.unlock();
        }
    }

    /** The oldest root of the chosen priority whose heap index (as in {@link TaskPool}) is allowed, or null. */
    Task poll(IntPredicate allowed) {
        if (size == 0) {
            return null;
        }
        lock.lock();
        try {
            int highest = -1;
            int candidates = 0;
            for (int p = queues.length - 1; p >= 0; p--) {
                if (sizeByPriority[p] > 0 && oldest(p, allowed) != null) {
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
                    if (sizeByPriority[p] > 0 && oldest(p, allowed) != null && --skip == 0) {
                        pick = p;
                        break;
                    }
                }
            }
            PriorityQueue<Task> queue = oldest(pick, allowed);
            sizeByPriority[pick]--;
            size--;
            return queue.poll();
        } finally {
            lock.unlock();
        }
    }

    private PriorityQueue<Task> oldest(int priority, IntPredicate allowed) {
        PriorityQueue<Task> best = null;
        PriorityQueue<Task>[] byHeap = queues[priority];
        for (int h = 0; h < HEAPS; h++) {
            PriorityQueue<Task> queue = byHeap[h];
            if (queue != null && !queue.isEmpty() && allowed.test(h)
                    && (best == null || OLDEST_QUERY_FIRST.compare(queue.peek(), best.peek()) < 0)) {
                best = queue;
            }
        }
        return best;
    }

    boolean hasAny(IntPredicate allowed) {
        if (size == 0) {
            return false;
        }
        lock.lock();
        try {
            for (int p = 0; p < queues.length; p++) {
                if (sizeByPriority[p] > 0 && oldest(p, allowed) != null) {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }
}
