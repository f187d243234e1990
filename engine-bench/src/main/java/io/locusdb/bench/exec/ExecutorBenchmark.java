package io.locusdb.bench.exec;

import io.locusdb.core.exec.ExecutorConfig;
import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.natives.topology.FakeTopology;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The executor next to {@link ForkJoinPool} on the same work, same thread count (one worker per CPU of the fake
 * two-node topology, i.e. every CPU of this machine), in the same run:
 * <ul>
 *   <li>{@code *SingleTask}: per-task overhead, submit → run → completion seen by the submitter, with a task that
 *       sums {@code elementsPerTask} longs (0 for the bare overhead);</li>
 *   <li>{@code *ForkJoinSum}: a sum over {@code totalElements} longs cut into tasks of {@code elementsPerTask}
 *       elements: one graph (fork node + leaves) for LocusDB, recursive halving for ForkJoinPool (its best
 *       style).</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules=jdk.incubator.vector"})
@State(Scope.Benchmark)
public class ExecutorBenchmark {
    @Param({"0", "10000"})
    public int elementsPerTask;

    @Param({"2000000"})
    public int totalElements;

    private long[] values;
    private NumaExecutor executor;
    private TaskClass sumClass;
    private ForkJoinPool forkJoin;

    @Setup(Level.Trial)
    public void setUp() {
        values = new long[totalElements];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 31L + 7;
        }
        Topology real = Topologies.real();
        Topology topology = FakeTopology.split(real, Math.min(2, real.cpuCount()));
        executor = NumaExecutor.start(ExecutorConfig.builder(topology).build());
        sumClass = executor.taskClass("sum");
        forkJoin = new ForkJoinPool(topology.cpuCount());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        executor.close();
        forkJoin.shutdown();
    }

    private long sum(int from, int to) {
        long s = 0;
        for (int i = from; i < to; i++) {
            s += values[i];
        }
        return s;
    }

    @Benchmark
    public long locusSingleTask() {
        LongAdder result = new LongAdder();
        int n = elementsPerTask;
        executor.submit(QueryContext.create(null), sumClass, TaskGraph.ANY_NODE, ctx -> result.add(sum(0, n)))
                .await();
        return result.sum();
    }

    @Benchmark
    public long forkJoinSingleTask() {
        int n = elementsPerTask;
        return forkJoin.submit(() -> sum(0, n)).join();
    }

    @Benchmark
    public long locusForkJoinSum() {
        int chunk = Math.max(1, elementsPerTask);
        int tasks = (totalElements + chunk - 1) / chunk;
        LongAdder result = new LongAdder();
        TaskGraph graph = new TaskGraph("sum");
        TaskGraph.Node fork = graph.root(sumClass, TaskGraph.ANY_NODE, ctx -> { });
        for (int t = 0; t < tasks; t++) {
            int from = t * chunk;
            int to = Math.min(totalElements, from + chunk);
            graph.node(sumClass, TaskGraph.ANY_NODE, ctx -> result.add(sum(from, to)), fork);
        }
        GraphHandle handle = executor.submit(graph, QueryContext.create(null));
        handle.await();
        return result.sum();
    }

    @Benchmark
    public long forkJoinForkJoinSum() {
        return forkJoin.invoke(new SumTask(this, 0, totalElements, Math.max(1, elementsPerTask)));
    }

    private static final class SumTask extends RecursiveTask<Long> {
        private final ExecutorBenchmark bench;
        private final int from;
        private final int to;
        private final int chunk;

        SumTask(ExecutorBenchmark bench, int from, int to, int chunk) {
            this.bench = bench;
            this.from = from;
            this.to = to;
            this.chunk = chunk;
        }

        @Override
        protected Long compute() {
            if (to - from <= chunk) {
                return bench.sum(from, to);
            }
            int mid = (from + to) >>> 1;
            SumTask left = new SumTask(bench, from, mid, chunk);
            left.fork();
            long right = new SumTask(bench, mid, to, chunk).compute();
            return right + left.join();
        }
    }
}
