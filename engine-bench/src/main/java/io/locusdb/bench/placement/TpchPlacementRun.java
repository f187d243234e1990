package io.locusdb.bench.placement;

import io.locusdb.bench.clients.MixQuery;
import io.locusdb.bench.clients.ThroughputReport;
import io.locusdb.bench.clients.ThroughputRun;
import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.placer.PlacerSettings;
import io.locusdb.core.placer.UtilizationTracker;
import io.locusdb.core.result.QueryResult;
import io.locusdb.natives.topology.Topology;
import io.locusdb.server.net.LocusServer;
import io.locusdb.server.net.ServerConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The adaptive-placement paper's Figure 16 on the real engine: JDBC clients run the TPC-H template mix (all 22
 * queries, drawn parameters, every answer checked against DuckDB's) against a server in this process whose every
 * table was loaded onto node 0. The engine runs with its default settings (the adaptive stealing policy, which keeps
 * memory-intensive tasks on their data's node) except the placer: off for a first phase, then switched on at
 * {@link Settings#enableAtSeconds()} in the placer-on run and never in the placer-off run. A monitor samples
 * throughput, each node's thread utilization and where each table's parts are.
 */
final class TpchPlacementRun {
    static final List<String> TABLES = List.of("lineitem", "orders", "partsupp", "part", "customer", "supplier",
            "nation", "region");

    /** What a run does. */
    record Settings(Topology topology, double scaleFactor, int clients, double seconds, double enableAtSeconds,
                    long sampleMillis, long placerPeriodMillis, long seed) {
    }

    /** The timeline and the clients' report (answers checked, latencies) of one run. */
    record Outcome(PlacementRun.Result result, ThroughputReport report) {
    }

    private TpchPlacementRun() {
    }

    static Outcome run(Settings s, List<MixQuery> mix, boolean placer) throws InterruptedException {
        LocusConfig config = LocusConfig.of(s.topology()).withPlacer(PlacerSettings.DEFAULT.withEnabled(false)
                .withPeriod(s.placerPeriodMillis(), Math.min(100, s.placerPeriodMillis())));
        LocusDB db = LocusDB.open(config);
        LocusServer server;
        try {
            load(db, s.scaleFactor());
            server = LocusServer.start(db, ServerConfig.defaults().with("port", "0").with("pg.port", "0")
                    .with("metrics.port", "-1"));
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        try (server) {
            AtomicLong completed = new AtomicLong();
            List<MixQuery> counted = mix.stream().map(q -> (MixQuery) new Counted(q, completed)).toList();
            CountDownLatch started = new CountDownLatch(1);
            AtomicReference<ThroughputReport> report = new AtomicReference<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Duration measured = Duration.ofMillis((long) (s.seconds() * 1000));
            Thread driver = Thread.ofPlatform().name("tpch-placement-clients").start(() -> {
                try {
                    report.set(new ThroughputRun(server.jdbcUrl(), new Properties(), counted)
                            .run(s.clients(), Duration.ZERO, measured, s.seed(), started::countDown));
                } catch (Throwable t) {
                    failure.set(t);
                } finally {
                    started.countDown();
                }
            });
            // The clients connect and prepare every text first; the timeline starts when they are let go.
            started.await();
            List<PlacementRun.Sample> samples = new ArrayList<>();
            UtilizationTracker tracker = db.placer().tracker();
            int nodes = s.topology().nodeCount();
            long start = System.nanoTime();
            long startMillis = System.currentTimeMillis();
            long last = completed.get();
            long lastNanos = start;
            boolean enabled = false;
            while (driver.isAlive() && failure.get() == null) {
                Thread.sleep(s.sampleMillis());
                long now = System.nanoTime();
                double seconds = (now - start) / 1e9;
                if (placer && !enabled && seconds >= s.enableAtSeconds()) {
                    db.placer().setEnabled(true);
                    enabled = true;
                }
                long done = completed.get();
                if (seconds <= s.seconds()) {
                    samples.add(new PlacementRun.Sample(seconds, (done - last) / ((now - lastNanos) / 1e9),
                            PlacementRun.nodeThreads(tracker, nodes, s.sampleMillis()),
                            PlacementRun.tableNodes(db, TABLES)));
                }
                last = done;
                lastNanos = now;
            }
            driver.join();
            if (failure.get() != null) {
                throw new IllegalStateException("the clients failed: " + failure.get(), failure.get());
            }
            return new Outcome(new PlacementRun.Result(placer, TABLES, samples, db.placer().events().events(),
                    startMillis, completed.get()), report.get());
        }
    }

    /** TPC-H at {@code sf}, every table in one part on node 0. */
    private static void load(LocusDB db, double sf) {
        try (Session session = db.connect()) {
            try (QueryResult r = session.execute("LOAD TPCH SCALE " + sf + " PARTS 1")) {
                r.updateCount();
            }
            for (String table : TABLES) {
                session.execute("ALTER TABLE " + table + " MERGE PARTS TO NODE 0").close();
            }
        }
    }

    /** A mix query that counts its checked answers, for the timeline. */
    private record Counted(MixQuery query, AtomicLong completed) implements MixQuery {
        @Override
        public String name() {
            return query.name();
        }

        @Override
        public String sql() {
            return query.sql();
        }

        @Override
        public PreparedStatement prepare(Connection connection) throws SQLException {
            return query.prepare(connection);
        }

        @Override
        public long runAndCheck(PreparedStatement statement, SplittableRandom random) throws SQLException {
            long rows = query.runAndCheck(statement, random);
            completed.incrementAndGet();
            return rows;
        }
    }
}
