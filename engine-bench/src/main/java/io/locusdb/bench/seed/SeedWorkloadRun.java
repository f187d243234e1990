package io.locusdb.bench.seed;

import io.locusdb.bench.sim.MachineModel;
import io.locusdb.bench.sim.Scenario;
import io.locusdb.bench.sim.SimEvent;
import io.locusdb.bench.sim.SimResult;
import io.locusdb.core.exec.StealingPolicy;
import io.locusdb.core.exec.stealing.Calibration;
import io.locusdb.core.exec.stealing.StealingPolicies;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A scenario of the benchmark run against a real engine (embedded on any topology, or a server): its tables
 * generated and placed, every statement warmed up, then its closed-loop clients issuing prepared statements of
 * their query type without think time between their seconds {@code from} and {@code to}, the placer switched on at
 * the scenario's second, and a monitor that records every second the queries each client group completed and the
 * placer's view of every node (threads and memory throughput of tasks on their own data). Results are read to the
 * end. The outcome has the simulator's shape, so the same CSV, plot and checks apply.
 */
public final class SeedWorkloadRun {
    /**
     * @param rowsScale     factor on the scenario's rows per table
     * @param clientsScale  factor on every client group's count (at least one client each)
     * @param timeScale     factor on the scenario's seconds and phase times
     */
    public record Settings(double rowsScale, double clientsScale, double timeScale, long seed) {
    }

    private static final int WARM_UP_ROUNDS = 16;

    private SeedWorkloadRun() {
    }

    /** The stealing policy a scenario asks the engine for: the adaptive one with this machine's calibration. */
    public static StealingPolicy stealing(Scenario scenario) throws IOException {
        return switch (scenario.stealing()) {
            case "always" -> StealingPolicies.always();
            case "never" -> StealingPolicies.never();
            default -> Calibration.adaptivePolicy(Calibration.defaultPath());
        };
    }

    /** Runs {@code declared}, scaled by the settings, on {@code target}; warnings go to {@code warn}. */
    public static SimResult run(Scenario declared, SeedTarget target, Settings s, Consumer<String> warn)
            throws Exception {
        if (!declared.isSeedBenchmark()) {
            throw new IllegalArgumentException("scenario " + declared.name() + " uses table sizes, table groups or"
                    + " query templates of its own (a TPC-H-like mix); the real-engine driver runs the benchmark's"
                    + " TBLn tables and query types a, b and c only, so run it with ./locus simulate");
        }
        Scenario scenario = declared.scaled(s.rowsScale(), s.timeScale());
        long wallStart = System.nanoTime();
        int nodes = target.nodes();
        target.load(scenario, scenario.rows(), s.seed());
        warmUp(target, scenario, s.seed());
        int seconds = (int) Math.ceil(scenario.seconds());
        int groups = scenario.clients().size();
        AtomicLongArray completed = new AtomicLongArray(groups);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long start = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        List<Thread> clients = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            Scenario.ClientSpec spec = scenario.clients().get(g);
            int count = Math.max(1, (int) Math.round(spec.count() * s.clientsScale()));
            for (int t = 0; t < spec.tables().size(); t++) {
                String table = spec.tables().get(t);
                String joined = spec.tables().get((t + 1) % spec.tables().size());
                for (int k = 0; k < count; k++) {
                    int group = g;
                    long clientSeed = s.seed() * 7919 + clients.size();
                    clients.add(Thread.ofPlatform().name("seed-client-" + clients.size()).start(() -> {
                        try {
                            runClient(target, spec, table, joined, group, clientSeed, start, stop, completed);
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                            stop.set(true);
                        }
                    }));
                }
            }
        }
        double[][] done = new double[seconds][groups];
        double[][] own = new double[seconds][nodes];
        double[][] memory = new double[seconds][nodes];
        double[] imbalance = new double[seconds];
        long[] last = new long[groups];
        boolean placerAsked = false;
        for (int second = 0; second < seconds && !stop.get(); second++) {
            long sleep = (start + (second + 1) * 1_000_000_000L - System.nanoTime()) / 1_000_000;
            if (sleep > 0) {
                Thread.sleep(sleep);
            }
            for (int g = 0; g < groups; g++) {
                long now = completed.get(g);
                done[second][g] = now - last[g];
                last[g] = now;
            }
            SeedTarget.NodeSample sample = target.sample();
            double max = 0;
            double min = Double.MAX_VALUE;
            for (int n = 0; n < nodes; n++) {
                own[second][n] = sample.threads()[n];
                memory[second][n] = sample.memoryBytesPerSecond()[n] / 1e9;
                max = Math.max(max, own[second][n]);
                min = Math.min(min, own[second][n]);
            }
            imbalance[second] = max - min;
            if (!placerAsked && scenario.placerFrom() >= 0 && second + 1 >= scenario.placerFrom()) {
                placerAsked = true;
                if (!target.enablePlacer()) {
                    warn.accept("the placer of " + target.describe() + " runs as the server is configured; the"
                            + " scenario's switch-on at " + scenario.placerFrom() + " s is not applied");
                }
            }
        }
        stop.set(true);
        for (Thread t : clients) {
            t.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a benchmark client failed: " + failure.get(), failure.get());
        }
        List<SimEvent> events = target.events(startMillis);
        MachineModel machine = MachineModel.fake(target.describe(), nodes, Math.max(1, target.cpus() / nodes), 1, 1,
                1, 0, 0);
        double[] cores = new double[seconds];
        Arrays.fill(cores, target.cpus());
        // The engine does not account remote bytes: the share of stolen tasks stands for them.
        double stolen = target.stolenShare();
        return new SimResult(target.describe() + ", stealing " + scenario.stealing(), machine, scenario, done, own,
                own, memory, imbalance, events, stolen, stolen, cores, target.classThroughput(),
                (System.nanoTime() - wallStart) / 1e9, Map.of());
    }

    /**
     * The paper warms the database up before admitting its clients: every statement a client can issue runs a few
     * times first, so that the timeline starts with compiled code, not with the JIT.
     */
    private static void warmUp(SeedTarget target, Scenario scenario, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        try (SeedTarget.Client client = target.connect()) {
            for (Scenario.ClientSpec spec : scenario.clients()) {
                for (int t = 0; t < spec.tables().size(); t++) {
                    String table = spec.tables().get(t);
                    String joined = spec.tables().get((t + 1) % spec.tables().size());
                    for (int round = 0; round < WARM_UP_ROUNDS; round++) {
                        int column = SeedQuery.column(spec.query(), random);
                        long[] range = SeedQuery.range(column, spec.selectivity(), random);
                        client.run(spec.query(), table, joined, column, range[0], range[1]);
                    }
                }
            }
        }
    }

    private static void runClient(SeedTarget target, Scenario.ClientSpec spec, String table, String joined,
                                  int group, long seed, long start, AtomicBoolean stop, AtomicLongArray completed)
            throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        long from = start + (long) (spec.from() * 1e9);
        long to = start + (long) (spec.to() * 1e9);
        while (!stop.get() && System.nanoTime() < from) {
            Thread.sleep(Math.max(1, Math.min(100, (from - System.nanoTime()) / 1_000_000)));
        }
        try (SeedTarget.Client client = target.connect()) {
            while (!stop.get() && System.nanoTime() < to) {
                int column = SeedQuery.column(spec.query(), random);
                long[] range = SeedQuery.range(column, spec.selectivity(), random);
                client.run(spec.query(), table, joined, column, range[0], range[1]);
                completed.incrementAndGet(group);
            }
        }
    }
}
