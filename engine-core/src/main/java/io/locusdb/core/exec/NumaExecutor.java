package io.locusdb.core.exec;

import io.locusdb.core.exec.elastic.CoreAllocation;
import io.locusdb.core.exec.elastic.ElasticCoreController;
import io.locusdb.natives.topology.Topology;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * LocusDB's task scheduler: task graphs over one task pool per NUMA node, one pinned worker per allowed CPU,
 * adaptive inter-node stealing, a flexible concurrency level kept at the number of hardware contexts by a
 * watchdog, a concurrency hint for partitionable operations, and optional elastic core allocation. See
 * {@link ExecutorConfig} for the knobs and the papers they come from.
 */
public final class NumaExecutor implements AutoCloseable {
    private final ExecutorConfig config;
    private final TaskClasses classes;
    private final Scheduler scheduler;
    private final Blocking blocking;
    private final ConcurrencyHint hint;
    private final Watchdog watchdog;
    private final ElasticCoreController elastic;
    private final Set<GraphRun> outstanding = ConcurrentHashMap.newKeySet();
    private volatile boolean accepting = true;

    private NumaExecutor(ExecutorConfig config) {
        this.config = config;
        this.classes = new TaskClasses(config.classAverageWeight());
        Topology topology = config.topology();
        CoreAllocation allocation = null;
        if (config.elastic() != null) {
            allocation = new CoreAllocation(topology);
            this.elastic = new ElasticCoreController(allocation, config.elastic());
            elastic.allocateInitial(new long[topology.nodeCount()]);
        } else {
            this.elastic = null;
        }
        this.scheduler = new Scheduler(this, config, classes, allocation);
        this.blocking = new Blocking(scheduler);
        this.hint = new ConcurrencyHint(config.contexts(), config.hintAlpha(), config.hintResetFraction());
        this.watchdog = new Watchdog(scheduler, hint, elastic);
    }

    /** Starts the workers (one per CPU of the topology) and, unless turned off, the watchdog thread. */
    public static NumaExecutor start(ExecutorConfig config) {
        NumaExecutor executor = new NumaExecutor(config);
        Topology topology = config.topology();
        for (int n = 0; n < topology.nodeCount(); n++) {
            for (int cpu : topology.node(n).cpus().toArray()) {
                executor.scheduler.spawnWorker(n, cpu);
            }
        }
        if (config.watchdogThread()) {
            executor.watchdog.start();
        }
        return executor;
    }

    public ExecutorConfig config() {
        return config;
    }

    public Topology topology() {
        return config.topology();
    }

    /** The task class with this name (created on first use). */
    public TaskClass taskClass(String name) {
        return classes.of(name);
    }

    public TaskClasses taskClasses() {
        return classes;
    }

    /** Submits a graph for the query of the calling task, or for a new query outside tasks. */
    public GraphHandle submit(TaskGraph graph) {
        QueryContext current = QueryContext.current();
        return submit(graph, current != null ? current : QueryContext.create(graph.name()));
    }

    public GraphHandle submit(TaskGraph graph, QueryContext query) {
        if (!accepting) {
            throw new RejectedExecutionException("the executor is shut down; " + graph + " was not started");
        }
        graph.markSubmitted();
        GraphRun run = new GraphRun(this, graph, query, query.priority());
        List<TaskGraph.Node> nodes = graph.nodes();
        int topologyNodes = config.topology().nodeCount();
        Task[] tasks = new Task[nodes.size()];
        for (int i = 0; i < tasks.length; i++) {
            TaskGraph.Node node = nodes.get(i);
            checkTask(node.taskClass, node.preferredNode, node);
            tasks[i] = new Task(node, run);
        }
        for (int i = 0; i < tasks.length; i++) {
            List<TaskGraph.Node> successors = nodes.get(i).successors;
            if (!successors.isEmpty()) {
                Task[] next = new Task[successors.size()];
                for (int s = 0; s < next.length; s++) {
                    next[s] = tasks[successors.get(s).index];
                }
                tasks[i].successors = next;
            }
        }
        outstanding.add(run);
        if (!accepting) {
            // Shut down between the first check and now: its drain may already have passed this graph.
            outstanding.remove(run);
            throw new RejectedExecutionException("the executor is shut down; " + graph + " was not started");
        }
        scheduler.pushRoot(tasks[0], query.priority());
        return run;
    }

    /** Rejects a task of another executor's class, or for a node the topology does not have. */
    void checkTask(TaskClass taskClass, int preferredNode, Object what) {
        // 'what' is only turned into text on failure: this runs for every task submitted.
        int nodes = config.topology().nodeCount();
        if (preferredNode >= nodes) {
            throw new IllegalArgumentException("task " + what + " prefers node " + preferredNode
                    + " but the topology has " + nodes + " nodes");
        }
        if (!classes.contains(taskClass)) {
            throw new IllegalArgumentException("task " + what + " has task class '" + taskClass.name()
                    + "' of another executor; get classes from this executor's taskClass(name)");
        }
    }

