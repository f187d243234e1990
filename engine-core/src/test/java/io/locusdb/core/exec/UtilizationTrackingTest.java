package io.locusdb.core.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.exec.stealing.StealingPolicies;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The executor's side of the utilization histories (adaptive-placement paper, §5): a task accounted to a part adds
 * a thread and its class's memory throughput while it runs on its data's node, gives both back when it ends or
 * waits, and is not counted at all when it was stolen.
 */
class UtilizationTrackingTest {

    /** A target that only counts. */
    static final class CountingTarget implements UtilizationTarget {
        final AtomicLong threads = new AtomicLong();
        final AtomicLong bytesPerSecond = new AtomicLong();
        final AtomicLong adjustments = new AtomicLong();

        @Override
        public void adjust(int threadDelta, long bytes) {
            threads.addAndGet(threadDelta);
            bytesPerSecond.addAndGet(bytes);
            adjustments.incrementAndGet();
        }
    }

    @Test
    void a_task_on_its_node_holds_one_thread_and_its_class_average_while_it_runs() {
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes())
                .stealing(StealingPolicies.never()).build())) {
            TaskClass scan = executor.taskClass("iv-scan");
            scan.recordThroughput(2_000_000_000L, 1_000_000_000L);
            CountingTarget target = new CountingTarget();
            List<long[]> seen = new CopyOnWriteArrayList<>();
            TaskGraph graph = new TaskGraph("tracked");
            TaskGraph.Node root = graph.root(scan, TaskGraph.ANY_NODE, ctx -> { });
            graph.node(scan, 1, target, ctx -> seen.add(new long[] {target.threads.get(),
                    target.bytesPerSecond.get()}), root);
            executor.submit(graph).await();

            assertThat(seen).singleElement().satisfies(s -> {
                assertThat(s[0]).as("threads while running").isEqualTo(1);
                assertThat(s[1]).as("bytes/s while running").isEqualTo(2_000_000_000L);
            });
            assertThat(target.threads).as("after the task").hasValue(0);
            assertThat(target.bytesPerSecond).hasValue(0);
        }
    }

    @Test
    void a_task_gives_its_thread_back_while_it_blocks_and_takes_it_again_after() {
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes())
                .stealing(StealingPolicies.never()).build())) {
            TaskClass scan = executor.taskClass("iv-scan");
            CountingTarget target = new CountingTarget();
            List<Long> seen = new CopyOnWriteArrayList<>();
            TaskGraph graph = new TaskGraph("blocking");
            TaskGraph.Node root = graph.root(scan, TaskGraph.ANY_NODE, ctx -> { });
            graph.node(scan, 0, target, ctx -> {
                seen.add(target.threads.get());
                try {
                    executor.blocking().block(() -> {
                        seen.add(target.threads.get());
                        return null;
                    });
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                seen.add(target.threads.get());
            }, root);
            executor.submit(graph).await();

            assertThat(seen).containsExactly(1L, 0L, 1L);
            assertThat(target.threads).hasValue(0);
        }
    }

    @Test
    void stolen_tasks_are_not_counted() {
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes())
                .stealing(StealingPolicies.always()).build())) {
            TaskClass scan = executor.taskClass("iv-scan");
            CountingTarget target = new CountingTarget();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger busyNode = new AtomicInteger(-1);
            // One worker is kept busy (by an untargeted task), so the other steals what is queued for its node.
            GraphHandle busy = executor.submit(QueryContext.create("busy"), scan, 0, ctx -> {
                busyNode.set(ctx.node());
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            });
            while (busyNode.get() < 0) {
                Thread.onSpinWait();
            }
            List<Long> seenByStolen = new CopyOnWriteArrayList<>();
            List<GraphHandle> stolen = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                TaskGraph graph = new TaskGraph("stolen-" + i);
                TaskGraph.Node root = graph.root(scan, TaskGraph.ANY_NODE, ctx -> { });
                graph.node(scan, busyNode.get(), target, ctx -> {
                    if (ctx.stolen()) {
                        seenByStolen.add(target.threads.get());
                    }
                }, root);
                stolen.add(executor.submit(graph));
            }
            stolen.forEach(GraphHandle::await);
            stop.set(true);
            busy.await();

            assertThat(seenByStolen).as("every task was stolen, and none counted").hasSize(5).containsOnly(0L);
            assertThat(target.adjustments).hasValue(0);
        }
    }
}
