package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.vector.Chunk;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * What EXPLAIN ANALYZE measures of the pipelines a query ran, in the order they started: for each, the rows and
 * batches that reached every operator and the sink, the time the tasks spent in each (an operator's own time: what
 * its steps took less what the steps after it took), the rows its source produced on each node, and the
 * pipeline's wall time. Counting wraps each task's steps, so a query that is not analyzed pays nothing.
 */
public final class PipelineProfile {
    private final List<Run> runs = new CopyOnWriteArrayList<>();

    /** A pipeline about to run: {@code source}, then {@code steps} (its operators, then where its rows end). */
    Run start(String source, List<String> steps) {
        Run run = new Run(runs.size() + 1, source, steps);
        runs.add(run);
        return run;
    }

    /** The step a counted step counts ({@code step} itself if it is not one): who looks for a kind of step. */
    static TaskStep unwrap(TaskStep step) {
        return step instanceof Counted counted ? counted.inner : step;
    }

    /** A step whose rows, batches and time are added to its run's counts. */
    private record Counted(Run run, int index, TaskStep inner) implements TaskStep {
        @Override
        public void push(TaskContext ctx, Chunk chunk) {
            run.rows[index].add(chunk.rows());
            run.batches[index].increment();
            if (index == 0) {
                run.sourceRowsByNode.computeIfAbsent(ctx.node(), n -> new LongAdder()).add(chunk.rows());
            }
            long start = System.nanoTime();
            inner.push(ctx, chunk);
            run.nanos[index].add(System.nanoTime() - start);
        }

        @Override
        public void finish(TaskContext ctx) {
            long start = System.nanoTime();
            inner.finish(ctx);
            run.nanos[index].add(System.nanoTime() - start);
        }
    }

    /** One line per task class the query ran: how many tasks, on which nodes, how many stolen, their rows. */
    public static List<String> taskLines(List<TaskRecord> tasks) {
        Map<String, List<TaskRecord>> byClass = new TreeMap<>();
        for (TaskRecord task : tasks) {
            byClass.computeIfAbsent(task.taskClass(), c -> new ArrayList<>()).add(task);
        }
        List<String> lines = new ArrayList<>();
        byClass.forEach((taskClass, records) -> {
            Map<Integer, Integer> byNode = new TreeMap<>();
            long stolen = 0;
            long rows = 0;
            boolean counted = false;
            for (TaskRecord r : records) {
                byNode.merge(r.ranOnNode(), 1, Integer::sum);
                stolen += r.stolen() ? 1 : 0;
                if (r.rows() >= 0) {
                    rows += r.rows();
                    counted = true;
                }
            }
            List<String> nodes = new ArrayList<>();
            byNode.forEach((node, count) -> nodes.add((node < 0 ? "no node" : "node " + node) + ": " + count));
            lines.add(String.format(Locale.ROOT, "  tasks %s: %d (%s), %d stolen%s", taskClass, records.size(),
                    String.join(", ", nodes), stolen, counted ? String.format(Locale.ROOT, ", %,d rows", rows) : ""));
        });
        return lines;
    }

    /** One line per pipeline and one per step of it, for the EXPLAIN ANALYZE text. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        for (Run run : runs) {
            run.describe(lines);
        }
        return lines;
    }

    /** The measurements of one pipeline run. */
    static final class Run {
        private final int number;
        private final String source;
        private final List<String> steps;
        private final LongAdder[] rows;
        private final LongAdder[] batches;
        private final LongAdder[] nanos;
        private final Map<Integer, LongAdder> sourceRowsByNode = new ConcurrentHashMap<>();
        private final LongAdder tasks = new LongAdder();
        private final long started = System.nanoTime();
        private volatile long finished;

        private Run(int number, String source, List<String> steps) {
            this.number = number;
            this.source = source;
            this.steps = List.copyOf(steps);
            this.rows = adders(steps.size());
            this.batches = adders(steps.size());
            this.nanos = adders(steps.size());
        }

        private static LongAdder[] adders(int n) {
            LongAdder[] adders = new LongAdder[n];
            for (int i = 0; i < n; i++) {
                adders[i] = new LongAdder();
            }
            return adders;
        }

        /** {@code step} (operator {@code index}, or the end after the last operator) counted. */
        TaskStep wrap(int index, TaskStep step) {
            if (index == 0) {
                tasks.increment();
            }
            return new Counted(this, index, step);
        }

        void finish() {
            finished = System.nanoTime();
        }

        private void describe(List<String> lines) {
            long end = finished == 0 ? System.nanoTime() : finished;
            Map<Integer, Long> byNode = new TreeMap<>();
            sourceRowsByNode.forEach((node, count) -> byNode.put(node, count.sum()));
            List<String> nodes = new ArrayList<>();
            byNode.forEach((node, count) -> nodes.add((node < 0 ? "any node" : "node " + node) + ": "
                    + String.format(Locale.ROOT, "%,d", count)));
            lines.add(String.format(Locale.ROOT, "  pipeline %d: %.3f ms wall, %d task chain%s; source %s: %,d rows%s",
                    number, (end - started) / 1e6, tasks.sum(), tasks.sum() == 1 ? "" : "s", source,
                    rows[0].sum(), nodes.isEmpty() ? "" : " (" + String.join(", ", nodes) + ")"));
            for (int i = 0; i < steps.size(); i++) {
                long own = nanos[i].sum() - (i + 1 < steps.size() ? nanos[i + 1].sum() : 0);
                lines.add(String.format(Locale.ROOT, "    %s: %,d rows in %,d batches, %.3f ms in its steps",
                        steps.get(i), rows[i].sum(), batches[i].sum(), Math.max(0, own) / 1e6));
            }
        }
    }
}
