package io.locusdb.core.exec;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A partitionable operation over a row range, sized by the concurrency hint (task-scheduling paper, §6): it creates
 * as many tasks as the hint says contexts are free, at most one per {@code minRowsPerTask} rows, so a loaded
 * system is not flooded with tiny tasks. While running, each task checks the hint every {@code checkEveryRows} rows
 * and, when the hint has risen and a context is free right now, splits off the upper half of what it has left
 * (lazy task creation). Requiring both keeps a task from splitting on a stale hint while everyone is busy.
 */
public final class PartitionedJob {
    private final GraphHandle handle;
    private final AtomicInteger tasks;
    private final int initialTasks;

    private PartitionedJob(GraphHandle handle, AtomicInteger tasks, int initialTasks) {
        this.handle = handle;
        this.tasks = tasks;
        this.initialTasks = initialTasks;
    }

    /** The code that processes {@code [from, to)}; called once per chunk of at most {@code checkEveryRows}. */
    @FunctionalInterface
    public interface RangeBody {
        void process(TaskContext context, long from, long to) throws Exception;
    }

    /**
     * @param useHint     false sizes the job at the full context count regardless of load (the baseline the
     *                    paper compares with)
     * @param split       whether running tasks split when the hint rises
     */
    public record Options(long minRowsPerTask, long checkEveryRows, boolean useHint, boolean split) {
        public Options {
            if (minRowsPerTask < 1 || checkEveryRows < 1) {
                throw new IllegalArgumentException("rows per task and per check must be positive");
            }
        }

        public static Options withHint(long minRowsPerTask) {
            return new Options(minRowsPerTask, Math.max(minRowsPerTask, 4096), true, true);
        }

        public static Options withoutHint(long minRowsPerTask) {
            return new Options(minRowsPerTask, Math.max(minRowsPerTask, 4096), false, false);
        }
    }

    public static PartitionedJob submit(NumaExecutor executor, QueryContext query, TaskClass taskClass,
                                        int preferredNode, long from, long to, Options options, RangeBody body) {
        if (to < from) {
            throw new IllegalArgumentException("reversed range [" + from + ", " + to + ")");
        }
        long rows = to - from;
        int wanted = options.useHint() ? executor.concurrencyHint() : executor.config().contexts();
        long byRows = Math.max(1, (rows + options.minRowsPerTask() - 1) / options.minRowsPerTask());
        int parts = (int) Math.max(1, Math.min(wanted, byRows));
        AtomicInteger tasks = new AtomicInteger(parts);
        TaskGraph graph = new TaskGraph(taskClass.name() + "-job");
        if (parts == 1) {
            graph.root(taskClass, preferredNode, ctx -> runRange(ctx, from, to, options, body, tasks));
        } else {
            // A no-op fork node: the worker that starts it runs the first part itself and queues the rest.
            TaskGraph.Node fork = graph.root(taskClass, preferredNode, ctx -> { });
            tasks.incrementAndGet();
            for (int p = 0; p < parts; p++) {
                long lo = from + rows * p / parts;
                long hi = from + rows * (p + 1) / parts;
                graph.node(taskClass, preferredNode, ctx -> runRange(ctx, lo, hi, options, body, tasks), fork);
            }
        }
        return new PartitionedJob(executor.submit(graph, query), tasks, tasks.get());
    }

    private static void runRange(TaskContext ctx, long from, long to, Options options, RangeBody body,
                                 AtomicInteger tasks) throws Exception {
        long end = to;
        long at = from;
        while (at < end) {
            long chunkEnd = Math.min(end, at + options.checkEveryRows());
            body.process(ctx, at, chunkEnd);
            at = chunkEnd;
            long left = end - at;
            if (options.split() && left >= 2 * options.minRowsPerTask() && ctx.concurrencyHint() >= 2
                    && ctx.freeContexts() > 0) {
                long mid = at + left / 2;
                long splitEnd = end;
                tasks.incrementAndGet();
                ctx.fork(ctx.taskClass(), ctx.preferredNode(),
                        c -> runRange(c, mid, splitEnd, options, body, tasks));
                end = mid;
            }
            ctx.checkCancelled();
        }
    }

    public GraphHandle handle() {
        return handle;
    }

    public void await() {
        handle.await();
    }

    /** Tasks created so far: the initial ones (with the fork node) plus those split off while running. */
    public int tasksCreated() {
        return tasks.get();
    }

    public int initialTasks() {
        return initialTasks;
    }
}
