package io.locusdb.core.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TaskGraphExecutionTest {
    private NumaExecutor executor;
    private TaskClass work;

    @BeforeEach
    void start() {
        executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes()).build());
        work = executor.taskClass("work");
    }

    @AfterEach
    void stop() {
        executor.close();
    }

    @Test
    void a_node_runs_only_after_all_of_its_predecessors() {
        List<String> order = new CopyOnWriteArrayList<>();
        TaskGraph graph = new TaskGraph("diamond");
        TaskGraph.Node root = graph.root(work, 0, ctx -> order.add("root"));
        TaskGraph.Node left = graph.node(work, 0, ctx -> {
            TestExecutors.spin(2_000_000);
            order.add("left");
        }, root);
        TaskGraph.Node right = graph.node(work, 1, ctx -> order.add("right"), root);
        graph.node(work, TaskGraph.ANY_NODE, ctx -> order.add("join"), left, right);

        executor.submit(graph).await();

        assertThat(order).hasSize(4).startsWith("root").endsWith("join");
        assertThat(order.subList(1, 3)).containsExactlyInAnyOrder("left", "right");
        assertThat(graph.nodes().get(3).depth()).isEqualTo(2);
    }

    @Test
    void the_first_exception_reaches_the_waiter_and_later_tasks_are_skipped() {
        AtomicInteger ranAfterFailure = new AtomicInteger();
        TaskGraph graph = new TaskGraph("failing");
        TaskGraph.Node root = graph.root(work, 0, ctx -> {
            throw new IllegalStateException("boom in root");
        });
        graph.node(work, 0, ctx -> ranAfterFailure.incrementAndGet(), root);

        GraphHandle handle = executor.submit(graph);

        assertThatThrownBy(handle::await).isInstanceOf(IllegalStateException.class).hasMessage("boom in root");
        assertThat(ranAfterFailure).hasValue(0);
        assertThat(handle.isDone()).isTrue();
    }

    @Test
    void checked_exceptions_are_wrapped_with_the_graph_name() {
        GraphHandle handle = executor.submit(TaskGraph.single("io", work, 1, ctx -> {
            throw new IOException("disk gone");
        }));

        assertThatThrownBy(handle::await).isInstanceOf(TaskFailedException.class)
                .hasMessageContaining("io").hasRootCauseInstanceOf(IOException.class);
    }

    @Test
    void tasks_inherit_the_query_context_and_so_do_graphs_they_submit() {
        QueryContext query = QueryContext.create("q-inherit");
        AtomicReference<QueryContext> seenInChild = new AtomicReference<>();
        GraphHandle handle = executor.submit(TaskGraph.single("parent", work, 0, ctx -> {
            assertThat(QueryContext.current()).isSameAs(query);
            ctx.submit(TaskGraph.single("child", work, 1, c -> seenInChild.set(QueryContext.current()))).await();
        }), query);

        handle.await();

        assertThat(seenInChild.get()).isSameAs(query);
        assertThat(QueryContext.current()).isNull();
    }

    @Test
    void cancelling_a_query_skips_tasks_not_yet_started_and_reports_the_cancel() throws Exception {
        TaskLatch started = new TaskLatch(executor, 1);
        AtomicInteger ranAfterCancel = new AtomicInteger();
        QueryContext query = QueryContext.create("to-cancel");
        TaskGraph graph = new TaskGraph("cancel-me");
        TaskGraph.Node root = graph.root(work, 0, ctx -> {
            started.countDown();
            while (true) {
                ctx.checkCancelled();
                Thread.onSpinWait();
            }
        });
        for (int i = 0; i < 10; i++) {
            graph.node(work, i % 2, ctx -> ranAfterCancel.incrementAndGet(), root);
        }
        GraphHandle handle = executor.submit(graph, query);
        started.await();

        handle.cancel("user pressed ^C");

        assertThatThrownBy(handle::await).isInstanceOf(QueryCancelledException.class)
                .hasMessageContaining("user pressed ^C");
        assertThat(ranAfterCancel).hasValue(0);
    }

    @Test
    void a_query_over_its_memory_budget_fails_with_a_clear_error() {
        QueryContext query = QueryContext.create("greedy", QueryContext.Priority.NORMAL, 1 << 20);
        GraphHandle handle = executor.submit(TaskGraph.single("alloc", work, 0,
                ctx -> ctx.query().memory().reserve(2 << 20)), query);

        assertThatThrownBy(handle::await).isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("2097152").hasMessageContaining("1048576");
        assertThat(query.memory().reserved()).isZero();
    }

    @Test
    void a_task_can_reissue_itself_and_fork_more_tasks_into_its_graph() {
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger forked = new AtomicInteger();
        executor.submit(TaskGraph.single("reissue", work, 0, ctx -> {
            if (runs.incrementAndGet() < 3) {
                ctx.reissue();
            } else {
                for (int i = 0; i < 5; i++) {
                    ctx.fork(work, i % 2, c -> {
                        TestExecutors.spin(1_000_000);
                        forked.incrementAndGet();
                    });
                }
            }
        })).await();

        assertThat(runs).hasValue(3);
        assertThat(forked).hasValue(5);
    }

    @Test
    void higher_priority_roots_start_first_when_workers_are_busy() {
        executor.close();
        executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes())
                .stealing(io.locusdb.core.exec.stealing.StealingPolicies.never()).build());
        TaskClass cls = executor.taskClass("work");
        AtomicBoolean release = new AtomicBoolean();
        AtomicInteger busy = new AtomicInteger();
        // Spinning (not blocking) keeps node 0's only worker active, so no replacement starts the queued roots.
        GraphHandle occupant = executor.submit(QueryContext.create("occupant"), cls, 0, ctx -> {
            busy.incrementAndGet();
            while (!release.get()) {
                Thread.onSpinWait();
            }
        });
        while (busy.get() == 0) {
            Thread.onSpinWait();
        }
        ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
        GraphHandle low = executor.submit(QueryContext.create("low", QueryContext.Priority.LOWEST, Long.MAX_VALUE),
                cls, 0, ctx -> order.add("low"));
        GraphHandle normal = executor.submit(QueryContext.create("normal"), cls, 0, ctx -> order.add("normal"));
        GraphHandle high = executor.submit(QueryContext.create("high", QueryContext.Priority.HIGHEST,
                Long.MAX_VALUE), cls, 0, ctx -> order.add("high"));
        release.set(true);
        for (GraphHandle h : List.of(occupant, low, normal, high)) {
            h.await();
        }

        assertThat(order).containsExactly("high", "normal", "low");
    }

    @Test
    void shutting_down_fails_graphs_that_cannot_finish_instead_of_leaving_their_waiters_hanging() {
        AtomicBoolean release = new AtomicBoolean();
        TaskGraph graph = new TaskGraph("stubborn");
        TaskGraph.Node root = graph.root(work, 0, ctx -> {
            while (!release.get()) {
                Thread.onSpinWait(); // ignores cancellation on purpose
            }
        });
        graph.node(work, 1, ctx -> { }, root);
        GraphHandle handle = executor.submit(graph);

        boolean clean = executor.shutdown(Duration.ofMillis(200));
        release.set(true);

        assertThat(clean).isFalse();
        assertThatThrownBy(handle::await).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("stubborn");
    }

    @Test
    void a_graph_is_submitted_once_and_a_closed_executor_rejects_work() {
        TaskGraph graph = TaskGraph.single("once", work, 0, ctx -> { });
        executor.submit(graph).await();
        assertThatThrownBy(() -> executor.submit(graph)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already submitted");
        assertThatThrownBy(() -> new TaskGraph("x").node(work, 0, ctx -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one root");
        assertThatThrownBy(() -> executor.submit(TaskGraph.single("far", work, 7, ctx -> { })))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("node 7");

        TaskClass foreign = new TaskClasses(0.1).of("work");
        assertThatThrownBy(() -> executor.submit(TaskGraph.single("foreign", foreign, 0, ctx -> { })))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("another executor");
        GraphHandle badFork = executor.submit(TaskGraph.single("bad-fork", work, 0,
                ctx -> ctx.fork(work, 9, c -> { })));
        assertThatThrownBy(() -> badFork.await(Duration.ofSeconds(10))).as("a bad fork fails its graph")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("node 9");

        assertThat(executor.shutdown(Duration.ofSeconds(5))).isTrue();
        assertThatThrownBy(() -> executor.submit(TaskGraph.single("late", work, 0, ctx -> { })))
                .isInstanceOf(RejectedExecutionException.class);
    }
}
