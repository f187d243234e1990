package io.locusdb.bench.exec;

import io.locusdb.core.exec.ExecutorConfig;
import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.exec.UtilizationTarget;
import io.locusdb.core.placer.UtilizationHistory;
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
 *   <li>{@code *ForkJoinSum}: a sum over 2M longs cut into tasks of {@code elementsPerTask} elements: one graph
 *       (fork node + leaves) for LocusDB, recursive halving for ForkJoinPool (its best style).</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules=jdk.incubator.vector"})
public class ExecutorBenchmark {
    private static final int TOTAL_ELEMENTS = 2_000_000;

    /** Both pools and the data, shared by every benchmark of a trial. */
    @State(Scope.Benchmark)
    public static class Pools {
        long[] values;
        NumaExecutor executor;
        TaskClass sumClass;
        ForkJoinPool forkJoin;
        int nodes;
        /** A part's histories as the placer keeps them: what tracked tasks adjust. */
        UtilizationTarget usage;

        @Setup(Level.Trial)
        public void setUp() {
            values = new long[TOTAL_ELEMENTS];
            for (int i = 0; i < values.length; i++) {
                values[i] = i * 31L + 7;
            }
            Topology real = Topologies.real();
            Topology topology = FakeTopology.split(real, Math.min(2, real.cpuCount()));
            executor = NumaExecutor.start(ExecutorConfig.builder(topology).build());
            sumClass = executor.taskClass("sum");
            forkJoin = new ForkJoinPool(topology.cpuCount());
            nodes = topology.nodeCount();
            UtilizationHistory threads = new UtilizationHistory();
            UtilizationHistory memory = new UtilizationHistory();
            usage = (t, bytes) -> {
                threads.add(t);
                memory.add(bytes);
            };
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            executor.close();
            forkJoin.shutdown();
        }

        long sum(int from, int to) {
            long s = 0;
            for (int i = from; i < to; i++) {
                s += values[i];
            }
            return s;
        }
    }

    /** Work of the single task: 0 elements is the bare submit → run → completion overhead. */
    @State(Scope.Benchmark)
    public static class SingleTask {
        @Param({"0", "10000"})
        public int elementsPerTask;
    }

    /** Elements per leaf task of the fork-join sum over 2M longs. */
    @State(Scope.Benchmark)
    public static class ForkJoinSum {
        @Param({"1000", "10000", "100000"})
        public int elementsPerTask;
    }

    @Benchmark
    public long locusSingleTask(Pools p, SingleTask t) {
        LongAdder result = new LongAdder();
        int n = t.elementsPerTask;
        p.executor.submit(QueryContext.create(null), p.sumClass, TaskGraph.ANY_NODE, ctx -> result.add(p.sum(0, n)))
                .await();
        return result.sum();
    }

    @Benchmark
    public long forkJoinSingleTask(Pools p, SingleTask t) {
        int n = t.elementsPerTask;
        return p.forkJoin.submit(() -> p.sum(0, n)).join();
    }

    @Benchmark
    public long locusForkJoinSum(Pools p, ForkJoinSum f) {
        int chunk = f.elementsPerTask;
        int tasks = (TOTAL_ELEMENTS + chunk - 1) / chunk;
        LongAdder result = new LongAdder();
        TaskGraph graph = new TaskGraph("sum");
        TaskGraph.Node fork = graph.root(p.sumClass, TaskGraph.ANY_NODE, ctx -> { });
        for (int t = 0; t < tasks; t++) {
            int from = t * chunk;
            int to = Math.min(TOTAL_ELEMENTS, from + chunk);
            graph.node(p.sumClass, TaskGraph.ANY_NODE, ctx -> result.add(p.sum(from, to)), fork);
        }
        GraphHandle handle = p.executor.submit(graph, QueryContext.create(null));
        handle.await();
        return result.sum();
    }

    /** The fork-join sum with every leaf placed on a node (alternating), as scan tasks are; not accounted. */
    @Benchmark
    public long locusPlacedSum(Pools p, ForkJoinSum f) {
        return placedSum(p, f.elementsPerTask, null);
    }

    /**
     * The same leaves accounted to a part's utilization histories (the placer's per-task cost: two atomic adds when
     * a task starts, two when it ends); same-run ratio against {@link #locusPlacedSum}.
     */
    @Benchmark
    public long locusTrackedSum(Pools p, ForkJoinSum f) {
        return placedSum(p, f.elementsPerTask, p.usage);
    }

    private static long placedSum(Pools p, int chunk, UtilizationTarget target) {
        int tasks = (TOTAL_ELEMENTS + chunk - 1) / chunk;
        LongAdder result = new LongAdder();
        TaskGraph graph = new TaskGraph("placed sum");
        TaskGraph.Node fork = graph.root(p.sumClass, TaskGraph.ANY_NODE, ctx -> { });
        for (int t = 0; t < tasks; t++) {
            int from = t * chunk;
            int to = Math.min(TOTAL_ELEMENTS, from + chunk);
            graph.node(p.sumClass, t % p.nodes, target, ctx -> result.add(p.sum(from, to)), fork);
        }
        p.executor.submit(graph, QueryContext.create(null)).await();
        return result.sum();
    }

    @Benchmark
    public long forkJoinForkJoinSum(Pools p, ForkJoinSum f) {
        return p.forkJoin.invoke(new SumTask(p, 0, TOTAL_ELEMENTS, f.elementsPerTask));
    }

    private static final class SumTask extends RecursiveTask<Long> {
        private final Pools pools;
        private final int from;
        private final int to;
        private final int chunk;

        SumTask(Pools pools, int from, int to, int chunk) {
            this.pools = pools;
            this.from = from;
            this.to = to;
            this.chunk = chunk;
        }

        @Override
        protected Long compute() {
            if (to - from <= chunk) {
                return pools.sum(from, to);
            }
            int mid = (from + to) >>> 1;
            SumTask left = new SumTask(pools, from, mid, chunk);
            left.fork();
            long right = new SumTask(pools, mid, to, chunk).compute();
            return right + left.join();
        }
    }
}
