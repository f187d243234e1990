package io.locusdb.core.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.exec.elastic.ElasticConfig;
import io.locusdb.core.exec.elastic.SequenceAllocation;
import io.locusdb.core.exec.stealing.StealingPolicies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Random graphs with random waits, failures, cancellations, forks and reissues from several clients at once. Every
 * graph must end (no hang), every outcome must be the expected one, and once the executor is idle its books must
 * balance: nobody active, blocked or waiting, every worker parked.
 */
class ExecutorStressTest {
    private static final int CLIENTS = 8;
    private static final long RUN_NANOS = 2_000_000_000L;

    @Test
    void random_graphs_all_finish_and_the_books_balance_afterwards() throws Exception {
        stress(ExecutorConfig.builder(TestExecutors.twoNodes()).stealing(StealingPolicies.adaptive(1e9)).build());
    }

    @Test
    void the_same_in_elastic_mode_with_cores_coming_and_going() throws Exception {
        stress(ExecutorConfig.builder(TestExecutors.twoNodes())
                .elastic(ElasticConfig.of(SequenceAllocation.dense()).withPeriod(Duration.ofMillis(5))).build());
    }

    @Test
    void the_same_on_a_synthetic_four_node_machine_without_stealing() throws Exception {
        stress(ExecutorConfig.builder(TestExecutors.synthetic(4, 2)).pinWorkers(false)
                .stealing(StealingPolicies.never()).build());
    }

    private static void stress(ExecutorConfig config) throws Exception {
        try (NumaExecutor executor = NumaExecutor.start(config)) {
            int nodes = executor.topology().nodeCount();
            List<TaskClass> classes = List.of(executor.taskClass("scan"), executor.taskClass("agg"),
                    executor.taskClass("io"));
            AtomicLong graphs = new AtomicLong();
            AtomicInteger unexpected = new AtomicInteger();
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            long deadline = System.nanoTime() + RUN_NANOS;
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                long seed = 1000 + c;
                clients.add(Thread.ofPlatform().start(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    while (System.nanoTime() < deadline) {
                        Outcome expected = Outcome.values()[random.nextInt(Outcome.values().length)];
                        GraphHandle handle = submitRandom(executor, classes, nodes, random, expected);
                        if (expected == Outcome.CANCELLED) {
                            handle.cancel("stress cancel");
                        }
                        Outcome actual;
                        try {
                            if (!handle.await(Duration.ofSeconds(60))) {
                                problems.add("graph did not finish within 60 s (expected " + expected + ")");
                                unexpected.incrementAndGet();
                                continue;
                            }
                            actual = Outcome.OK;
                        } catch (QueryCancelledException e) {
                            actual = Outcome.CANCELLED;
                        } catch (IllegalStateException e) {
                            actual = "stress failure".equals(e.getMessage()) ? Outcome.FAILED : Outcome.OK;
                            if (actual == Outcome.OK) {
                                problems.add("unexpected " + e);
                            }
                        }
                        // A cancel may come after the graph already finished: OK is a valid outcome of a cancel.
                        boolean fine = actual == expected || (expected == Outcome.CANCELLED && actual == Outcome.OK);
                        if (!fine) {
                            unexpected.incrementAndGet();
                            problems.add("expected " + expected + " got " + actual);
                        }
                        graphs.incrementAndGet();
                    }
                }));
            }
            for (Thread t : clients) {
                t.join();
            }

            assertThat(problems).isEmpty();
            assertThat(unexpected).hasValue(0);
            assertThat(graphs.get()).isGreaterThan(CLIENTS);
            assertThat(executor.outstandingGraphs()).isZero();
            boolean balanced = TestExecutors.eventually(Duration.ofSeconds(10), () -> {
                ExecutorStats s = executor.freshStats();
                return s.activeConcurrency() == 0 && s.blocked() == 0 && s.waitingForGraph() == 0
                        && s.declaredInactive() == 0 && s.parked() == s.workers();
            });
            ExecutorStats s = executor.freshStats();
            assertThat(balanced).as("idle books: active %d blocked %d waiting %d inactive %d parked %d of %d workers",
                    s.activeConcurrency(), s.blocked(), s.waitingForGraph(), s.declaredInactive(), s.parked(),
                    s.workers()).isTrue();
            assertThat(s.workers()).isGreaterThanOrEqualTo(executor.topology().cpuCount());
            System.out.printf("stress: %d graphs, %d workers at the end, %d tasks run, %d stolen%n", graphs.get(),
                    s.workers(), s.tasksRun(), s.tasksStolen());
        }
    }

    enum Outcome { OK, FAILED, CANCELLED }

    private static GraphHandle submitRandom(NumaExecutor executor, List<TaskClass> classes, int nodes,
                                            SplittableRandom random, Outcome outcome) {
        TaskGraph graph = new TaskGraph("stress");
        List<TaskGraph.Node> built = new ArrayList<>();
        int size = 1 + random.nextInt(12);
        TaskLatch rendezvous = new TaskLatch(executor, 2);
        TaskLock lock = new TaskLock(executor);
        int failAt = outcome == Outcome.FAILED ? random.nextInt(size) : -1;
        for (int i = 0; i < size; i++) {
            TaskClass cls = classes.get(random.nextInt(classes.size()));
            int node = random.nextInt(nodes + 1) - 1;
            int kind = random.nextInt(8);
            boolean fail = i == failAt;
            boolean spinUntilCancelled = outcome == Outcome.CANCELLED && i == 0;
            long spin = 20_000L + random.nextInt(200_000);
            TaskBody body = ctx -> {
                if (spinUntilCancelled) {
                    long end = System.nanoTime() + 50_000_000L;
                    while (System.nanoTime() < end) {
                        ctx.checkCancelled();
                        Thread.onSpinWait();
                    }
                }
                TestExecutors.spin(spin);
                ctx.addBytes(spin);
                switch (kind) {
                    case 0 -> {
                        lock.lock();
                        try {
                            TestExecutors.spin(10_000);
                        } finally {
                            lock.unlock();
                        }
                    }
                    case 1 -> ctx.submit(TaskGraph.single("child", ctx.taskClass(), TaskGraph.ANY_NODE,
                            c -> TestExecutors.spin(10_000))).await();
                    case 2 -> executor.blocking().inactive(() -> {
                        Thread.sleep(1);
                        return null;
                    });
                    case 3 -> ctx.fork(ctx.taskClass(), ctx.preferredNode(), c -> TestExecutors.spin(10_000));
                    case 4 -> {
                        rendezvous.countDown();
                        rendezvous.await(5, java.util.concurrent.TimeUnit.MILLISECONDS);
                    }
                    default -> { }
                }
                if (fail) {
                    throw new IllegalStateException("stress failure");
                }
            };
            if (built.isEmpty()) {
                built.add(graph.root(cls, node, body));
            } else {
                int preds = 1 + random.nextInt(Math.min(3, built.size()));
                TaskGraph.Node[] after = new TaskGraph.Node[preds];
                for (int p = 0; p < preds; p++) {
                    after[p] = built.get(random.nextInt(built.size()));
                }
                built.add(graph.node(cls, node, body, after));
            }
        }
        return executor.submit(graph, QueryContext.create("stress"));
    }
}
