package io.locusdb.bench.seed;

import io.locusdb.bench.sim.MachineModel;
import io.locusdb.bench.sim.Scenario;
import io.locusdb.bench.sim.SimEvent;
import io.locusdb.bench.sim.SimResult;
import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.exec.ExecutorStats;
import io.locusdb.core.exec.StealingPolicy;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.stealing.Calibration;
import io.locusdb.core.exec.stealing.StealingPolicies;
import io.locusdb.core.placer.PlacerEvent;
import io.locusdb.core.placer.PlacerSettings;
import io.locusdb.core.placer.UtilizationTracker;
import io.locusdb.core.result.QueryResult;
import io.locusdb.natives.topology.Topology;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A scenario of the benchmark run against the real engine (embedded, on any topology): its tables generated and
 * placed, its closed-loop clients issuing prepared statements of their query type without think time between
 * their seconds {@code from} and {@code to}, the placer switched on at the scenario's second, and a monitor that
 * records every second the queries each client group completed and the placer's view of every node (threads and
 * memory throughput of tasks on their own data). Results are read to the end in the client (no network here).
 * The outcome has the simulator's shape, so the same CSV, plot and checks apply.
 */
public final class SeedWorkloadRun {
    /**
     * @param rowsScale     factor on the scenario's rows per table
     * @param clientsScale  factor on every client group's count (at least one client each)
     * @param timeScale     factor on the scenario's seconds and phase times
     */
    public record Settings(Topology topology, double rowsScale, double clientsScale, double timeScale, long seed) {
    }

    private static final int WARM_UP_ROUNDS = 16;

    private SeedWorkloadRun() {
    }

    public static SimResult run(Scenario declared, Settings s) throws InterruptedException, IOException {
        Scenario scenario = declared.scaled(s.rowsScale(), s.timeScale());
        int nodes = s.topology().nodeCount();
        StealingPolicy stealing = switch (scenario.stealing()) {
            case "always" -> StealingPolicies.always();
            case "never" -> StealingPolicies.never();
            default -> Calibration.adaptivePolicy(Calibration.defaultPath());
        };
        LocusConfig config = LocusConfig.of(s.topology()).withDeltaMerge(null)
                .withExecutor(b -> b.stealing(stealing))
                .withPlacer(PlacerSettings.DEFAULT.withEnabled(false));
        long wallStart = System.nanoTime();
        try (LocusDB db = LocusDB.open(config)) {
            SeedTables.load(db, scenario, scenario.rows(), s.seed());
            warmUp(db, scenario, s.seed());
            int seconds = (int) Math.ceil(scenario.seconds());
            int groups = scenario.clients().size();
            AtomicLongArray completed = new AtomicLongArray(groups);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long start = System.nanoTime();
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
                                runClient(db, spec, table, joined, group, clientSeed, start, stop, completed);
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
            UtilizationTracker tracker = db.placer().tracker();
            long[] last = new long[groups];
            boolean enabled = false;
            for (int second = 0; second < seconds && !stop.get(); second++) {
                long wake = start + (second + 1) * 1_000_000_000L;
                long sleep = (wake - System.nanoTime()) / 1_000_000;
                if (sleep > 0) {
                    Thread.sleep(sleep);
                }
                for (int g = 0; g < groups; g++) {
                    long now = completed.get(g);
                    done[second][g] = now - last[g];
                    last[g] = now;
                }
                double max = 0;
                double min = Double.MAX_VALUE;
                for (int n = 0; n < nodes; n++) {
                    own[second][n] = tracker.nodeThreads(n).average(1_000_000);
                    memory[second][n] = tracker.nodeMemory(n).average(1_000_000) / 1e9;
                    max = Math.max(max, own[second][n]);
                    min = Math.min(min, own[second][n]);
                }
                imbalance[second] = max - min;
                if (!enabled && scenario.placerFrom() >= 0 && second + 1 >= scenario.placerFrom()) {
                    db.placer().setEnabled(true);
                    enabled = true;
                }
            }
            stop.set(true);
            for (Thread t : clients) {
                t.join();
            }
            if (failure.get() != null) {
                throw new IllegalStateException("a benchmark client failed: " + failure.get(), failure.get());
            }
            db.placer().quiesce(Duration.ofSeconds(60));
            long startMillis = System.currentTimeMillis() - (System.nanoTime() - start) / 1_000_000;
            List<SimEvent> events = new ArrayList<>();
            for (PlacerEvent e : db.placer().events().events()) {
                if (!e.source().equals(PlacerEvent.PLACER) || !e.succeeded()) {
                    continue;
                }
                double doneAt = (e.time().toEpochMilli() - startMillis) / 1000.0;
                double startedAt = doneAt - e.millis() / 1000;
                events.add(new SimEvent(startedAt, startedAt, doneAt, e.action().label(), e.owner(), e.partsBefore(),
                        e.partsAfter(), e.fromNode(), e.toNode(), e.reason()));
            }
            ExecutorStats stats = db.executor().stats();
            double stolen = stats.tasksRun() == 0 ? 0 : (double) stats.tasksStolen() / stats.tasksRun();
            Map<String, Double> classes = new LinkedHashMap<>();
            for (TaskClass c : db.executor().taskClasses().all()) {
                if (c.sampleCount() > 0) {
                    classes.put(c.name(), c.averageThroughput());
                }
            }
            MachineModel machine = MachineModel.fake("real engine on " + s.topology().kind().name()
                    .toLowerCase(Locale.ROOT) + " " + nodes + "-node topology", nodes,
                    Math.max(1, s.topology().cpuCount() / nodes), 1, 1, 1, 0, 0);
            double[] cores = new double[seconds];
            Arrays.fill(cores, s.topology().cpuCount());
            // No byte accounting of remote reads in the engine's counters: the share of stolen tasks stands for it.
            return new SimResult("real engine, stealing " + scenario.stealing(), machine, scenario, done, own, own,
                    memory, imbalance, events, stolen, stolen, cores, classes, (System.nanoTime() - wallStart) / 1e9);
        }
    }

