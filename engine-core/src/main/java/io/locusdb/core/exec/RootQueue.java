package io.locusdb.core.exec;

import java.util.ArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;

/**
 * Roots of submitted graphs that no worker has started yet, for one node, kept per priority and, within a
 * priority, per task class so that a thief finds a root of a class it may steal even when the best root overall is
 * one it may not. Workers start a new root only when the task pools hold nothing for them (by default), which
 * finishes started graphs first and acts as a light admission control.
 *
 * <p>Within a priority, in the default {@link RootOrder#RESPONSE_RATIO}, the root whose query has the highest
 * <em>response ratio</em> goes first: (time since the query arrived + its work left) / its work left, the work
 * left being its expected work less what its tasks have done (highest response ratio next; see
 * {@link #responseRatio}, which also compresses the range of expected work). A query expected to be short
 * overtakes long ones soon after it arrives, so a 3 ms query does not wait behind a queue of 1 s ones; a long one
 * is never starved, because its ratio grows while it waits; among queries of similar
 * work the oldest goes first, and a query under way goes before a fresh one of the same size. Ordered by root
 * alone, hundreds of concurrent queries would advance in lockstep, a pipeline each in turn, none finishing until
 * nearly all do, and all holding their intermediate state (hash tables, handed groups) at once. Ratios change as
 * time passes, so there is no fixed heap order: a poll looks at every waiting root, which are as many as the
 * queries waiting to start a pipeline (hundreds at most, a few microseconds). {@link RootOrder#OLDEST_QUERY} is
 * first come, first served: the oldest query's roots, in the order they came.
 *
 * <p>Among priorities, the highest non-empty one is picked with probability {@code bias}; otherwise a lower
 * non-empty one at random, so low priorities cannot starve when bias &lt; 1.
 */
final class RootQueue {
    private static final int HEAPS = TaskClasses.MAX_CLASSES + 1;
    /**
     * The work assumed for a query nobody estimated (background jobs, statements seen for the first time with
     * nothing to go by): a middling analytical query.
     */
    static final long DEFAULT_EXPECTED_NANOS = 100_000_000L;
    /** How much of the spread of expected work the order keeps (1: all of it, 0: none, first come first served). */
    static final double WORK_EXPONENT = 0.75;
    /** Estimates below this count as this much, so that waiting microseconds do not swing the order. */
    static final long MIN_EXPECTED_NANOS = 200_000L;
    /**
     * A query that has waited longer than this, or {@link #STARVATION_FACTOR} times the typical wait of the roots
     * this queue starts if that is longer, goes before every query that has not, the longest-waiting first. The
     * compressed ratio alone let a backlog of short queries under 256 clients hold the longest template (TPC-H Q18)
     * back for the whole of a one-minute run; a fixed bound alone, once every query waited past it, made the order
     * first come first served. Relative to the typical wait, the bound caps how long a query waits behind shorter
     * ones while shorter ones still go first.
     */
    static final long STARVATION_NANOS = 10_000_000_000L;
    static final double STARVATION_FACTOR = 4;
    /** The weight of each started root's wait in the typical wait (an exponentially weighted mean). */
    static final double WAIT_SMOOTHING = 0.02;
    /** Above every ratio a query that is not starving can reach (waits of minutes over microsecond estimates). */
    private static final double STARVING = 1e15;

    private final int node;
    private final double bias;
    private final RootOrder order;
    private final LongSupplier clock;
    private final ReentrantLock lock = new ReentrantLock();
    @SuppressWarnings("unchecked")
    private final ArrayList<Task>[][] waiting = new ArrayList[QueryContext.Priority.LEVELS][HEAPS];
    private final int[] sizeByPriority = new int[QueryContext.Priority.LEVELS];
    private long sequence;
    private volatile int size;
    /** The smoothed wait (since their query arrived) of the roots started here; guarded by {@link #lock}. */
    private double typicalWaitNanos;

