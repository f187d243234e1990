package io.locusdb.core.exec;

import io.locusdb.natives.counters.PerfEvent;
import io.locusdb.natives.counters.ThreadCounters;
import io.locusdb.natives.thread.ThreadPinning;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A worker thread: pinned to one CPU (replacement workers to their node's CPUs), serving its node's pools. After a
 * task it runs the first ready successor itself (work-first) and pushes the others (breadth-first). Its counters
 * are written only by itself, with opaque stores, and summed by the watchdog: the hot path shares no cache line.
 */
final class Worker implements Runnable {
    private static final Logger LOG = Logger.getLogger(Worker.class.getName());
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final AtomicBoolean PIN_FAILURE_LOGGED = new AtomicBoolean();

    static final int BUSY_NANOS = 0;
    static final int TASK_START = 1;
    static final int TASKS = 2;
    /** Time spent inside executor waits (blocked, waiting for a graph, inactive) during tasks. */
    static final int INACTIVE_NANOS = 3;
    /** Start of the wait the worker is in now, 0 when it is not waiting. */
    static final int INACTIVE_SINCE = 4;
    private static final long RETIRE_AFTER_NANOS = 2_000_000_000L;

    final Scheduler scheduler;
    final int id;
    final int node;
    /** The CPU this worker owns, or -1 for a replacement worker that floats over its node's CPUs. */
    final int cpu;
    private final WorkerThread thread;
    private final AtomicBoolean parked = new AtomicBoolean();
    /** Whether the current park is on a withdrawn core; written before {@code parked} is raised. */
    private volatile boolean parkedWithdrawn;
    private volatile WorkerState state = WorkerState.ACTIVE;
    final TaskContext context;

    /** [BUSY_NANOS, TASK_START (0 when idle), TASKS, INACTIVE_NANOS, INACTIVE_SINCE]. */
    final long[] totals = new long[5];
    final long[] runByClass = new long[TaskClasses.MAX_CLASSES];
    final long[] stolenByClass = new long[TaskClasses.MAX_CLASSES];
    /** Bytes touched by tasks, by the node of the data they read (their preferred node, else this node). */
    final long[] bytesByNode;
    /** The busy total the watchdog saw at its last elastic step; written by the watchdog only. */
    long lastBusySeen;
    /** Incremented on every entry into a blocking primitive; tells a task whether it blocked. */
    int blockEvents;
    /** The target the running task is accounted to right now (null: none, or suspended while it waits). */
    private UtilizationTarget tracked;
    /** What the running task added to its target's memory throughput; taken back with the thread. */
    private long trackedBytesPerSecond;
    /** LLC-miss counter of this thread, or null where hardware counters are unavailable or turned off. */
    private ThreadCounters counters;

    Worker(Scheduler scheduler, int id, int node, int cpu) {
        this.scheduler = scheduler;
        this.id = id;
        this.node = node;
        this.cpu = cpu;
        this.bytesByNode = new long[scheduler.nodes()];
        this.context = new TaskContext(this);
        this.thread = new WorkerThread(this, scheduler.config().threadNamePrefix() + "-n" + node + "-w" + id
                + (cpu >= 0 ? "-cpu" + cpu : ""));
    }

    /** The worker running on the calling thread, or null. */
    static Worker current() {
        return Thread.currentThread() instanceof WorkerThread wt ? wt.worker : null;
    }

    void start() {
        thread.start();
    }

    Thread thread() {
        return thread;
    }

    WorkerState state() {
        return state;
    }

    void setState(WorkerState state) {
        this.state = state;
    }

    @Override
    public void run() {
        pin();
        openCounters();
        try {
            while (!scheduler.isShutdown()) {
                try {
                    if (!step()) {
                        break;
                    }
                } catch (Throwable t) {
                    // Only scheduler code runs here (task failures are caught in execute): a bug or a throwing
                    // policy. The worker stays, so the active level stays true.
                    LOG.log(Level.SEVERE, "executor worker " + thread.getName() + " hit an error; continuing", t);
                }
            }
        } finally {
            if (counters != null) {
                counters.close();
            }
            scheduler.workerExited(this);
        }
    }

    /** One round of the worker loop; false when the worker retires. */
    private boolean step() {
        if (scheduler.isWithdrawn(this)) {
            return park(false);
        }
        Task task = scheduler.findTask(this);
        if (task == null) {
            return park(true);
        }
        Task next = task;
        while (next != null) {
            next = execute(next);
            // A task that swallowed an interrupt must not leave this worker's parks and waits returning at once.
            Thread.interrupted();
        }
        if (scheduler.claimPark(this)) {
            // Counted as parked and published by claimPark. If that left this node with nobody active while its
            // own queue holds work (pushed while the level was above target, so nobody was woken for it), stay:
            // other nodes' workers may not be allowed to take it.
            if (scheduler.activeOn(node) == 0 && scheduler.hasQueuedWork(node) && parked.compareAndSet(true, false)) {
                scheduler.unpublishParked(this);
                leavePark();
                return true;
            }
            return awaitUnpark(cpu < 0);
        }
        return true;
    }

    /** Marks the flag a waker CASes; called by the scheduler once this worker is counted as parked. */
    void markParked(boolean availableForWork) {
        parkedWithdrawn = !availableForWork;
        parked.set(true);
    }

    private void openCounters() {
        if (!scheduler.config().hardwareCounters()) {
            return;
        }
        try {
            ThreadCounters opened = ThreadCounters.openForCurrentThread(java.util.Set.of(PerfEvent.LLC_READ_MISSES));
            if (opened.isAvailable(PerfEvent.LLC_READ_MISSES)) {
                counters = opened;
            } else {
                opened.close();
            }
        } catch (RuntimeException | LinkageError e) {
            counters = null;
        }
    }

    /** Bytes the cache misses of the task stand for: misses × 64 (one cache line each). */
    private long llcMissBytes(long missesBefore) {
        return counters == null ? 0 : Math.max(0, counters.read(PerfEvent.LLC_READ_MISSES) - missesBefore) * 64;
    }

    private void pin() {
        if (!scheduler.config().pinWorkers()) {
            return;
        }
        try {
            ThreadPinning pinning = new ThreadPinning(scheduler.config().topology());
            if (cpu >= 0) {
                pinning.pinCurrentThreadToCpu(cpu);
            } else {
                pinning.pinCurrentThreadToNode(node);
            }
        } catch (RuntimeException | LinkageError e) {
            if (PIN_FAILURE_LOGGED.compareAndSet(false, true)) {
                LOG.log(Level.WARNING, "cannot pin executor workers, they run unpinned: " + e);
            }
        }
    }

    /**
     * Parks until woken; false when the worker retired instead. Counts itself parked, then raises the flag wakers
     * CAS, then publishes itself, then looks once more for work (or for its core coming back), so a task pushed
     * in between is never missed and a waker never un-counts a worker that was not counted.
     */
    private boolean park(boolean availableForWork) {
        scheduler.publishParked(this, availableForWork);
        state = WorkerState.PARKED;
        boolean stillNeeded = availableForWork ? scheduler.hasWorkFor(this) : !scheduler.isWithdrawn(this);
        if ((stillNeeded || scheduler.isShutdown()) && parked.compareAndSet(true, false)) {
            scheduler.unpublishParked(this);
            leavePark();
            state = WorkerState.ACTIVE;
            return true;
        }
        return awaitUnpark(availableForWork && cpu < 0);
    }

    /**
     * Waits for a waker. A replacement worker (no CPU of its own) that idles for {@link #RETIRE_AFTER_NANOS}
     * while the executor has more workers than CPUs retires, so threads started for a burst of blocking go away.
     */
    private boolean awaitUnpark(boolean mayRetire) {
        state = WorkerState.PARKED;
        long deadline = System.nanoTime() + RETIRE_AFTER_NANOS;
        while (parked.get() && !scheduler.isShutdown()) {
            if (!mayRetire) {
                LockSupport.park(this);
                continue;
            }
            long wait = deadline - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(this, wait);
            } else if (scheduler.mayRetire() && parked.compareAndSet(true, false)) {
                scheduler.unpublishParked(this);
                scheduler.retire(this);
                return false;
            } else {
                deadline = System.nanoTime() + RETIRE_AFTER_NANOS;
            }
        }
        state = WorkerState.ACTIVE;
        return true;
    }

    /** Accounting of a park ended by whoever won the CAS on {@code parked}. */
    private void leavePark() {
        if (parkedWithdrawn) {
            scheduler.leftWithdrawnPark(this);
        }
        scheduler.leave(this, WorkerState.PARKED);
    }

    /** Wakes this worker if it is parked, counting it active again; false if it was not parked. */
    boolean tryUnpark() {
        if (parked.compareAndSet(true, false)) {
            leavePark();
            LockSupport.unpark(thread);
            return true;
        }
        return false;
    }

    void wakeForShutdown() {
        tryUnpark();
        LockSupport.unpark(thread);
    }

    /** Runs one task and releases its successors; returns the successor to run next on this worker, or null. */
    private Task execute(Task task) {
        GraphRun run = task.run;
        int preferred = task.preferredNode();
        boolean stolen = preferred != Task.ANY_NODE && task.queuedNode != node;
        if (!run.skipping()) {
            TaskClass taskClass = task.taskClass();
            context.begin(task, stolen);
            QueryContext previous = QueryContext.swapCurrent(run.query);
            int blocksBefore = blockEvents;
            long missesBefore = counters == null ? 0 : counters.read(PerfEvent.LLC_READ_MISSES);
            UtilizationTarget target = task.node.target;
            if (target != null && preferred == node && !stolen) {
                trackedBytesPerSecond = (long) taskClass.averageThroughput();
                tracked = target;
                target.adjust(1, trackedBytesPerSecond);
            }
            long start = System.nanoTime();
            LONGS.setOpaque(totals, TASK_START, start);
            boolean failed = false;
            try {
                task.node.body.run(context);
            } catch (Throwable t) {
                failed = true;
                run.fail(t);
            } finally {
                QueryContext.swapCurrent(previous);
                pauseTracking();
                tracked = null;
            }
            long nanos = System.nanoTime() - start;
            LONGS.setOpaque(totals, TASK_START, 0L);
            long bytes = context.bytesTouched() + llcMissBytes(missesBefore);
            add(totals, BUSY_NANOS, nanos);
            run.query.addWork(nanos);
            add(totals, TASKS, 1);
            add(runByClass, taskClass.id(), 1);
            if (stolen) {
                add(stolenByClass, taskClass.id(), 1);
            }
            if (bytes > 0) {
                add(bytesByNode, preferred == Task.ANY_NODE ? node : preferred, bytes);
                if (!failed && !stolen && (preferred == Task.ANY_NODE || preferred == node)
                        && blockEvents == blocksBefore) {
                    taskClass.recordThroughput(bytes, nanos);
                }
            }
            boolean reissue = context.end() && !failed;
            if (reissue && !run.skipping()) {
                scheduler.pushReady(task, node);
                return null;
            }
        }
        return release(task);
    }

    private Task release(Task task) {
        Task next = null;
        Task[] successors = task.successors;
        if (successors != null) {
            Task[] ready = null;
            int readyCount = 0;
            for (Task s : successors) {
                if (s.pendingPredecessors.decrementAndGet() == 0) {
                    int preferred = s.preferredNode();
                    if (next == null && (preferred == Task.ANY_NODE || preferred == node)) {
                        s.queuedNode = node;
                        s.key = scheduler.keyOf(s);
                        next = s;
                    } else {
                        if (ready == null) {
                            ready = new Task[successors.length];
                        }
                        ready[readyCount++] = s;
                    }
                }
            }
            if (readyCount > 0) {
                scheduler.pushReadyAll(ready, readyCount, node);
            }
        }
        task.run.taskFinished();
        return next;
    }

    /** The running task stops using its node (it ends, blocks or waits): its target gives back what it took. */
    void pauseTracking() {
        UtilizationTarget target = tracked;
        if (target != null) {
            target.adjust(-1, -trackedBytesPerSecond);
        }
    }

    /** The running task uses its node again after a wait. */
    void resumeTracking() {
        UtilizationTarget target = tracked;
        if (target != null) {
            target.adjust(1, trackedBytesPerSecond);
        }
    }

    /** Busy time of this worker up to {@code now}: task time, the running task included, minus its waits. */
    long busyNanos(long now) {
        long busy = read(totals, BUSY_NANOS) - read(totals, INACTIVE_NANOS);
        long start = read(totals, TASK_START);
        if (start != 0 && now > start) {
            busy += now - start;
        }
        long waitingSince = read(totals, INACTIVE_SINCE);
        if (waitingSince != 0 && now > waitingSince) {
            busy -= now - waitingSince;
        }
        return busy;
    }

    void waitStarted(long now) {
        LONGS.setOpaque(totals, INACTIVE_SINCE, now);
    }

    void waitEnded(long now) {
        long since = read(totals, INACTIVE_SINCE);
        // Add before clearing: a reader between the two sees the wait once at most, never twice.
        add(totals, INACTIVE_NANOS, Math.max(0, now - since));
        LONGS.setOpaque(totals, INACTIVE_SINCE, 0L);
    }

    private static void add(long[] counters, int index, long delta) {
        LONGS.setOpaque(counters, index, (long) LONGS.getOpaque(counters, index) + delta);
    }

    static long read(long[] counters, int index) {
        return (long) LONGS.getOpaque(counters, index);
    }

    @Override
    public String toString() {
        return thread.getName() + "[" + state + "]";
    }

    /** Lets blocking primitives find the worker of the current thread without a thread-local lookup. */
    static final class WorkerThread extends Thread {
        final Worker worker;

        WorkerThread(Worker worker, String name) {
            super(worker, name);
            this.worker = worker;
            setDaemon(true);
        }
    }
}
