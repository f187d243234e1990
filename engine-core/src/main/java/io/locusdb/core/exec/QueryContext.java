package io.locusdb.core.exec;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a query's tasks inherit from the query, wherever they run: cancellation, a memory budget, its start time
 * (one way to order task pools) and its priority. The executor installs it as the current context while a task
 * runs, and graphs a task submits inherit it, so a cancel reaches every task the query spawned.
 */
public final class QueryContext {
    private static final AtomicLong IDS = new AtomicLong();
    private static final ThreadLocal<QueryContext> CURRENT = new ThreadLocal<>();

    private final long id = IDS.incrementAndGet();
    private final String label;
    private final long startNanos;
    private final int priority;
    private final MemoryBudget budget;
    private final AtomicReference<String> cancelReason = new AtomicReference<>();

    private QueryContext(String label, int priority, MemoryBudget budget) {
        if (priority < Priority.LOWEST || priority > Priority.HIGHEST) {
            throw new IllegalArgumentException("priority must be in " + Priority.LOWEST + ".." + Priority.HIGHEST
                    + ", got " + priority);
        }
        this.label = label;
        this.startNanos = System.nanoTime();
        this.priority = priority;
        this.budget = budget;
    }

    public static QueryContext create(String label) {
        return new QueryContext(label, Priority.NORMAL, MemoryBudget.unlimited());
    }

    public static QueryContext create(String label, int priority, long memoryBudgetBytes) {
        return new QueryContext(label, priority, new MemoryBudget(memoryBudgetBytes));
    }

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
