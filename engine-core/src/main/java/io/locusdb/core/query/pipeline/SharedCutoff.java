package io.locusdb.core.query.pipeline;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The tightest cut-off any task of a top-N has found, on an integer first sort key: a task's cut-off row is worse
 * than LIMIT rows of that task alone, so a row whose first key sorts after it cannot be among the first rows of all,
 * whichever task reads it. Every task drops rows by the best of all tasks' cut-offs, so two tasks, each seeing half
 * the rows, keep about as few as one task seeing all of them.
 */
final class SharedCutoff {
    private final boolean descending;
    private final boolean nullsFirst;
    private final AtomicLong value = new AtomicLong();
    private volatile boolean set;

    SharedCutoff(boolean descending, boolean nullsFirst) {
        this.descending = descending;
        this.nullsFirst = nullsFirst;
    }

    /** Offers a task's cut-off value (its LIMIT-th row's first key, not NULL); keeps the tighter one. */
    void offer(long candidate) {
        long current = value.get();
        while (!set || tighter(candidate, current)) {
            if (!set) {
                synchronized (this) {
                    if (!set) {
                        value.set(candidate);
                        set = true;
                        return;
                    }
                }
                current = value.get();
                continue;
            }
            if (value.compareAndSet(current, candidate)) {
                return;
            }
            current = value.get();
        }
    }

    /** Whether some task has a cut-off yet. */
    boolean isSet() {
        return set;
    }

    /** The best cut-off value; meaningful once {@link #isSet}. */
    long value() {
        return value.get();
    }

    /** Whether {@code a} cuts off more rows than {@code b}. */
    boolean tighter(long a, long b) {
        return descending ? a > b : a < b;
    }

    /** Whether a row whose first key is {@code key} (or NULL) may still be among the first rows. */
    boolean mayPass(boolean isNull, long key) {
        if (isNull) {
            return nullsFirst;
        }
        long cut = value.get();
        return descending ? key >= cut : key <= cut;
    }
}
