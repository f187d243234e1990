package io.locusdb.core.exec;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * What a query's tasks inherit from the query, wherever they run: cancellation, a memory budget, its start time
 * (one way to order task pools), its priority and how much work it is expected to be (which orders the starts of
 * its graphs against other queries'). The executor installs it as the current context while a task runs, and
 * graphs a task submits inherit it, so a cancel reaches every task the query spawned. Workers add the time each
 * of its tasks ran, so that the query's real work can teach the next estimate.
 */
public final class QueryContext {
    private static final AtomicLong IDS = new AtomicLong();
    private static final ThreadLocal<QueryContext> CURRENT = new ThreadLocal<>();

    private final long id = IDS.incrementAndGet();
    private final String label;
    private final long startNanos;
    private final int priority;
    private final MemoryBudget budget;
    private final long expectedWorkNanos;
    private final LongAdder workNanos = new LongAdder();
    private final AtomicReference<String> cancelReason = new AtomicReference<>();
    private final Map<Class<?>, Object> attachments = new ConcurrentHashMap<>();

    private QueryContext(String label, int priority, MemoryBudget budget, long expectedWorkNanos) {
        if (priority < Priority.LOWEST || priority > Priority.HIGHEST) {
            throw new IllegalArgumentException("priority must be in " + Priority.LOWEST + ".." + Priority.HIGHEST
                    + ", got " + priority);
        }
        this.label = label;
        this.startNanos = System.nanoTime();
        this.priority = priority;
        this.budget = budget;
        this.expectedWorkNanos = Math.max(0, expectedWorkNanos);
    }

    public static QueryContext create(String label) {
        return new QueryContext(label, Priority.NORMAL, MemoryBudget.unlimited(), UNKNOWN_WORK);
    }

    public static QueryContext create(String label, int priority, long memoryBudgetBytes) {
        return new QueryContext(label, priority, new MemoryBudget(memoryBudgetBytes), UNKNOWN_WORK);
    }

    /**
     * A query expected to take {@code expectedWorkNanos} of task time in all ({@link #UNKNOWN_WORK} when nothing
     * is known).
     */
    public static QueryContext create(String label, int priority, long memoryBudgetBytes, long expectedWorkNanos) {
        return new QueryContext(label, priority, new MemoryBudget(memoryBudgetBytes), expectedWorkNanos);
    }

    /** Expected work when there is no estimate. */
    public static final long UNKNOWN_WORK = 0;

    /** The context of the task running on this thread, or null outside tasks. */
    public static QueryContext current() {
        return CURRENT.get();
    }

    static QueryContext swapCurrent(QueryContext context) {
        QueryContext previous = CURRENT.get();
        CURRENT.set(context);
        return previous;
    }

    public long id() {
        return id;
    }

    /**
     * The query's one instance of {@code type}, made by {@code create} on first use: state the layers above the
     * executor keep for one execution of a query (results computed once and read by several of its plans), dropped
     * with the context.
     */
    public <T> T attachment(Class<T> type, Supplier<T> create) {
        return type.cast(attachments.computeIfAbsent(type, k -> create.get()));
    }

    public String label() {
        return label;
    }

    public long startNanos() {
        return startNanos;
    }

    public int priority() {
        return priority;
    }

    public MemoryBudget memory() {
        return budget;
    }

    /** The task time the query was expected to take in all, or {@link #UNKNOWN_WORK}. */
    public long expectedWorkNanos() {
        return expectedWorkNanos;
    }

    /** The task time the query's tasks have taken so far, summed over workers. */
    public long workNanos() {
        return workNanos.sum();
    }

    void addWork(long nanos) {
        workNanos.add(nanos);
    }

    /** Asks every task of the query to stop; tasks not yet started are skipped. The first reason wins. */
    public void cancel(String reason) {
        cancelReason.compareAndSet(null, reason == null ? "cancelled" : reason);
    }

    public boolean isCancelled() {
        return cancelReason.get() != null;
    }

    /** For long tasks to call between batches. */
    public void checkCancelled() {
        String reason = cancelReason.get();
        if (reason != null) {
            throw new QueryCancelledException(this, reason);
        }
    }

    @Override
    public String toString() {
        return "query " + id + (label == null ? "" : " (" + label + ")");
    }

    /** Root priorities: a higher number is picked first when workers start new graphs. */
    public static final class Priority {
        public static final int LOWEST = 0;
        public static final int NORMAL = 5;
        public static final int HIGHEST = 9;
        public static final int LEVELS = HIGHEST - LOWEST + 1;

        private Priority() {
        }
    }
}
