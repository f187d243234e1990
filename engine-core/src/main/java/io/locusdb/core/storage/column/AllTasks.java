package io.locusdb.core.storage.column;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Runs tasks in the fork-join pool of the calling worker (the common pool from any other thread) and returns only
 * when every one of them has ended, failed or not. Encoding tasks write into the part's memory, which a failure
 * frees: waiting for all of them first is what makes that safe. Nested calls (a part's columns, a column's sort
 * buckets) share the one pool, so a load never runs more threads than its pool has.
 */
public final class AllTasks {
    private AllTasks() {
    }

    private static final int NOT_STARTED = 0;
    private static final int RUNNING = 1;
    private static final int ENDED = 2;

    /** Runs {@code tasks} (in parallel where workers are free, the first ones first) and rethrows the first failure. */
    public static void run(List<? extends Runnable> tasks) {
        int n = tasks.size();
        if (n == 1) {
            tasks.getFirst().run();
            return;
        }
        Throwable[] failures = new Throwable[n];
        // Each task's own state, not the fork-join status: a task cancelled while it runs (the pool shutting down
        // on an interrupt) reports done at once, yet its body still writes into the part's memory.
        AtomicIntegerArray states = new AtomicIntegerArray(n);
        List<ForkJoinTask<?>> wrapped = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int index = i;
            Runnable task = tasks.get(i);
            wrapped.add(ForkJoinTask.adapt(() -> {
                if (!states.compareAndSet(index, NOT_STARTED, RUNNING)) {
                    return;
                }
                try {
                    task.run();
                } catch (Throwable t) {
                    failures[index] = t;
                } finally {
                    synchronized (states) {
                        states.set(index, ENDED);
                        states.notifyAll();
                    }
                }
            }));
        }
        // Forked in order, so idle workers steal the first (costliest) ones first; this thread runs task 0 and then
        // helps with the rest while it joins.
        for (int i = 1; i < n; i++) {
            wrapped.get(i).fork();
        }
        wrapped.getFirst().quietlyInvoke();
        for (int i = n - 1; i > 0; i--) {
            wrapped.get(i).quietlyJoin();
        }
        awaitBodies(states, failures);
        for (Throwable failure : failures) {
            if (failure instanceof RuntimeException r) {
                throw r;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            if (failure != null) {
                throw new IllegalStateException("an encoding task failed", failure);
            }
        }
    }

    /** Marks tasks that never started as failed and waits for every started one to end. */
    private static void awaitBodies(AtomicIntegerArray states, Throwable[] failures) {
        boolean interrupted = false;
        for (int i = 0; i < states.length(); i++) {
            if (states.compareAndSet(i, NOT_STARTED, ENDED)) {
                failures[i] = new CancellationException("an encoding task was cancelled before it ran");
                continue;
            }
            synchronized (states) {
                while (states.get(i) != ENDED) {
                    try {
                        states.wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** How many workers the calling thread's pool has: the parallelism a split should aim for. */
    public static int parallelism() {
        ForkJoinPool pool = ForkJoinTask.getPool();
        return pool != null ? pool.getParallelism() : ForkJoinPool.getCommonPoolParallelism() + 1;
    }
}
