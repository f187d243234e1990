package io.locusdb.core.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.exec.stealing.StealingPolicies;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Fake two-node topology: one worker per virtual node, so "which worker" is "which node". */
class NodeAffinityAndStealingTest {

    @Test
    void tasks_run_on_the_workers_of_their_preferred_node() {
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes())
                .stealing(StealingPolicies.never()).build())) {
            TaskClass scan = executor.taskClass("iv-scan");
            AtomicInteger misplaced = new AtomicInteger();
            AtomicInteger ran = new AtomicInteger();
            List<GraphHandle> handles = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                int node = i % 2;
                TaskGraph graph = new TaskGraph("scan-" + i);
                TaskGraph.Node root = graph.root(scan, node, ctx -> check(ctx, node, misplaced, ran));
                for (int part = 0; part < 4; part++) {
                    int partNode = (i + part) % 2;
                    graph.node(scan, partNode, ctx -> check(ctx, partNode, misplaced, ran), root);
                }
                handles.add(executor.submit(graph));
            }
            handles.forEach(GraphHandle::await);

            assertThat(ran).hasValue(1000);
            assertThat(misplaced).hasValue(0);
            ExecutorStats stats = executor.freshStats();
            assertThat(stats.tasksRun(0, scan.id())).isEqualTo(500);
            assertThat(stats.tasksRun(1, scan.id())).isEqualTo(500);
            assertThat(stats.tasksStolen()).isZero();
        }
    }

    private static void check(TaskContext ctx, int expectedNode, AtomicInteger misplaced, AtomicInteger ran) {
        TestExecutors.spin(20_000);
        if (ctx.node() != expectedNode || ctx.stolen()) {
            misplaced.incrementAndGet();
        }
        ran.incrementAndGet();
    }

    @Test
    void a_memory_intensive_class_is_not_stolen_while_a_cpu_intensive_class_is() {
        double threshold = 1e9;
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes())
                .stealing(StealingPolicies.adaptive(threshold)).build())) {
            TaskClass memoryBound = executor.taskClass("iv-scan");
            TaskClass cpuBound = executor.taskClass("materialize");
            // A local run teaches the executor each class's throughput: 256 MB in ~1 ms is far above 1 GB/s. Until
            // then a class counts as stealable, so a warm-up task may be stolen; repeat until one ran locally.
            while (memoryBound.sampleCount() == 0) {
                executor.submit(QueryContext.create("warm-mem"), memoryBound, 0, ctx -> {
                    TestExecutors.spin(1_000_000);
                    ctx.addBytes(256L << 20);
                }).await();
            }
            executor.submit(QueryContext.create("warm-cpu"), cpuBound, 0, ctx -> TestExecutors.spin(1_000_000))
                    .await();
            assertThat(memoryBound.averageThroughput()).isGreaterThan(threshold);
            assertThat(cpuBound.averageThroughput()).isLessThan(threshold);

            long memoryStolenBefore = executor.freshStats().tasksStolen(1, memoryBound.id());
            long cpuStolenBefore = executor.freshStats().tasksStolen(1, cpuBound.id());
            // All data on node 0: node 1's worker has nothing of its own and may only steal.
            AtomicInteger memoryOnNode1 = new AtomicInteger();
            AtomicInteger cpuOnNode1 = new AtomicInteger();
            List<GraphHandle> handles = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                handles.add(executor.submit(QueryContext.create("mem"), memoryBound, 0, ctx -> {
                    TestExecutors.spin(500_000);
                    ctx.addBytes(256L << 20);
                    if (ctx.node() == 1) {
                        memoryOnNode1.incrementAndGet();
                    }
                }));
                handles.add(executor.submit(QueryContext.create("cpu"), cpuBound, 0, ctx -> {
                    TestExecutors.spin(500_000);
                    if (ctx.node() == 1) {
                        cpuOnNode1.incrementAndGet();
                    }
                }));
            }
            handles.forEach(GraphHandle::await);

            assertThat(memoryOnNode1).as("memory-intensive tasks stolen by node 1").hasValue(0);
            assertThat(cpuOnNode1).as("CPU-intensive tasks stolen by node 1").hasPositiveValue();
            ExecutorStats stats = executor.freshStats();
            assertThat(stats.tasksStolen(1, memoryBound.id())).isEqualTo(memoryStolenBefore);
            assertThat(stats.tasksStolen(1, cpuBound.id()) - cpuStolenBefore).isEqualTo(cpuOnNode1.get());
        }
    }

    @Test
    void only_local_unstolen_unblocked_tasks_update_a_class_average() throws Exception {
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes())
                .stealing(StealingPolicies.never()).build())) {
            TaskClass sampled = executor.taskClass("sampled");
            executor.submit(QueryContext.create("local"), sampled, 1, ctx -> {
                TestExecutors.spin(1_000_000);
                ctx.addBytes(1_000_000);
            }).await();
            assertThat(sampled.sampleCount()).isEqualTo(1);
            double first = sampled.averageThroughput();
            assertThat(first).isBetween(1e7, 1.1e9);

            TaskLatch latch = new TaskLatch(executor, 1);
            GraphHandle blocked = executor.submit(QueryContext.create("blocked"), sampled, 0, ctx -> {
                latch.await();
                ctx.addBytes(1L << 40);
            });
            Thread.sleep(20);
            latch.countDown();
            blocked.await();

            assertThat(sampled.sampleCount()).as("a task that blocked is no sample").isEqualTo(1);
            assertThat(sampled.averageThroughput()).isEqualTo(first);
        }
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes())
                .stealing(StealingPolicies.always()).build())) {
            TaskClass sampled = executor.taskClass("sampled");
            AtomicBoolean stop = new AtomicBoolean();
            // One worker is kept busy, so the other one steals the tasks queued for the busy worker's node.
            AtomicInteger busyNode = new AtomicInteger(-1);
            GraphHandle busy = executor.submit(QueryContext.create("busy"), sampled, 0, ctx -> {
                busyNode.set(ctx.node());
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            });
            while (busyNode.get() < 0) {
                Thread.onSpinWait();
            }
            AtomicInteger stolenRuns = new AtomicInteger();
            List<GraphHandle> stolen = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                stolen.add(executor.submit(QueryContext.create("stolen"), sampled, busyNode.get(), ctx -> {
                    ctx.addBytes(1L << 30);
                    if (ctx.stolen()) {
                        stolenRuns.incrementAndGet();
                    }
                }));
            }
            stolen.forEach(GraphHandle::await);
            stop.set(true);
            busy.await();

            assertThat(stolenRuns).hasValue(5);
            assertThat(sampled.sampleCount()).as("stolen tasks are no samples").isZero();
        }
    }

    @Test
    void the_class_average_is_the_papers_moving_average() {
        TaskClasses classes = new TaskClasses(0.1);
        TaskClass c = classes.of("c");
        c.recordThroughput(1000, 1_000_000_000L);
        c.recordThroughput(2000, 1_000_000_000L);
        assertThat(c.averageThroughput()).isCloseTo(0.9 * 1000 + 0.1 * 2000, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(classes.of("c")).isSameAs(c);
        assertThat(classes.byId(c.id())).isSameAs(c);
    }
}