    /** Submits a single task as its own graph. */
    public GraphHandle submit(QueryContext query, TaskClass taskClass, int preferredNode, TaskBody body) {
        return submit(TaskGraph.single(taskClass.name(), taskClass, preferredNode, body), query);
    }

    void graphFinished(GraphRun run) {
        outstanding.remove(run);
    }

    /**
     * How many tasks a partitionable operation should create now: the smoothed free contexts (the task-scheduling
     * paper's hint), and never fewer than an equal share of the contexts among the queries that have work in the
     * executor. The hint alone throttles a query that runs by itself: its own tasks keep the contexts busy, the free
     * contexts the watchdog samples settle near one, and every later operation of the query would then be split
     * into a single task (two workers ran one task at a time, query after query). Under many queries the share is
     * below one and the hint decides, as in the paper.
     */
    public int concurrencyHint() {
        int contexts = targetConcurrency();
        int queries = queriesWithWork(contexts + 1);
        int share = queries <= 1 ? contexts : contexts / queries;
        return Math.max(hint.tasks(), Math.max(1, share));
    }

    /** The distinct queries with a graph in the executor, counted up to {@code limit}. */
    private int queriesWithWork(int limit) {
        QueryContext[] seen = new QueryContext[limit];
        int count = 0;
        for (GraphRun run : outstanding) {
            boolean known = false;
            for (int i = 0; i < count && !known; i++) {
                known = seen[i] == run.query;
            }
            if (!known) {
                seen[count++] = run.query;
                if (count == limit) {
                    break;
                }
            }
        }
        return count;
    }

    public double concurrencyHintValue() {
        return hint.value();
    }

    public Blocking blocking() {
        return blocking;
    }

    public Watchdog watchdog() {
        return watchdog;
    }

    /** The latest aggregate, at most one watchdog period old. */
    public ExecutorStats stats() {
        return watchdog.stats();
    }

    /** Aggregates now (tests, the calibration report). */
    public ExecutorStats freshStats() {
        return watchdog.aggregate(System.nanoTime());
    }

    /** Workers minus the inactive ones (blocked, waiting for a graph, declared inactive, parked). */
    public int activeConcurrency() {
        return scheduler.active();
    }

    /** The level the watchdog steers to: the contexts, or the allocated cores in elastic mode. */
    public int targetConcurrency() {
        return scheduler.target();
    }

    public int workerCount() {
        return scheduler.workers().size();
    }

    /** The elastic allocation, or null when that mode is off. */
    public CoreAllocation coreAllocation() {
        return scheduler.allocation();
    }

    /**
     * Task time of all workers so far, tasks still running counted up to now, time in executor waits left out: the
     * work the executor has done, as opposed to how long queries took (a query may wait for its slowest task while
     * other workers idle or serve other queries).
     */
    public long busyNanos() {
        long now = System.nanoTime();
        long sum = 0;
        for (Worker w : scheduler.workers()) {
            sum += w.busyNanos(now);
        }
        return sum;
    }

    public int outstandingGraphs() {
        return outstanding.size();
    }

    /**
     * Stops taking graphs, lets the submitted ones finish for up to {@code grace}, cancels what is left, and stops
     * the workers. Returns whether everything finished within the grace period.
     */
    public boolean shutdown(Duration grace) {
        accepting = false;
        long deadline = System.nanoTime() + grace.toNanos();
        boolean clean = awaitOutstanding(deadline);
        if (!clean) {
            for (GraphRun run : outstanding) {
                run.cancel("executor shut down");
            }
            awaitOutstanding(System.nanoTime() + Math.max(grace.toNanos(), TimeUnit.MILLISECONDS.toNanos(100)));
        }
        scheduler.shutdown();
        // Whatever is still unfinished (a task that ignores cancellation) will never run to its end now: its
        // waiters get an error instead of waiting forever.
        for (GraphRun run : List.copyOf(outstanding)) {
            run.abort(new RejectedExecutionException("the executor shut down before " + run.graph
                    + " finished"));
        }
        try {
            watchdog.stop();
            for (Worker w : scheduler.workers()) {
                w.thread().join(1_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return clean;
    }

    private boolean awaitOutstanding(long deadlineNanos) {
        while (!outstanding.isEmpty()) {
            if (System.nanoTime() > deadlineNanos) {
                return false;
            }
            if (!config.watchdogThread()) {
                watchdog.tick(System.nanoTime());
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        shutdown(Duration.ofSeconds(30));
    }
}
