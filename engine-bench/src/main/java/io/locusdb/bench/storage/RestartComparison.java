package io.locusdb.bench.storage;

import io.locusdb.bench.query.TpchTablesForDuck;
import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.durable.DataDirectoryException;
import io.locusdb.core.durable.Durability;
import io.locusdb.core.durable.DurableStore;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.workload.TpchQuery;
import io.locusdb.natives.topology.Topologies;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;

/**
 * {@code ./locus bench restart [SF=1] [repetitions=3] [dir=target/restart-data]}: how fast a database is back after a
 * restart, in one run:
 * <ul>
 *   <li>LocusDB generating TPC-H in memory (what every start cost before the data directory), and into a data
 *       directory (generation plus the checkpoint);</li>
 *   <li>LocusDB restarting from the data directory until Q6 has answered (median of the repetitions);</li>
 *   <li>DuckDB opening its own database file of the same tables until Q6 has answered (median), each round right
 *       after one of LocusDB's, so that the shared host's noise falls on both alike;</li>
 *   <li>scan speed (Q6, Q1) on the freshly generated tables and on the restarted ones, medians after warm-up.</li>
 * </ul>
 * Files are read from the page cache on both sides (they were just written). The restarts are timed in a warm JVM,
 * as DuckDB's are (its code is native): the first restart in the JVM is printed apart, and the planner warms up on
 * freshly planned statements before the timed ones.
 */
public final class RestartComparison {
    private static final String Q6 = TpchQuery.Q6.withDefaults().sql();
    private static final String Q1 = TpchQuery.Q1.withDefaults().sql();
    private static final long WARM_UP_NANOS = 4_000_000_000L;
    /**
     * Restarts before the timed ones: the code a restart runs once per part or column is compiled only after a few
     * (with two, the first timed rounds ran 1.5 times as long as the last ones).
     */
    private static final int WARM_RESTARTS = 8;

    private RestartComparison() {
    }

    public static void main(String[] args) throws Exception {
        double sf = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = Path.of(args.length > 2 ? args[2] : "target/restart-data").toAbsolutePath();
        Path locusDir = dir.resolve("locus-sf" + sf);
        Path duckFile = dir.resolve("duck-sf" + sf + ".db");
        deleteTree(locusDir);
        Files.deleteIfExists(duckFile);
        Files.createDirectories(dir);
        LocusConfig base = LocusConfig.of(Topologies.fromEnvironment()).withDeltaMerge(null);
        System.out.printf(Locale.ROOT, "TPC-H SF%s, %d repetitions, data in %s; %d CPUs, %s%n", sf, reps, dir,
                Runtime.getRuntime().availableProcessors(), base.topology());

        // The in-memory database stays open: its scans are the baseline for the restarted one's, measured side by
        // side at the end, once the JIT has compiled both.
        LocusDB fresh = LocusDB.open(base);
        LocusDB restarted = null;
        double[][] scans;
        List<Double> restarts = new ArrayList<>();
        List<Double> recoveries = new ArrayList<>();
        List<Double> wholly = new ArrayList<>();
        List<Double> duckOpens = new ArrayList<>();
        double inMemory;
        double generated;
        try {
            try (Session s = fresh.connect()) {
                long t0 = System.nanoTime();
                run(s, "LOAD TPCH SCALE " + sf);
                inMemory = seconds(t0);
            }
            try (LocusDB db = LocusDB.open(base.withDurability(Durability.in(locusDir)));
                 Session s = db.connect()) {
                long t0 = System.nanoTime();
                run(s, "LOAD TPCH SCALE " + sf);
                generated = seconds(t0);
            }
            System.out.printf(Locale.ROOT, "LocusDB generate in memory          %8.2f s%n", inMemory);
            System.out.printf(Locale.ROOT, "LocusDB generate into data directory %7.2f s  (%.0f MiB on disk)%n",
                    generated, size(locusDir) / 1048576.0);
            Path tbl = LoadComparison.writeTbl(dir, sf);
            long build = System.nanoTime();
            try (Connection duck = DriverManager.getConnection("jdbc:duckdb:" + duckFile);
                 Statement s = duck.createStatement()) {
                LoadComparison.loadDuck(s, tbl);
                TpchTablesForDuck.load(s, dir, sf);
                s.execute("CHECKPOINT");
            }
            System.out.printf(Locale.ROOT, "DuckDB build its database file       %7.2f s  (%.0f MiB)%n", seconds(build),
                    Files.size(duckFile) / 1048576.0);
            duckOpenAndQ6(duckFile);
            // The first restart in this JVM loads and compiles the planner and the scan path: printed, not counted.
            double coldRestart = restartAndClose(base, locusDir);
            // Then the JVM warms up, as DuckDB's native code needs not: statements planned afresh (another
            // restarted database starts with an empty plan cache) and more restarts, each with one of DuckDB's.
            warmUp(fresh, WARM_UP_NANOS);
            for (int r = 0; r < WARM_RESTARTS; r++) {
                restartAndClose(base, locusDir);
                duckOpenAndQ6(duckFile);
            }
            System.out.printf(Locale.ROOT, "LocusDB first restart in this JVM    %7.2f s  (classes loaded, code"
                    + " compiled; not counted below)%n", coldRestart);
            // LocusDB's restarts and DuckDB's opens alternate, so that the shared host's noise falls on both alike.
            for (int r = 0; r < reps; r++) {
                long t0 = System.nanoTime();
                LocusDB db = LocusDB.open(base.withDurability(Durability.in(locusDir)));
                try (Session s = db.connect()) {
                    firstAnswer(s);
                    restarts.add(seconds(t0));
                }
                DurableStore store = db.durableStore().orElseThrow();
                // Columns Q6 did not read arrive in the background; the scans below run on a database wholly in
                // memory, as a long-running server's are.
                store.awaitPreload();
                wholly.add(seconds(t0));
                recoveries.add(store.recoveryReport().seconds());
                if (store.recoveryReport().tables() != 8) {
                    db.close();
                    throw new DataDirectoryException(DataDirectoryException.Problem.BAD_MANIFEST, locusDir,
                            "restart found " + store.recoveryReport().tables() + " tables, not 8");
                }
                if (r == reps - 1) {
                    restarted = db;
                } else {
                    db.close();
                }
                duckOpens.add(duckOpenAndQ6(duckFile));
            }
            scans = scanMedians(fresh, restarted);
        } finally {
            fresh.close();
            if (restarted != null) {
                restarted.close();
            }
        }

        double restart = median(restarts);
        double duckOpen = median(duckOpens);
        System.out.printf(Locale.ROOT, "LocusDB restart until Q6 answered    %7.2f s  (median; all %s)%n", restart,
                restarts);
        System.out.printf(Locale.ROOT, "  of which opening the data directory %6.2f s  (median: checksums of every"
                + " part file, the log's tail)%n", median(recoveries));
        System.out.printf(Locale.ROOT, "LocusDB restart until every column is in memory %5.2f s  (median; all %s)%n",
                median(wholly), wholly);
        System.out.printf(Locale.ROOT, "DuckDB open until Q6 answered        %7.2f s  (median; all %s)%n", duckOpen,
                duckOpens);
        System.out.printf(Locale.ROOT, "restart / in-memory generation        %6.3f   goal < 0.2%n",
                restart / inMemory);
        System.out.printf(Locale.ROOT, "LocusDB restart / DuckDB open         %6.3f   goal <= 1.0%n",
                restart / duckOpen);
        System.out.printf(Locale.ROOT, "scan after restart / fresh: Q6 %.3f (%.1f vs %.1f ms), Q1 %.3f (%.1f vs %.1f"
                        + " ms)   goal 1.0%n", scans[1][0] / scans[0][0], scans[1][0], scans[0][0],
                scans[1][1] / scans[0][1], scans[1][1], scans[0][1]);
    }

