package io.locusdb.core.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.exec.stealing.StealingPolicies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The active concurrency level (task-scheduling paper, §5). Most tests tick the watchdog by hand, so "within two
 * watchdog periods" means "after at most two ticks", independent of how busy this machine is.
 */
class FlexibleConcurrencyTest {

    private static NumaExecutor manualWatchdog() {
        return NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes())
                .stealing(StealingPolicies.never()).watchdogThread(false).build());
    }

    @Test
    void blocked_workers_are_replaced_within_two_watchdog_periods_and_the_extra_ones_park_afterwards()
            throws Exception {
        try (NumaExecutor executor = manualWatchdog()) {
            TaskClass work = executor.taskClass("work");
            int contexts = executor.targetConcurrency();
            TaskLatch gate = new TaskLatch(executor, 1);
            List<GraphHandle> handles = new ArrayList<>();
            for (int node = 0; node < 2; node++) {
                handles.add(executor.submit(QueryContext.create("blocker"), work, node, ctx -> gate.await()));
            }
            assertThat(TestExecutors.eventually(Duration.ofSeconds(10),
                    () -> executor.freshStats().blocked() == 2)).isTrue();
            assertThat(executor.activeConcurrency()).isZero();

            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger spinning = new AtomicInteger();
            for (int i = 0; i < 4; i++) {
                handles.add(executor.submit(QueryContext.create("spinner"), work, i % 2, ctx -> {
                    spinning.incrementAndGet();
                    while (!stop.get()) {
                        Thread.onSpinWait();
                    }
                }));
            }
            Thread.sleep(50);
            assertThat(spinning).as("an ordinary block does not start a replacement by itself").hasValue(0);

            int ticks = 0;
            while (executor.activeConcurrency() < contexts && ticks < 2) {
                executor.watchdog().tick(System.nanoTime());
                ticks++;
            }
            assertThat(executor.activeConcurrency()).isEqualTo(contexts);
            assertThat(ticks).isLessThanOrEqualTo(2);
            assertThat(TestExecutors.eventually(Duration.ofSeconds(10), () -> spinning.get() == 2)).isTrue();
            assertThat(executor.workerCount()).isEqualTo(4);

            // The blocked workers come back: active is briefly above target, and workers park after their task.
            gate.countDown();
            assertThat(TestExecutors.eventually(Duration.ofSeconds(10),
                    () -> executor.activeConcurrency() == contexts && executor.freshStats().blocked() == 0))
                    .isTrue();
            stop.set(true);
            for (GraphHandle h : handles) {
                assertThat(h.await(Duration.ofSeconds(30))).isTrue();
            }
        }
    }

    @Test
    void waiting_for_a_graph_starts_a_replacement_at_once() {
        try (NumaExecutor executor = manualWatchdog()) {
            TaskClass work = executor.taskClass("work");
            AtomicInteger childRanOn = new AtomicInteger(-1);
            // Node 0 has one worker and nothing may be stolen: the child can only run on a replacement.
            GraphHandle parent = executor.submit(QueryContext.create("parent"), work, 0, ctx -> ctx.submit(
                    TaskGraph.single("child", work, 0, c -> childRanOn.set(c.node()))).await());

            assertThat(parent.await(Duration.ofSeconds(30))).isTrue();
            assertThat(childRanOn).hasValue(0);
            assertThat(executor.workerCount()).isEqualTo(3);
        }
    }

    @Test
    void a_declared_inactive_region_starts_a_replacement_at_once() throws Exception {
        try (NumaExecutor executor = manualWatchdog()) {
            TaskClass work = executor.taskClass("io");
            CountDownLatch written = new CountDownLatch(1);
            GraphHandle waiter = executor.submit(QueryContext.create("log-writer"), work, 0,
                    ctx -> executor.blocking().inactive(() -> {
                        written.await();
                        return null;
                    }));
            GraphHandle writer = executor.submit(QueryContext.create("log-flush"), work, 0,
                    ctx -> written.countDown());

            assertThat(writer.await(Duration.ofSeconds(30))).isTrue();
            assertThat(waiter.await(Duration.ofSeconds(30))).isTrue();
        }
    }

    @Test
    void tasks_of_one_level_waiting_for_each_other_beyond_the_worker_count_finish() {
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes()).build())) {
            TaskClass work = executor.taskClass("barrier");
            int siblings = 32;
            TaskLatch barrier = new TaskLatch(executor, siblings);
            AtomicInteger passed = new AtomicInteger();
            TaskGraph graph = new TaskGraph("mutual-wait");
            TaskGraph.Node root = graph.root(work, 0, ctx -> { });
            for (int i = 0; i < siblings; i++) {
                graph.node(work, i % 2, ctx -> {
                    barrier.countDown();
                    barrier.await();
                    passed.incrementAndGet();
                }, root);
            }

            GraphHandle handle = executor.submit(graph);

            assertThat(handle.await(Duration.ofSeconds(60))).as("finished without deadlock").isTrue();
            assertThat(passed).hasValue(siblings);
            assertThat(executor.workerCount()).isGreaterThanOrEqualTo(siblings);
            assertThat(TestExecutors.eventually(Duration.ofSeconds(10),
                    () -> executor.freshStats().blocked() == 0 && executor.activeConcurrency() <= 2)).isTrue();
        }
    }

    @Test
    void graphs_waiting_for_each_other_beyond_the_worker_count_finish() {
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes()).build())) {
            TaskClass work = executor.taskClass("rendezvous");
            int graphs = 24;
            TaskLatch rendezvous = new TaskLatch(executor, graphs);
            List<GraphHandle> handles = new ArrayList<>();
            for (int i = 0; i < graphs; i++) {
                handles.add(executor.submit(QueryContext.create("g" + i), work, i % 2, ctx -> {
                    rendezvous.countDown();
                    rendezvous.await();
                }));
            }
            for (GraphHandle h : handles) {
                assertThat(h.await(Duration.ofSeconds(60))).isTrue();
            }
        }
    }

    @Test
    void with_the_watchdog_thread_a_blocked_worker_is_replaced_within_a_few_periods() throws Exception {
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes())
                .stealing(StealingPolicies.never()).build())) {
            TaskClass work = executor.taskClass("work");
            TaskLatch gate = new TaskLatch(executor, 1);
            TaskLatch blocked = new TaskLatch(executor, 1);
            AtomicBoolean ranBehind = new AtomicBoolean();
            GraphHandle blocker = executor.submit(QueryContext.create("blocker"), work, 0, ctx -> {
                blocked.countDown();
                gate.await();
            });
            blocked.await();
            long start = System.nanoTime();
            GraphHandle behind = executor.submit(QueryContext.create("behind"), work, 0,
                    ctx -> ranBehind.set(true));
            behind.await();
            long waitedMillis = (System.nanoTime() - start) / 1_000_000;
            gate.countDown();
            blocker.await();

            assertThat(ranBehind).isTrue();
            System.out.printf("blocked worker replaced after %d ms (watchdog period 20 ms)%n", waitedMillis);
            assertThat(waitedMillis).as("replacement delay in ms on a shared 2-core machine").isLessThan(2_000);
        }
    }
}
