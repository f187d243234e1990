package io.locusdb.bench.calibrate;

import io.locusdb.core.exec.ExecutorConfig;
import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.exec.stealing.StealingPolicies;
import io.locusdb.core.exec.StealingPolicy;
import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.memory.NodeSegment;
import io.locusdb.natives.topology.Topology;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The adaptive-placement paper's calibration experiment (§7): vectors of random doubles on half of the nodes, one
 * client per vector, each query summing {@code v^n} over its vector with as many tasks as the data node has
 * hardware contexts, all tasks of one class. For growing n the work turns from memory-bound to CPU-bound; the
 * throughput with inter-node stealing always on and always off is compared, and the class's memory throughput at
 * the point where stealing starts to win becomes the stealing threshold.
 */
public final class CalibrationExperiment {
    /** Experiment settings; {@code vectorBytes} per vector, {@code vectorsPerDataNode} clients per data node. */
    public record Settings(Topology topology, long vectorBytes, int vectorsPerDataNode, int[] powers,
                           double secondsPerPoint, double warmupSeconds, boolean adaptiveCurve) {
        public Settings {
            if (topology.nodeCount() < 2) {
                throw new IllegalArgumentException("calibration needs at least two nodes (use a fake topology,"
                        + " e.g. --topology fake:2, on a one-node machine); this topology has one");
            }
            if (vectorBytes < 4096 || vectorsPerDataNode < 1 || powers.length == 0 || !(secondsPerPoint > 0)) {
                throw new IllegalArgumentException("vectors of at least 4 KiB, at least one vector per node, one"
                        + " power and a positive duration are needed");
            }
            for (int i = 0; i < powers.length; i++) {
                if (powers[i] < 1) {
                    throw new IllegalArgumentException("powers must be at least 1, got " + powers[i]);
                }
                if (i > 0 && powers[i] <= powers[i - 1]) {
                    throw new IllegalArgumentException("powers must be given in ascending order, got "
                            + java.util.Arrays.toString(powers));
                }
            }
            if (!(warmupSeconds >= 0)) {
                throw new IllegalArgumentException("warm-up must be 0 or more seconds, got " + warmupSeconds);
            }
        }
    }

    /** One measured point of a curve. */
    public record Point(int power, String mode, double queriesPerSecond, double elementsPerSecond,
                        double classThroughput, long tasks, long stolen) {
    }

    private final Settings settings;
    private final Consumer<String> log;

    public CalibrationExperiment(Settings settings, Consumer<String> log) {
        this.settings = settings;
        this.log = log;
    }

    /** Runs the never/always curves (and the adaptive one with the threshold found); returns every point. */
    public Result run() {
        Topology topology = settings.topology();
        int dataNodes = topology.nodeCount() / 2;
        NodeMemory memory = new NodeMemory(topology);
        try (Arena arena = Arena.ofShared()) {
            List<Vector> vectors = new ArrayList<>();
            for (int node = 0; node < dataNodes; node++) {
                for (int v = 0; v < settings.vectorsPerDataNode(); v++) {
                    vectors.add(Vector.random(memory, arena, node, settings.vectorBytes(), 31L * node + v));
                }
            }
            log.accept(String.format("%d vectors of %d MiB of random doubles on nodes 0..%d (of %d), %d clients",
                    vectors.size(), settings.vectorBytes() >> 20, dataNodes - 1, topology.nodeCount(),
                    vectors.size()));
            // The first point would otherwise pay for JIT compilation (seconds under emulation).
            measure(vectors, settings.powers()[0], "warm-up", StealingPolicies.always(),
                    Math.max(1.0, 3 * settings.warmupSeconds()), 0.1);
            List<Point> never = new ArrayList<>();
            List<Point> always = new ArrayList<>();
            for (int power : settings.powers()) {
                never.add(measure(vectors, power, "never", StealingPolicies.never()));
                always.add(measure(vectors, power, "always", StealingPolicies.always()));
                log.accept(String.format("n=%-3d never %9.2f M elements/s  always %9.2f M elements/s  class %9.1f MB/s",
                        power, never.getLast().elementsPerSecond() / 1e6, always.getLast().elementsPerSecond() / 1e6,
                        never.getLast().classThroughput() / 1e6));
            }
            Threshold threshold = Threshold.from(never, always);
            if (!settings.adaptiveCurve()) {
                return new Result(never, always, List.of(), threshold, never, always);
            }
            // Second pass with the threshold: all three policies measured back to back per power. The JIT
            // specializes the v^n loop for the powers it has seen, so only neighbouring measurements compare
            // fairly; the first pass ran every power before any adaptive point existed.
            List<Point> never2 = new ArrayList<>();
            List<Point> always2 = new ArrayList<>();
            List<Point> adaptive = new ArrayList<>();
            for (int power : settings.powers()) {
                never2.add(measure(vectors, power, "never", StealingPolicies.never()));
                always2.add(measure(vectors, power, "always", StealingPolicies.always()));
                adaptive.add(measure(vectors, power, "adaptive",
                        StealingPolicies.adaptive(threshold.bytesPerSecond())));
            }
            return new Result(never2, always2, adaptive, threshold, never, always);
        }
    }