    /** DuckDB opening its file until Q6 has answered, in seconds. */
    private static double duckOpenAndQ6(Path duckFile) throws SQLException {
        long t0 = System.nanoTime();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:" + duckFile);
             Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(Q6)) {
            rs.next();
        }
        return seconds(t0);
    }

    private static double restartAndClose(LocusConfig base, Path locusDir) throws InterruptedException {
        long t0 = System.nanoTime();
        try (LocusDB db = LocusDB.open(base.withDurability(Durability.in(locusDir)));
             Session s = db.connect()) {
            firstAnswer(s);
            double seconds = seconds(t0);
            db.durableStore().orElseThrow().awaitPreload();
            return seconds;
        }
    }

    /**
     * Plans single-table statements with random substitution parameters (new text, new plan), running one in ten:
     * a server that has been up a while has planned thousands of statements, and only then is Calcite's planning
     * code compiled (a Q6 plans in about 1.5 ms then, 8-10 ms after the few dozen plannings that 4 s of running Q1
     * and Q6 give; Xeon, family 6 model 207).
     */
    private static void warmUp(LocusDB db, long nanos) {
        Random random = new Random(42);
        try (Session s = db.connect()) {
            long until = System.nanoTime() + nanos;
            for (int i = 0; System.nanoTime() < until; i++) {
                String q6 = TpchQuery.Q6.withRandomParameters(random).sql();
                String q1 = TpchQuery.Q1.withRandomParameters(random).sql();
                if (i % 10 == 0) {
                    firstAnswer(s, q6);
                    firstAnswer(s, q1);
                } else {
                    s.prepare(q6);
                    s.prepare(q1);
                }
            }
        }
    }

    private static void firstAnswer(Session s) {
        firstAnswer(s, Q6);
    }

    private static void firstAnswer(Session s, String sql) {
        try (QueryResult r = s.execute(sql)) {
            r.toList();
        }
    }

    /**
     * Q6 and Q1 medians (ms) on each database, {@code [database][query]}: 2 s of warm-up each, then 9 rounds that
     * alternate between the databases, so that noise falls on both alike.
     */
    private static double[][] scanMedians(LocusDB... databases) {
        String[] queries = {Q6, Q1};
        double[][] out = new double[databases.length][queries.length];
        for (int q = 0; q < queries.length; q++) {
            List<List<Double>> times = new ArrayList<>();
            for (LocusDB db : databases) {
                times.add(new ArrayList<>());
                try (Session s = db.connect()) {
                    long until = System.nanoTime() + 2_000_000_000L;
                    while (System.nanoTime() < until) {
                        firstAnswer(s, queries[q]);
                    }
                }
            }
            for (int i = 0; i < 9; i++) {
                for (int d = 0; d < databases.length; d++) {
                    try (Session s = databases[d].connect()) {
                        long t0 = System.nanoTime();
                        firstAnswer(s, queries[q]);
                        times.get(d).add((System.nanoTime() - t0) / 1e6);
                    }
                }
            }
            for (int d = 0; d < databases.length; d++) {
                out[d][q] = median(times.get(d));
            }
        }
        return out;
    }

    private static void run(Session s, String sql) {
        try (QueryResult r = s.execute(sql)) {
            r.updateCount();
        }
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    /** Deletes a directory and everything in it; nothing when it does not exist. */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
