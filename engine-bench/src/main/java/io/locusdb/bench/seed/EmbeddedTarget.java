package io.locusdb.bench.seed;

import io.locusdb.bench.sim.Scenario;
import io.locusdb.bench.sim.SimEvent;
import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.exec.ExecutorStats;
import io.locusdb.core.exec.StealingPolicy;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.placer.PlacerEvent;
import io.locusdb.core.placer.PlacerSettings;
import io.locusdb.core.placer.UtilizationTracker;
import io.locusdb.core.result.QueryResult;
import io.locusdb.natives.topology.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** The benchmark against an engine in this process, on any topology, with the scenario's stealing policy. */
public final class EmbeddedTarget implements SeedTarget {
    private final Topology topology;
    private final LocusDB db;

    public EmbeddedTarget(Topology topology, StealingPolicy stealing) {
        this.topology = topology;
        this.db = LocusDB.open(LocusConfig.of(topology).withDeltaMerge(null).withExecutor(b -> b.stealing(stealing))
                .withPlacer(PlacerSettings.DEFAULT.withEnabled(false)));
    }

    /** The engine, for tests that look at what the benchmark built. */
    LocusDB database() {
        return db;
    }

    @Override
    public int nodes() {
        return topology.nodeCount();
    }

    @Override
    public int cpus() {
        return topology.cpuCount();
    }

    @Override
    public String describe() {
        return "real engine on " + topology.kind().label() + " " + nodes() + "-node topology";
    }

    @Override
    public void load(Scenario scenario, long rows, long seed) {
        try (Session session = db.connect()) {
            for (Scenario.TableSpec spec : scenario.tables()) {
                session.execute(SeedTables.createTable(spec.name())).close();
                SplittableRandom random = SeedTables.random(spec.name(), seed);
                for (long from = 0; from < rows; from += SeedTables.BATCH) {
                    db.catalog().table(spec.name()).insert(SeedTables.rows(from, Math.min(rows,
                            from + SeedTables.BATCH), random));
                }
                for (String statement : SeedTables.placement(spec, nodes())) {
                    session.execute(statement).close();
                }
            }
        }
    }

    @Override
    public Client connect() {
        Session session = db.connect();
        Map<String, PreparedQuery> prepared = new HashMap<>();
        return new Client() {
            @Override
            public void run(char type, String table, String joined, int column, long low, long high) {
                String sql = SeedQuery.sql(type, table, joined, column);
                PreparedQuery q = prepared.computeIfAbsent(sql, session::prepare);
                q.set(1, low);
                q.set(2, high);
                try (QueryResult r = q.execute()) {
                    while (r.nextBatch() != null) {
                        // Read to the end: the engine streams, and an unread result would skip work.
                    }
                }
            }

            @Override
            public void close() {
                session.close();
            }
        };
    }

    @Override
    public boolean enablePlacer() {
        db.placer().setEnabled(true);
        return true;
    }

    @Override
    public NodeSample sample() {
        UtilizationTracker tracker = db.placer().tracker();
        double[] threads = new double[nodes()];
        double[] memory = new double[nodes()];
        for (int n = 0; n < nodes(); n++) {
            threads[n] = tracker.nodeThreads(n).average(1_000_000);
            memory[n] = tracker.nodeMemory(n).average(1_000_000);
        }
        return new NodeSample(threads, memory);
    }

    @Override
    public List<SimEvent> events(long sinceEpochMillis) throws InterruptedException {
        db.placer().quiesce(Duration.ofSeconds(60));
        List<SimEvent> events = new ArrayList<>();
        for (PlacerEvent e : db.placer().events().events()) {
            if (e.source().equals(PlacerEvent.PLACER) && e.succeeded()) {
                double doneAt = (e.time().toEpochMilli() - sinceEpochMillis) / 1000.0;
                double startedAt = doneAt - e.millis() / 1000;
                events.add(new SimEvent(startedAt, startedAt, doneAt, e.action().label(), e.owner(),
                        e.partsBefore(), e.partsAfter(), e.fromNode(), e.toNode(), e.reason()));
            }
        }
        return events;
    }

    @Override
    public double stolenShare() {
        ExecutorStats stats = db.executor().stats();
        return stats.tasksRun() == 0 ? 0 : (double) stats.tasksStolen() / stats.tasksRun();
    }

    @Override
    public Map<String, Double> classThroughput() {
        Map<String, Double> classes = new LinkedHashMap<>();
        for (TaskClass c : db.executor().taskClasses().all()) {
            if (c.sampleCount() > 0) {
                classes.put(c.name(), c.averageThroughput());
            }
        }
        return classes;
    }

    @Override
    public void close() {
        db.close();
    }
}