    private Point measure(List<Vector> vectors, int power, String mode, StealingPolicy policy) {
        return measure(vectors, power, mode, policy, settings.warmupSeconds(), settings.secondsPerPoint());
    }

    /** Throughput is counted per finished task (elements summed), which resolves far finer than whole queries. */
    private Point measure(List<Vector> vectors, int power, String mode, StealingPolicy policy, double warmupSeconds,
                          double seconds) {
        Topology topology = settings.topology();
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(topology).stealing(policy)
                .threadNamePrefix("calibrate").build())) {
            TaskClass sumClass = executor.taskClass("calibration-sum");
            AtomicBoolean measuring = new AtomicBoolean();
            AtomicBoolean stop = new AtomicBoolean();
            LongAdder queries = new LongAdder();
            LongAdder elements = new LongAdder();
            List<Thread> clients = new ArrayList<>();
            java.util.concurrent.atomic.AtomicReference<Throwable> clientFailure =
                    new java.util.concurrent.atomic.AtomicReference<>();
            for (Vector vector : vectors) {
                int tasksPerQuery = topology.node(vector.node).cpus().size();
                clients.add(Thread.ofPlatform().name("calibration-client").start(() -> {
                    try {
                        while (!stop.get()) {
                            sumPower(executor, sumClass, vector, power, tasksPerQuery, measuring, elements).await();
                            if (measuring.get()) {
                                queries.increment();
                            }
                        }
                    } catch (RuntimeException | Error e) {
                        clientFailure.compareAndSet(null, e);
                        stop.set(true);
                    }
                }));
            }
            sleep(warmupSeconds);
            long before = executor.freshStats().tasksRun();
            long stolenBefore = executor.freshStats().tasksStolen();
            measuring.set(true);
            long start = System.nanoTime();
            sleep(seconds);
            measuring.set(false);
            double elapsed = (System.nanoTime() - start) / 1e9;
            double classThroughput = sumClass.averageThroughput();
            long tasks = executor.freshStats().tasksRun() - before;
            long stolen = executor.freshStats().tasksStolen() - stolenBefore;
            stop.set(true);
            for (Thread t : clients) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
            if (clientFailure.get() != null) {
                throw new IllegalStateException("a calibration client failed at n=" + power + " (" + mode + ")",
                        clientFailure.get());
            }
            return new Point(power, mode, queries.sum() / elapsed, elements.sum() / elapsed, classThroughput, tasks,
                    stolen);
        }
    }

    private static GraphHandle sumPower(NumaExecutor executor, TaskClass sumClass, Vector vector, int power,
                                        int tasks, AtomicBoolean measuring, LongAdder elements) {
        TaskGraph graph = new TaskGraph("sum-power");
        TaskGraph.Node fork = graph.root(sumClass, vector.node, ctx -> { });
        double[] partials = new double[tasks];
        for (int t = 0; t < tasks; t++) {
            long from = vector.length * t / tasks;
            long to = vector.length * (t + 1) / tasks;
            int slot = t;
            graph.node(sumClass, vector.node, ctx -> {
                partials[slot] = vector.sumPower(from, to, power, measuring, elements);
                ctx.addBytes((to - from) * Double.BYTES);
            }, fork);
        }
        return executor.submit(graph, QueryContext.create(null));
    }

    private static void sleep(double seconds) {
        try {
            Thread.sleep((long) (seconds * 1000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** A vector of random doubles bound to one node. */
    static final class Vector {
        private static final long PROGRESS_CHUNK = 1 << 16;

        final int node;
        final long length;
        final MemorySegment data;

        private Vector(int node, MemorySegment data) {
            this.node = node;
            this.data = data;
            this.length = data.byteSize() / Double.BYTES;
        }

        static Vector random(NodeMemory memory, Arena arena, int node, long bytes, long seed) {
            NodeSegment segment = memory.allocate(bytes, MemoryPolicy.bind(node), arena);
            MemorySegment data = segment.segment();
            SplittableRandom random = new SplittableRandom(seed);
            long n = data.byteSize() / Double.BYTES;
            for (long i = 0; i < n; i++) {
                data.setAtIndex(ValueLayout.JAVA_DOUBLE, i, 0.5 + random.nextDouble());
            }
            return new Vector(node, data);
        }

        /**
         * The paper's loop: each element raised to {@code n} by repeated multiplication, then summed. Progress is
         * counted per chunk, so long tasks (high n) still register within a short measuring window.
         */
        double sumPower(long from, long to, int n, AtomicBoolean measuring, LongAdder elements) {
            double sum = 0;
            for (long chunk = from; chunk < to; chunk += PROGRESS_CHUNK) {
                long end = Math.min(to, chunk + PROGRESS_CHUNK);
                for (long i = chunk; i < end; i++) {
                    double v = data.getAtIndex(ValueLayout.JAVA_DOUBLE, i);
                    double p = v;
                    for (int k = 1; k < n; k++) {
                        p *= v;
                    }
                    sum += p;
                }
                if (measuring.get()) {
                    elements.add(end - chunk);
                }
            }
            return sum;
        }
    }

    /**
     * The switch point: the smallest power from which stealing is at least as fast as not stealing (within
     * {@link #TIE} of it: a tie is no reason to forbid stealing) for every larger power too, so one noisy point
     * does not make a switch. The threshold lies between the class throughput just before the switch (stealing
     * hurt) and at it (stealing helped).
     */
    public record Threshold(double bytesPerSecond, int switchPower, String explanation) {
        static final double TIE = 0.03;

        static Threshold from(List<Point> never, List<Point> always) {
            int n = never.size();
            int switchIndex = n;
            for (int i = n - 1; i >= 0; i--) {
                if (always.get(i).elementsPerSecond() >= (1 - TIE) * never.get(i).elementsPerSecond()) {
                    switchIndex = i;
                } else {
                    break;
                }
            }
            double maxClass = never.stream().mapToDouble(Point::classThroughput).max().orElse(0);
            if (switchIndex == 0) {
                // Twice the peak, not just above it: with stealing off, local tasks run alone and faster, and an
                // average hovering near the threshold would switch stealing off for good.
                return new Threshold(Math.max(1, maxClass * 2), never.getFirst().power(),
                        "stealing was never slower: no switch point; threshold set at twice the most"
                                + " memory-intensive class throughput measured, so every class like these may steal");
            }
            if (switchIndex == n) {
                double leastIntensive = never.stream().mapToDouble(Point::classThroughput).filter(t -> t > 0).min()
                        .orElse(1);
                return new Threshold(Math.max(1, leastIntensive * 0.8), -1,
                        "stealing did not stay ahead from any power on (it was slower at the highest power): no"
                                + " switch point in range; threshold set 20% below the least memory-intensive class"
                                + " throughput measured, so only less memory-intensive classes may steal");
            }
            double before = never.get(switchIndex - 1).classThroughput();
            double at = never.get(switchIndex).classThroughput();
            return new Threshold(Math.max(1, (before + at) / 2), never.get(switchIndex).power(),
                    String.format("stealing wins from n=%d on; threshold midway between the class throughput at"
                            + " n=%d (%.1f MB/s) and n=%d (%.1f MB/s)", never.get(switchIndex).power(),
                            never.get(switchIndex - 1).power(), before / 1e6, never.get(switchIndex).power(),
                            at / 1e6));
        }
    }

    /**
     * {@code never}, {@code always} and {@code adaptive}: the curves to show (from the second pass when there is an
     * adaptive curve); {@code thresholdNever} and {@code thresholdAlways}: the first pass the threshold came from.
     */
    public record Result(List<Point> never, List<Point> always, List<Point> adaptive, Threshold threshold,
                         List<Point> thresholdNever, List<Point> thresholdAlways) {
    }
}
