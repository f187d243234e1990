package io.locusdb.core.exec;

import io.locusdb.core.storage.scan.ScanBytes;

/**
 * What a running task sees of the executor: where it runs, the byte counter its kernels add to (the class's
 * memory-throughput sample), the concurrency hint, its query, and ways to spawn work. One instance per worker,
 * reused for every task it runs: valid only during {@link TaskBody#run}.
 */
public final class TaskContext {
    private final Worker worker;
    private final ScanBytes bytes = new ScanBytes();
    private long otherBytes;
    private Task task;
    private boolean stolen;
    private boolean reissue;

    TaskContext(Worker worker) {
        this.worker = worker;
    }

    void begin(Task task, boolean stolen) {
        this.task = task;
        this.stolen = stolen;
        this.reissue = false;
        this.otherBytes = 0;
        bytes.reset();
    }

    /** Ends the task; returns whether it asked to run again. */
    boolean end() {
        boolean again = reissue;
        task = null;
        reissue = false;
        return again;
    }

    long bytesTouched() {
        return bytes.total() + otherBytes;
    }

    /** Pass to the storage kernels: what they touch becomes the task's memory traffic. */
    public ScanBytes bytes() {
        return bytes;
    }

    /** Memory traffic not counted by a storage kernel (e.g. hash tables, vectors of the calibration run). */
    public void addBytes(long count) {
        otherBytes += count;
    }

    /** The node of the worker running the task. */
    public int node() {
        return worker.node;
    }

    public int workerId() {
        return worker.id;
    }

    /** The CPU the worker owns, or -1 for a replacement worker. */
    public int workerCpu() {
        return worker.cpu;
    }

    /** Whether the task was taken from another node's pool. */
    public boolean stolen() {
        return stolen;
    }

    public TaskClass taskClass() {
        return task.taskClass();
    }

    /** The node of the data the task reads, or {@link TaskGraph#ANY_NODE}. */
    public int preferredNode() {
        return task.preferredNode();
    }

    public QueryContext query() {
        return task.run.query;
    }

    public void checkCancelled() {
        task.run.query.checkCancelled();
    }

    /** How many tasks a partitionable operation should create right now. */
    public int concurrencyHint() {
        return worker.scheduler.executor().concurrencyHint();
    }

    /** Contexts not in use right now: {@code max(0, target - active)}. */
    public int freeContexts() {
        return Math.max(0, worker.scheduler.target() - worker.scheduler.active());
    }

    public NumaExecutor executor() {
        return worker.scheduler.executor();
    }

    /** Submits another graph on behalf of the same query (the task may wait for it with its handle). */
    public GraphHandle submit(TaskGraph graph) {
        return executor().submit(graph, task.run.query);
    }

    /**
     * Adds a task to the running graph: the graph completes only after it. This is how a long task splits off
     * work when the hint rises (lazy task creation).
     */
    public void fork(TaskClass taskClass, int preferredNode, TaskBody body) {
        fork(taskClass, preferredNode, null, body);
    }

    /** {@link #fork(TaskClass, int, TaskBody)} for a task accounted to a table part (see {@link UtilizationTarget}). */
    public void fork(TaskClass taskClass, int preferredNode, UtilizationTarget target, TaskBody body) {
        Task forked = task.run.fork(task, taskClass, preferredNode, target, body);
        worker.scheduler.pushReady(forked, worker.node);
    }

    /** Runs this task again later (it goes back to its pool) instead of completing it. */
    public void reissue() {
        reissue = true;
    }
}
