package io.locusdb.core.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.exec.elastic.AdaptivePriorityAllocation;
import io.locusdb.core.exec.elastic.CoreAllocation;
import io.locusdb.core.exec.elastic.ElasticConfig;
import io.locusdb.core.exec.elastic.ElasticCoreController;
import io.locusdb.core.exec.elastic.LoadState;
import io.locusdb.core.exec.elastic.SequenceAllocation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Elastic core allocation (ICDE 2018): the controller on a synthetic 4x4 machine, then a live executor. */
class ElasticCoreAllocationTest {
    private static final long[] NO_ACTIVITY = new long[4];

    private static ElasticCoreController controller(io.locusdb.core.exec.elastic.CoreAllocationMode mode) {
        CoreAllocation allocation = new CoreAllocation(TestExecutors.synthetic(4, 4));
        ElasticCoreController controller = new ElasticCoreController(allocation, ElasticConfig.of(mode));
        controller.allocateInitial(NO_ACTIVITY);
        return controller;
    }

    @Test
    void loads_are_idle_below_ten_percent_overloaded_above_seventy_and_stable_between() {
        ElasticCoreController c = controller(SequenceAllocation.dense());
        assertThat(c.classify(0.05)).isEqualTo(LoadState.IDLE);
        assertThat(c.classify(0.10)).isEqualTo(LoadState.STABLE);
        assertThat(c.classify(0.70)).isEqualTo(LoadState.STABLE);
        assertThat(c.classify(0.71)).isEqualTo(LoadState.OVERLOAD);
    }

    @Test
    void under_load_it_grows_one_core_per_step_to_all_cores_and_shrinks_to_one_when_idle() {
        ElasticCoreController c = controller(SequenceAllocation.dense());
        assertThat(c.allocation().allocatedCount()).isEqualTo(1);
        for (int step = 1; step < 16; step++) {
            ElasticCoreController.Step s = c.step(0.95, NO_ACTIVITY);
            assertThat(s.state()).isEqualTo(LoadState.OVERLOAD);
            assertThat(s.allocatedCores()).isEqualTo(step + 1);
        }
        assertThat(c.step(0.99, NO_ACTIVITY).addedCpu()).as("nothing left to add").isEqualTo(-1);
        assertThat(c.step(0.40, NO_ACTIVITY).allocatedCores()).as("stable keeps").isEqualTo(16);
        for (int step = 0; step < 20; step++) {
            c.step(0.02, NO_ACTIVITY);
        }
        assertThat(c.allocation().allocatedCount()).isEqualTo(1);
        assertThatThrownBy(() -> c.allocation().release(c.allocation().lastAllocatedOn(0)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void dense_fills_a_node_first_and_sparse_goes_round_robin_over_nodes() {
        ElasticCoreController dense = controller(SequenceAllocation.dense());
        ElasticCoreController sparse = controller(SequenceAllocation.sparse());
        for (int i = 0; i < 4; i++) {
            dense.step(1.0, NO_ACTIVITY);
            sparse.step(1.0, NO_ACTIVITY);
        }
        assertThat(dense.allocation().allocatedPerNode()).containsExactly(4, 1, 0, 0);
        assertThat(sparse.allocation().allocatedPerNode()).containsExactly(2, 1, 1, 1);
        dense.step(0.0, NO_ACTIVITY);
        sparse.step(0.0, NO_ACTIVITY);
        assertThat(dense.allocation().allocatedPerNode()).as("last in, first out").containsExactly(4, 0, 0, 0);
        assertThat(sparse.allocation().allocatedPerNode()).containsExactly(1, 1, 1, 1);
    }

    @Test
    void adaptive_priority_adds_where_the_active_data_is_and_removes_where_it_is_least() {
        long[] dataOnNode2 = {10, 0, 1_000, 50};
        CoreAllocation allocation = new CoreAllocation(TestExecutors.synthetic(4, 4));
        ElasticCoreController c = new ElasticCoreController(allocation,
                ElasticConfig.of(new AdaptivePriorityAllocation()));
        c.allocateInitial(dataOnNode2);
        assertThat(allocation.allocatedPerNode()).containsExactly(0, 0, 1, 0);
        for (int i = 0; i < 3; i++) {
            c.step(0.9, dataOnNode2);
        }
        assertThat(allocation.allocatedPerNode()).containsExactly(0, 0, 4, 0);
        c.step(0.9, dataOnNode2);
        assertThat(allocation.allocatedPerNode()).as("node 2 full: next most data").containsExactly(0, 0, 4, 1);
        c.step(0.9, dataOnNode2);
        assertThat(allocation.allocatedPerNode()).containsExactly(0, 0, 4, 2);
        c.step(0.0, dataOnNode2);
        assertThat(allocation.allocatedPerNode()).as("least data loses a core").containsExactly(0, 0, 4, 1);
    }

    @Test
    void a_live_executor_grows_to_all_cores_under_load_and_shrinks_to_one_when_idle() {
        ElasticConfig elastic = ElasticConfig.of(SequenceAllocation.sparse()).withPeriod(Duration.ofMillis(20));
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes())
                .elastic(elastic).build())) {
            int cores = executor.topology().cpuCount();
            assertThat(executor.coreAllocation().allocatedCount()).isEqualTo(1);
            assertThat(executor.targetConcurrency()).isEqualTo(1);
            TaskClass busy = executor.taskClass("busy");
            AtomicBoolean stop = new AtomicBoolean();
            List<GraphHandle> load = new ArrayList<>();
            for (int i = 0; i < cores * 2; i++) {
                load.add(executor.submit(QueryContext.create("load"), busy, i % 2, ctx -> {
                    while (!stop.get()) {
                        Thread.onSpinWait();
                    }
                }));
            }
            assertThat(TestExecutors.eventually(Duration.ofSeconds(20),
                    () -> executor.coreAllocation().allocatedCount() == cores)).as("grew to all cores").isTrue();
            assertThat(executor.targetConcurrency()).isEqualTo(cores);

            stop.set(true);
            load.forEach(GraphHandle::await);
            assertThat(TestExecutors.eventually(Duration.ofSeconds(20),
                    () -> executor.coreAllocation().allocatedCount() == 1)).as("shrank to one core").isTrue();
            // The step that withdrew the last core may still have measured the load's final window: the next
            // ones, over an idle window, say IDLE.
            assertThat(TestExecutors.eventually(Duration.ofSeconds(5),
                    () -> executor.watchdog().lastElasticStep().state() == LoadState.IDLE)).as("idle").isTrue();

            // Work for the node whose core was withdrawn still runs: the remaining core takes it.
            int withdrawnNode = executor.coreAllocation().allocatedOn(0) == 0 ? 0 : 1;
            GraphHandle orphan = executor.submit(QueryContext.create("orphan"), busy, withdrawnNode, ctx -> { });
            assertThat(orphan.await(Duration.ofSeconds(20))).isTrue();
        }
    }

