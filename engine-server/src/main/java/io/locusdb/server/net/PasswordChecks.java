package io.locusdb.server.net;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * PBKDF2 is slow on purpose, so logins with a password are rationed per server: at most {@link #permits} checks
 * run at a time (half the CPUs, at least one) and at most {@link #maxPending} logins wait for or run a check; a login
 * beyond that is refused at once (53300). A login whose connection closed, or whose startup deadline passed, while
 * it waited is dropped without hashing anything.
 */
final class PasswordChecks {
    private final int permits;
    private final int maxPending;
    private final Semaphore running;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong hashed = new AtomicLong();

    PasswordChecks(int permits, int maxPending) {
        this.permits = permits;
        this.maxPending = maxPending;
        this.running = new Semaphore(permits);
    }

    static PasswordChecks forThisMachine() {
        int permits = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        return new PasswordChecks(permits, 8 * permits);
    }

    /** Counts a login in; false (nothing counted) when {@link #maxPending} are already pending. */
    boolean tryEnter() {
        while (true) {
            int now = pending.get();
            if (now >= maxPending) {
                return false;
            }
            if (pending.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Counts a login out (after {@link #tryEnter} returned true). */
    void leave() {
        pending.decrementAndGet();
    }

    /** Waits for a permit until {@code deadlineNanos} (System.nanoTime); false when it passed first. */
    boolean acquire(long deadlineNanos) throws InterruptedException {
        return running.tryAcquire(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    void release() {
        running.release();
    }

    /** Counts one PBKDF2 check actually run (for tests and diagnostics). */
    void hashed() {
        hashed.incrementAndGet();
    }

    long hashedCount() {
        return hashed.get();
    }

    int pending() {
        return pending.get();
    }

    int permits() {
        return permits;
    }

    int maxPending() {
        return maxPending;
    }

    /** For tests: the semaphore, to hold every permit. */
    Semaphore semaphore() {
        return running;
    }
}
