package io.locusdb.core.exec;

import java.util.concurrent.CancellationException;

/**
 * The way task code waits. Every wait inside a task goes through here so that the executor knows the worker is
 * not using its core: an ordinary block only lowers the active level (short blocks are common and the watchdog
 * repairs long ones), while waiting for another graph or a declared inactive region brings up a replacement worker
 * at once, as the task-scheduling paper prescribes. Outside worker threads these calls simply run the wait.
 */
public final class Blocking {
    private final Scheduler scheduler;

    Blocking(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** A wait that may throw {@link InterruptedException}. */
    @FunctionalInterface
    public interface Wait<T> {
        T await() throws InterruptedException;
    }

    /** An ordinary block (lock, latch, condition). */
    public <T> T block(Wait<T> wait) throws InterruptedException {
        return enter(WorkerState.BLOCKED, false, wait);
    }

    /** Waiting for another task graph. */
    public <T> T waitForGraph(Wait<T> wait) {
        try {
            return enter(WorkerState.WAITING_FOR_GRAPH, true, wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for a task graph");
        }
    }

    /** Runs {@code region} declared inactive (e.g. I/O): the executor starts another worker meanwhile. */
    public <T> T inactive(Wait<T> region) throws InterruptedException {
        return enter(WorkerState.INACTIVE, true, region);
    }

    private <T> T enter(WorkerState state, boolean replaceNow, Wait<T> wait) throws InterruptedException {
        Worker worker = Worker.current();
        // Outside this executor's workers, or nested inside another wait (already counted): just wait.
        if (worker == null || worker.scheduler != scheduler || worker.state() != WorkerState.ACTIVE) {
            return wait.await();
        }
        worker.blockEvents++;
        worker.pauseTracking();
        worker.setState(state);
        worker.waitStarted(System.nanoTime());
        scheduler.enter(worker, state);
        try {
            if (replaceNow) {
                scheduler.replaceNow(worker.node);
            }
            return wait.await();
        } finally {
            scheduler.leave(worker, state);
            worker.waitEnded(System.nanoTime());
            worker.setState(WorkerState.ACTIVE);
            worker.resumeTracking();
        }
    }
}