    @Test
    void a_graph_wait_on_a_shrunk_node_still_gets_a_replacement() {
        ElasticConfig elastic = ElasticConfig.of(SequenceAllocation.dense()).withPeriod(Duration.ofMillis(10));
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.synthetic(1, 2))
                .pinWorkers(false).elastic(elastic).build())) {
            TaskClass busy = executor.taskClass("busy");
            AtomicBoolean stop = new AtomicBoolean();
            List<GraphHandle> load = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                load.add(executor.submit(QueryContext.create("load"), busy, 0, ctx -> {
                    while (!stop.get()) {
                        Thread.onSpinWait();
                    }
                }));
            }
            assertThat(TestExecutors.eventually(Duration.ofSeconds(20),
                    () -> executor.coreAllocation().allocatedCount() == 2)).isTrue();
            stop.set(true);
            load.forEach(GraphHandle::await);
            // The second core is withdrawn while its worker idles.
            assertThat(TestExecutors.eventually(Duration.ofSeconds(20),
                    () -> executor.coreAllocation().allocatedCount() == 1)).isTrue();

            GraphHandle parent = executor.submit(QueryContext.create("parent"), busy, 0, ctx -> ctx.submit(
                    TaskGraph.single("child", busy, 0, c -> { })).await());
            assertThat(parent.await(Duration.ofSeconds(20))).isTrue();
            assertThat(TestExecutors.eventually(Duration.ofSeconds(10), () -> {
                ExecutorStats stats = executor.freshStats();
                return stats.activeConcurrency() == 0 && stats.parked() == stats.workers();
            })).as("books balance after the shrink").isTrue();
        }
    }
}