    /** {@code clock} must read the same time base as {@link QueryContext#startNanos()}. */
    RootQueue(int node, double bias, RootOrder order, LongSupplier clock) {
        this.node = node;
        this.bias = bias;
        this.order = order;
        this.clock = clock;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    private static int heapIndex(Task root) {
        return root.preferredNode() == Task.ANY_NODE ? TaskPool.ANY_NODE_HEAP : root.taskClass().id();
    }

    /** The expected work the order assumes for {@code query}. */
    static long expectedNanos(QueryContext query) {
        long expected = query.expectedWorkNanos();
        return expected == QueryContext.UNKNOWN_WORK ? DEFAULT_EXPECTED_NANOS
                : Math.max(MIN_EXPECTED_NANOS, expected);
    }

    /**
     * (time in the system + work left) / work left at {@code now}: 1 on arrival, growing faster the shorter the
     * query. The work is the expected work compressed towards {@link #DEFAULT_EXPECTED_NANOS} (to the power 3/4,
     * scaled to keep that one): strict slowdown fairness would have a 3 s query wait a hundred times as long as a
     * 30 ms one, which under hundreds of clients starved the long ones for minutes; compressed, it waits about 30
     * times as long (with a square root, 10 times, short queries waited too long behind long ones). The work left is the share
     * of the expected work the query's tasks have not done yet, but never under a quarter: a query under way is
     * favoured over a fresh one (it frees its hash tables sooner), while one that has outrun its estimate cannot
     * claim to be nearly done and shut short queries out. Past {@link #STARVATION_NANOS} of waiting, the time
     * waited alone orders the query, ahead of all that have waited less.
     */
    static double responseRatio(QueryContext query, long now) {
        return responseRatio(query, now, STARVATION_NANOS);
    }

    /** The response ratio, with waits past {@code starvationNanos} ordered by the wait alone, ahead of the rest. */
    static double responseRatio(QueryContext query, long now, long starvationNanos) {
        long expected = expectedNanos(query);
        double compressed = Math.pow(expected, WORK_EXPONENT) * Math.pow(DEFAULT_EXPECTED_NANOS, 1 - WORK_EXPONENT);
        double shareLeft = Math.max(0.25, 1.0 - (double) query.workNanos() / expected);
        double left = compressed * shareLeft;
        long waited = Math.max(0, now - query.startNanos());
        if (waited > starvationNanos) {
            return STARVING + waited;
        }
        return (waited + left) / left;
    }

    void push(Task root, int priority) {
        int p = priority - QueryContext.Priority.LOWEST;
        int heap = heapIndex(root);
        lock.lock();
        try {
            root.queuedNode = node;
            root.sequence = sequence++;
            ArrayList<Task> list = waiting[p][heap];
            if (list == null) {
                list = new ArrayList<>();
                waiting[p][heap] = list;
            }
            list.add(root);
            sizeByPriority[p]++;
            size++;
        } finally {
            lock.unlock();
        }
    }

    /** The best root of the chosen priority whose heap index (as in {@link TaskPool}) is allowed, or null. */
    Task poll(IntPredicate allowed) {
        if (size == 0) {
            return null;
        }
        lock.lock();
        try {
            int highest = -1;
            int candidates = 0;
            for (int p = waiting.length - 1; p >= 0; p--) {
                if (sizeByPriority[p] > 0 && hasAllowed(p, allowed)) {
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
                    if (sizeByPriority[p] > 0 && hasAllowed(p, allowed) && --skip == 0) {
                        pick = p;
                        break;
                    }
                }
            }
            long now = clock.getAsLong();
            Task root = removeBest(pick, allowed, now);
            recordStart(Math.max(0, now - root.run.query.startNanos()));
            sizeByPriority[pick]--;
            size--;
            return root;
        } finally {
            lock.unlock();
        }
    }

    /** Adds a started root's wait to the typical wait; under {@link #lock}. */
    void recordStart(long waitedNanos) {
        typicalWaitNanos += WAIT_SMOOTHING * (waitedNanos - typicalWaitNanos);
    }

    /** How long a query may wait before it goes first: the floor, or a multiple of the typical wait. */
    long starvationNanos() {
        return Math.max(STARVATION_NANOS, (long) (STARVATION_FACTOR * typicalWaitNanos));
    }

    private boolean hasAllowed(int priority, IntPredicate allowed) {
        ArrayList<Task>[] byHeap = waiting[priority];
        for (int h = 0; h < HEAPS; h++) {
            ArrayList<Task> list = byHeap[h];
            if (list != null && !list.isEmpty() && allowed.test(h)) {
                return true;
            }
        }
        return false;
    }

    /** Removes and returns the allowed root of {@code priority} with the highest response ratio at {@code now}. */
    private Task removeBest(int priority, IntPredicate allowed, long now) {
        ArrayList<Task>[] byHeap = waiting[priority];
        long bound = starvationNanos();
        ArrayList<Task> bestList = null;
        int bestIndex = -1;
        Task best = null;
        double bestRatio = 0;
        for (int h = 0; h < HEAPS; h++) {
            ArrayList<Task> list = byHeap[h];
            if (list == null || list.isEmpty() || !allowed.test(h)) {
                continue;
            }
            for (int i = 0, n = list.size(); i < n; i++) {
                Task root = list.get(i);
                double ratio = order == RootOrder.RESPONSE_RATIO ? responseRatio(root.run.query, now, bound) : 1.0;
                if (best == null || ratio > bestRatio || (ratio == bestRatio && olderThan(root, best))) {
                    best = root;
                    bestRatio = ratio;
                    bestList = list;
                    bestIndex = i;
                }
            }
        }
        int last = bestList.size() - 1;
        bestList.set(bestIndex, bestList.get(last));
        bestList.remove(last);
        return best;
    }

    /** Ties go to the older query (ids grow), then to the root queued first. */
    private static boolean olderThan(Task a, Task b) {
        long qa = a.run.query.id();
        long qb = b.run.query.id();
        return qa != qb ? qa < qb : a.sequence < b.sequence;
    }

    boolean hasAny(IntPredicate allowed) {
        if (size == 0) {
            return false;
        }
        lock.lock();
        try {
            for (int p = 0; p < waiting.length; p++) {
                if (sizeByPriority[p] > 0 && hasAllowed(p, allowed)) {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }
}