    /**
     * The paper warms the database up before admitting its clients: every statement a client can issue runs a few
     * times first, so that the timeline starts with compiled code, not with the JIT.
     */
    private static void warmUp(LocusDB db, Scenario scenario, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        try (Session session = db.connect()) {
            for (Scenario.ClientSpec spec : scenario.clients()) {
                for (int t = 0; t < spec.tables().size(); t++) {
                    String table = spec.tables().get(t);
                    String joined = spec.tables().get((t + 1) % spec.tables().size());
                    for (int round = 0; round < WARM_UP_ROUNDS; round++) {
                        int column = SeedQuery.column(spec.query(), random);
                        PreparedQuery q = session.prepare(SeedQuery.sql(spec.query(), table, joined, column));
                        long[] range = SeedQuery.range(column, spec.selectivity(), random);
                        q.set(1, range[0]);
                        q.set(2, range[1]);
                        try (QueryResult r = q.execute()) {
                            while (r.nextBatch() != null) {
                                // read to the end
                            }
                        }
                    }
                }
            }
        }
    }

    private static void runClient(LocusDB db, Scenario.ClientSpec spec, String table, String joined, int group,
                                  long seed, long start, AtomicBoolean stop, AtomicLongArray completed)
            throws InterruptedException {
        SplittableRandom random = new SplittableRandom(seed);
        long from = start + (long) (spec.from() * 1e9);
        long to = start + (long) (spec.to() * 1e9);
        while (!stop.get() && System.nanoTime() < from) {
            Thread.sleep(Math.max(1, Math.min(100, (from - System.nanoTime()) / 1_000_000)));
        }
        try (Session session = db.connect()) {
            Map<Integer, PreparedQuery> prepared = new HashMap<>();
            while (!stop.get() && System.nanoTime() < to) {
                int column = SeedQuery.column(spec.query(), random);
                PreparedQuery q = prepared.computeIfAbsent(column,
                        c -> session.prepare(SeedQuery.sql(spec.query(), table, joined, c)));
                long[] range = SeedQuery.range(column, spec.selectivity(), random);
                q.set(1, range[0]);
                q.set(2, range[1]);
                try (QueryResult r = q.execute()) {
                    while (r.nextBatch() != null) {
                        // Read to the end: the engine streams, and an unread result would skip work.
                    }
                }
                completed.incrementAndGet(group);
            }
        }
    }
}
