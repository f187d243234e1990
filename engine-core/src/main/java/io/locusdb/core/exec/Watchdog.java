package io.locusdb.core.exec;

import io.locusdb.core.exec.elastic.CoreAllocation;
import io.locusdb.core.exec.elastic.ElasticCoreController;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The executor's watchdog: every period (20 ms by default) it repairs the active concurrency level (wakes parked
 * workers or starts new ones while work waits and too few workers are active), samples the concurrency hint on its
 * own period (50 ms), runs one elastic-allocation step when that mode is on, and aggregates the workers' counters
 * into {@link ExecutorStats}. Its logic is {@link #tick(long)}; the thread only calls it, so tests can tick it by
 * hand with a clock of their own.
 */
public final class Watchdog {
    private static final Logger LOG = Logger.getLogger(Watchdog.class.getName());

    private final Scheduler scheduler;
    private final ConcurrencyHint hint;
    private final ElasticCoreController elastic;
    private final long hintPeriodNanos;
    private final long elasticPeriodNanos;
    private long lastHintNanos;
    private long lastElasticNanos;
    private long[] lastBytesByNode;
    private volatile ExecutorStats stats;
    private volatile ElasticCoreController.Step lastStep;
    private volatile long ticks;
    private Thread thread;

    Watchdog(Scheduler scheduler, ConcurrencyHint hint, ElasticCoreController elastic) {
        this.scheduler = scheduler;
        this.hint = hint;
        this.elastic = elastic;
        this.hintPeriodNanos = scheduler.config().hintPeriod().toNanos();
        this.elasticPeriodNanos = elastic == null ? Long.MAX_VALUE : elastic.config().period().toNanos();
        long now = System.nanoTime();
        this.lastHintNanos = now;
        this.lastElasticNanos = now;
        this.lastBytesByNode = new long[scheduler.nodes()];
        this.stats = aggregate(now);
    }

    void start() {
        long period = scheduler.config().watchdogPeriod().toNanos();
        thread = Thread.ofPlatform().daemon().name(scheduler.config().threadNamePrefix() + "-watchdog").start(() -> {
            long next = System.nanoTime() + period;
            while (!scheduler.isShutdown()) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                    continue;
                }
                try {
                    tick(System.nanoTime());
                } catch (RuntimeException e) {
                    LOG.log(Level.SEVERE, "watchdog tick failed", e);
                }
                next += period;
                if (next < System.nanoTime()) {
                    next = System.nanoTime() + period;
                }
            }
        });
    }

    void stop() throws InterruptedException {
        if (thread != null) {
            LockSupport.unpark(thread);
            thread.join(5_000);
        }
    }

    /** One watchdog round at time {@code nowNanos} (same time base as {@link System#nanoTime()}). */
    public synchronized void tick(long nowNanos) {
        repairConcurrency();
        if (nowNanos - lastHintNanos >= hintPeriodNanos) {
            sampleHint();
            lastHintNanos = nowNanos;
        }
        if (elastic != null && nowNanos - lastElasticNanos >= elasticPeriodNanos) {
            elasticStep(nowNanos);
        }
        stats = aggregate(nowNanos);
        ticks++;
    }

    /** Wakes or starts workers while the active level is below target and work waits; returns how many. */
    public int repairConcurrency() {
        return scheduler.repair();
    }

    /** One hint observation: the free contexts right now. */
    public void sampleHint() {
        hint.sample(Math.max(0, scheduler.target() - scheduler.active()));
    }

    /**
     * One elastic step: the load of the allocated cores since the last step is the busy time of the workers on
     * them (task time, tasks still running counted up to now, time in executor waits left out) over (elapsed time
     * × allocated cores), summed from per-worker changes since the previous step.
     */
    public synchronized ElasticCoreController.Step elasticStep(long nowNanos) {
        if (elastic == null) {
            throw new IllegalStateException("elastic core allocation is off");
        }
        long busy = 0;
        long[] bytes = new long[scheduler.nodes()];
        CoreAllocation cores = elastic.allocation();
        for (Worker w : scheduler.workers()) {
            // Per-worker changes since the last step, so a worker joining or leaving the allocated set (its core
            // withdrawn or given back, or a retired replacement) does not bring its whole history with it.
            long total = w.busyNanos(nowNanos);
            long delta = total - w.lastBusySeen;
            w.lastBusySeen = total;
            // Workers parked on withdrawn cores do not count; their time in executor waits never does.
            if (w.cpu < 0 || cores.isAllocated(w.cpu)) {
                busy += Math.max(0, delta);
            }
            for (int n = 0; n < bytes.length; n++) {
                bytes[n] += Worker.read(w.bytesByNode, n);
            }
        }
        long elapsed = Math.max(1, nowNanos - lastElasticNanos);
        CoreAllocation allocation = elastic.allocation();
        double load = Math.min(1.0, (double) busy / ((double) elapsed * allocation.allocatedCount()));
        long[] activity = new long[bytes.length];
        for (int n = 0; n < bytes.length; n++) {
            activity[n] = bytes[n] - lastBytesByNode[n];
        }
        lastBytesByNode = bytes;
        lastElasticNanos = nowNanos;
        ElasticCoreController.Step step = elastic.step(load, activity);
        scheduler.setTarget(allocation.allocatedCount());
        if (step.addedCpu() >= 0) {
            scheduler.coreAllocated(step.addedCpu());
        }
        if (step.withdrawnCpu() >= 0) {
            scheduler.coreWithdrawn(step.withdrawnCpu());
        }
        lastStep = step;
        return step;
    }

    public ElasticCoreController.Step lastElasticStep() {
        return lastStep;
    }

    public long ticks() {
        return ticks;
    }

    public ExecutorStats stats() {
        return stats;
    }

    ExecutorStats aggregate(long nowNanos) {
        int nodes = scheduler.nodes();
        List<TaskClass> classes = scheduler.classes().all();
        int classCount = classes.size();
        long[][] run = new long[nodes][classCount];
        long[][] stolen = new long[nodes][classCount];
        long[] bytes = new long[nodes];
        List<Worker> workers = scheduler.workers();
        for (Worker w : workers) {
            for (int c = 0; c < classCount; c++) {
                run[w.node][c] += Worker.read(w.runByClass, c);
                stolen[w.node][c] += Worker.read(w.stolenByClass, c);
            }
            for (int n = 0; n < nodes; n++) {
                bytes[n] += Worker.read(w.bytesByNode, n);
            }
        }
        int[] pools = new int[nodes];
        int[] roots = new int[nodes];
        for (int n = 0; n < nodes; n++) {
            pools[n] = scheduler.poolLength(n);
            roots[n] = scheduler.rootQueueLength(n);
        }
        double[] averages = new double[classCount];
        for (int c = 0; c < classCount; c++) {
            averages[c] = classes.get(c).averageThroughput();
        }
        CoreAllocation allocation = scheduler.allocation();
        ElasticCoreController.Step step = lastStep;
        return new ExecutorStats(nowNanos, workers.size(), scheduler.active(), scheduler.target(),
                scheduler.parked(), scheduler.blocked(), scheduler.waitingForGraph(), scheduler.declaredInactive(),
                hint.value(), pools, roots, classes.stream().map(TaskClass::name).toList(), run, stolen, averages,
                bytes, allocation == null ? null : allocation.allocatedPerNode(),
                step == null ? (elastic == null ? "off" : "STABLE") : step.state().name(),
                step == null ? 0 : step.load());
    }
}
