package io.locusdb.bench.start;

import io.locusdb.bench.query.TpchTablesForDuck;
import io.locusdb.bench.storage.LoadComparison;
import io.locusdb.core.workload.TpchQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./locus bench first-query [SF=1] [rounds=3] [dir=target/first-query-data] [serve options]}: what a user
 * meets right after a start. Each round starts a fresh server process exactly as users do ({@code ./locus serve
 * --data DIR} and the serve options, the same data directory every round, made once by {@code ./locus serve --tpch
 * SF}) and times, over JDBC: the process start
 * until the server says it is listening, the first run of Q1, Q6, Q3 (DuckDB's texts) and a range count, then the
 * same queries warm (median of {@value #WARM_RUNS} runs each), and the server's resident memory. Right after each,
 * DuckDB opens its database file of the same tables (in this process: its code is native, and a new connection to
 * a file is a new database instance) and runs the same first and warm queries. Medians over the rounds, side by
 * side, with the goals of issue 45: every first query at most twice its warm time and at most DuckDB's first, and
 * listening within a second.
 */
public final class FirstQueryComparison {
    static final int WARM_RUNS = 5;
    private static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put("Q1", TpchQuery.Q1.withDefaults().sql());
        QUERIES.put("Q6", TpchQuery.Q6.withDefaults().sql());
        QUERIES.put("Q3", TpchQuery.Q3.withDefaults().sql());
        QUERIES.put("range count", "SELECT count(*) FROM lineitem WHERE l_shipdate BETWEEN DATE '1995-03-01'"
                + " AND DATE '1995-03-07'");
    }

    private FirstQueryComparison() {
    }

    /** One round of one engine: seconds to be ready, and per query its first and warm seconds. */
    record Round(double ready, Map<String, Double> first, Map<String, Double> warm, long residentBytes) {
    }

    public static void main(String[] args) throws Exception {
        double sf = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = Path.of(args.length > 2 ? args[2] : "target/first-query-data").toAbsolutePath();
        // Anything after the folder goes to ./locus serve as it is (e.g. --warm-up off, to compare), except
        // --after-warm-up: then the first queries wait until the server says its warm-up is done (what a user
        // meets who comes some seconds after the start), and the report says how long that took.
        List<String> serveOptions = new ArrayList<>(args.length > 3 ? List.of(args).subList(3, args.length)
                : List.of());
        boolean afterWarmUp = serveOptions.remove("--after-warm-up");
        String root = System.getenv("LOCUS_ROOT");
        if (root == null) {
            System.err.println("first-query: run it as ./locus bench first-query (it starts ./locus serve)");
            System.exit(2);
        }
        Path locus = Path.of(root, "locus");
        Path data = dir.resolve("locus-sf" + sf);
        Path duckFile = dir.resolve("duck-sf" + sf + ".db");
        Files.createDirectories(dir);
        System.out.printf(Locale.ROOT, "first-query: TPC-H SF%s, %d rounds, data in %s; %d CPUs%n", sf, rounds, dir,
                Runtime.getRuntime().availableProcessors());
        prepareLocus(locus, data, sf);
        prepareDuck(dir, duckFile, sf);
        List<Round> locusRounds = new ArrayList<>();
        List<Round> duckRounds = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            locusRounds.add(locusRound(locus, data, serveOptions, afterWarmUp));
            duckRounds.add(duckRound(duckFile));
            System.out.printf(Locale.ROOT, "round %d: LocusDB listening after %.2f s, first Q1 %.3f s; DuckDB open"
                    + " %.3f s, first Q1 %.3f s%n", r + 1, locusRounds.getLast().ready(),
                    locusRounds.getLast().first().get("Q1"), duckRounds.getLast().ready(),
                    duckRounds.getLast().first().get("Q1"));
        }
        report(locusRounds, duckRounds);
    }

    private static void prepareLocus(Path locus, Path data, double sf) throws Exception {
        if (Files.isDirectory(data)) {
            return;
        }
        System.out.printf(Locale.ROOT, "making the data directory once: ./locus serve --tpch %s --data %s%n", sf, data);
        LocusServerProcess server = LocusServerProcess.start(locus, List.of("serve", "--tpch", String.valueOf(sf), "--data", data.toString()));
        server.stop();
    }

    static void prepareDuck(Path dir, Path duckFile, double sf) throws Exception {
        if (Files.exists(duckFile)) {
            return;
        }
        Path tbl = LoadComparison.writeTbl(dir, sf);
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:" + duckFile);
             Statement s = duck.createStatement()) {
            LoadComparison.loadDuck(s, tbl);
            TpchTablesForDuck.load(s, dir, sf);
            s.execute("CHECKPOINT");
        }
    }

    private static Round locusRound(Path locus, Path data, List<String> serveOptions, boolean afterWarmUp)
            throws Exception {
        List<String> arguments = new ArrayList<>(List.of("serve", "--data", data.toString()));
        arguments.addAll(serveOptions);
        LocusServerProcess server = LocusServerProcess.start(locus, arguments);
        if (afterWarmUp) {
            double warmedAt = server.warmedUp().get(5, TimeUnit.MINUTES);
            System.out.printf(Locale.ROOT, "  warm-up done %.1f s after the process start%n", warmedAt);
        }
        try (Connection c = DriverManager.getConnection(server.url())) {
            Round timed = queries(c, server.listeningSeconds());
            return new Round(timed.ready(), timed.first(), timed.warm(), server.residentBytes());
        } finally {
            server.stop();
        }
    }

    private static Round duckRound(Path duckFile) throws SQLException {
        long t0 = System.nanoTime();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + duckFile)) {
            return queries(c, (System.nanoTime() - t0) / 1e9);
        }
    }

    /** The first run of each query in order, then each warm. */
    private static Round queries(Connection c, double ready) throws SQLException {
        Map<String, Double> first = new LinkedHashMap<>();
        Map<String, Double> warm = new LinkedHashMap<>();
        for (Map.Entry<String, String> q : QUERIES.entrySet()) {
            first.put(q.getKey(), run(c, q.getValue()));
        }
        for (Map.Entry<String, String> q : QUERIES.entrySet()) {
            List<Double> runs = new ArrayList<>();
            for (int i = 0; i < WARM_RUNS; i++) {
                runs.add(run(c, q.getValue()));
            }
            warm.put(q.getKey(), median(runs));
        }
        return new Round(ready, first, warm, 0);
    }

    /** Seconds to run {@code sql} and read every row. */
    private static double run(Connection c, String sql) throws SQLException {
        long t0 = System.nanoTime();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    rs.getObject(i);
                }
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    private static void report(List<Round> locus, List<Round> duck) {
        System.out.println();
        System.out.printf(Locale.ROOT, "%-14s %12s %12s %12s %12s %14s %14s%n", "median", "LocusDB 1st",
                "LocusDB warm", "DuckDB 1st", "DuckDB warm", "1st / warm", "1st / DuckDB");
        double locusReady = median(locus.stream().map(Round::ready).toList());
        double duckReady = median(duck.stream().map(Round::ready).toList());
        System.out.printf(Locale.ROOT, "%-14s %11.3fs %12s %11.3fs %12s %14s %13.1fx%n", "ready", locusReady, "",
                duckReady, "", "", locusReady / duckReady);
        boolean goals = locusReady <= 1.0;
        for (String q : QUERIES.keySet()) {
            double lf = median(locus.stream().map(r -> r.first().get(q)).toList());
            double lw = median(locus.stream().map(r -> r.warm().get(q)).toList());
            double df = median(duck.stream().map(r -> r.first().get(q)).toList());
            double dw = median(duck.stream().map(r -> r.warm().get(q)).toList());
            System.out.printf(Locale.ROOT, "%-14s %11.3fs %11.3fs %11.3fs %11.3fs %13.1fx %13.1fx%n", q, lf, lw, df,
                    dw, lf / lw, lf / df);
            goals &= lf <= 2 * lw && lf <= df;
        }
        System.out.printf(Locale.ROOT, "LocusDB server resident after the queries: %.0f MiB (median)%n",
                median(locus.stream().map(r -> (double) r.residentBytes()).toList()) / 1048576.0);
        System.out.println("ready: LocusDB from the process start until it listens; DuckDB opening its file."
                + " Goals (issue 45): listening <= 1 s, every first query <= 2x its warm time and <= DuckDB's"
                + " first: " + (goals ? "met" : "not met"));
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
