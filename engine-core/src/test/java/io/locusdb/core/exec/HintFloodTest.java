package io.locusdb.core.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.natives.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * The task-scheduling paper's granularity experiment in small: 256 clients flood the executor with tiny
 * partitionable jobs, once sized by the concurrency hint and once always at the full context count. Reports tasks
 * created and throughput of both; asserts the behaviour (fewer tasks per job, every sum right), not the speed.
 */
class HintFloodTest {
    private static final int CLIENTS = 256;
    private static final long ROWS = 65_536;
    private static final long MIN_ROWS_PER_TASK = 2_048;
    private static final long RUN_NANOS = 1_500_000_000L;

    @Test
    void with_the_hint_a_flood_of_tiny_jobs_creates_far_fewer_tasks_on_the_fake_two_node_machine() throws Exception {
        compare("fake 2-node (2 contexts, pinned)", ExecutorConfig.builder(TestExecutors.twoNodes()).build());
    }

    @Test
    void with_the_hint_a_flood_of_tiny_jobs_creates_far_fewer_tasks_with_sixteen_contexts() throws Exception {
        Topology topology = TestExecutors.synthetic(2, 8);
        compare("synthetic 2x8 (16 contexts, unpinned on this machine's cores)",
                ExecutorConfig.builder(topology).pinWorkers(false).build());
    }

    private static void compare(String machine, ExecutorConfig config) throws Exception {
        long[] values = new long[(int) ROWS];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 7L + 3;
        }
        long expected = 0;
        for (long v : values) {
            expected += v;
        }
        Result without = flood(config, values, expected, false);
        Result with = flood(config, values, expected, true);
        double fewer = 1 - with.tasksPerJob() / without.tasksPerJob();
        System.out.printf("%s, %d clients, %d-row jobs:%n", machine, CLIENTS, ROWS);
        System.out.printf("  without hint: %,d jobs, %,d tasks (%.2f per job), %,.0f jobs/s%n", without.jobs,
                without.tasks, without.tasksPerJob(), without.jobsPerSecond());
        System.out.printf("  with hint:    %,d jobs, %,d tasks (%.2f per job), %,.0f jobs/s%n", with.jobs,
                with.tasks, with.tasksPerJob(), with.jobsPerSecond());
        System.out.printf("  %.0f%% fewer tasks per job, throughput ratio with/without %.2f%n", fewer * 100,
                with.jobsPerSecond() / without.jobsPerSecond());

        assertThat(without.wrong + with.wrong).as("wrong sums").isZero();
        assertThat(with.jobs).isPositive();
        assertThat(without.jobs).isPositive();
        assertThat(with.tasksPerJob()).isLessThan(without.tasksPerJob());
    }

    private static Result flood(ExecutorConfig config, long[] values, long expected, boolean useHint)
            throws InterruptedException {
        try (NumaExecutor executor = NumaExecutor.start(config)) {
            TaskClass sum = executor.taskClass("sum");
            PartitionedJob.Options options = useHint ? PartitionedJob.Options.withHint(MIN_ROWS_PER_TASK)
                    : PartitionedJob.Options.withoutHint(MIN_ROWS_PER_TASK);
            LongAdder jobs = new LongAdder();
            LongAdder tasks = new LongAdder();
            AtomicLong wrong = new AtomicLong();
            long deadline = System.nanoTime() + RUN_NANOS;
            List<Thread> clients = new ArrayList<>();
            long start = System.nanoTime();
            for (int c = 0; c < CLIENTS; c++) {
                int node = c % executor.topology().nodeCount();
                clients.add(Thread.ofPlatform().start(() -> {
                    while (System.nanoTime() < deadline) {
                        LongAdder total = new LongAdder();
                        PartitionedJob job = PartitionedJob.submit(executor, QueryContext.create("sum"), sum, node,
                                0, ROWS, options, (ctx, from, to) -> {
                                    long s = 0;
                                    for (int i = (int) from; i < to; i++) {
                                        s += values[i];
                                    }
                                    ctx.addBytes((to - from) * Long.BYTES);
                                    total.add(s);
                                });
                        job.await();
                        if (total.sum() != expected) {
                            wrong.incrementAndGet();
                        }
                        jobs.increment();
                        tasks.add(job.tasksCreated());
                    }
                }));
            }
            for (Thread t : clients) {
                t.join();
            }
            long elapsed = System.nanoTime() - start;
            return new Result(jobs.sum(), tasks.sum(), wrong.get(), elapsed);
        }
    }

    private record Result(long jobs, long tasks, long wrong, long nanos) {
        double tasksPerJob() {
            return (double) tasks / jobs;
        }

        double jobsPerSecond() {
            return jobs * 1e9 / nanos;
        }
    }
}
