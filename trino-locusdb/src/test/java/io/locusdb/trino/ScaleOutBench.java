package io.locusdb.trino;

import static io.trino.testing.TestingSession.testSessionBuilder;

import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.trino.Session;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code ./locus bench scale-out [--servers N] [--sf SF] [--parts P] [--rounds R] [--queries 1,3,...|FILE...]}: N
 * LocusDB servers as child processes, each loading slice i of N of TPC-H at SF in P parts; an in-process Trino
 * cluster (a coordinator and N workers) with the plugin three times: as users get it, with pushdown off, and with
 * tables' partitioning hidden from Trino; every query run warm on each, each answer checked against DuckDB and
 * against Trino's own tpch catalog (both hold the same generator's rows); per query the median time, the bytes the
 * servers sent and the rows each server sent, then {@code check} lines and a CSV.
 */
public final class ScaleOutBench {
    private int servers = 2;
    private double sf = 1;
    private int parts = 2;
    private int rounds = 3;
    private final List<Query> queries = new ArrayList<>();
    private Path out = Path.of("trino-locusdb/target/scale-out");

    private record Query(String name, String sql) {
    }

    /** One mode's measurement of one query. */
    private record Measured(double medianMs, long bytes, long[] rowsPerServer, boolean right) {
    }

    public static void main(String[] args) throws Exception {
        ScaleOutBench bench = new ScaleOutBench();
        bench.parse(args);
        // Trino's start-up and per-query INFO lines would bury the table. Airlift's logging takes System.out over
        // (into a logger), so the table goes to the stream from before.
        PrintStream out = System.out;
        Logging.initialize().setRootLevel(Level.WARN);
        bench.run(out);
    }

    private void parse(String[] args) throws IOException {
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--servers" -> servers = Integer.parseInt(required(args[i], value));
                case "--sf" -> sf = Double.parseDouble(required(args[i], value));
                case "--parts" -> parts = Integer.parseInt(required(args[i], value));
                case "--rounds" -> rounds = Integer.parseInt(required(args[i], value));
                case "--out" -> out = Path.of(required(args[i], value));
                case "--queries" -> {
                    for (String q : required(args[i], value).split(",")) {
                        if (q.matches("\\d+")) {
                            queries.add(new Query("Q" + q, TpchQueries.text(Integer.parseInt(q))));
                        } else {
                            Path file = Path.of(q);
                            queries.add(new Query(file.getFileName().toString(), Files.readString(file).strip()
                                    .replaceAll(";\\s*$", "")));
                        }
                    }
                }
                case "--help", "-h" -> {
                    System.out.println("usage: ./locus bench scale-out [--servers N] [--sf SF] [--parts P]"
                            + " [--rounds R] [--queries 1,3,FILE,...] [--out DIR]");
                    System.exit(0);
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
            i++;
        }
        if (servers < 1 || parts < 1 || rounds < 1 || !(sf > 0)) {
            throw new IllegalArgumentException("--servers, --parts and --rounds are at least 1, --sf positive");
        }
        if (queries.isEmpty()) {
            for (int q = 1; q <= 22; q++) {
                queries.add(new Query("Q" + q, TpchQueries.text(q)));
            }
        }
    }

    private static String required(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    private void run(PrintStream print) throws Exception {
        print.printf(Locale.ROOT, "scale-out: %d LocusDB servers (child processes), TPC-H SF %s in %d parts each, Trino"
                + " coordinator + %d workers in-process; %d rounds per query and mode after one warm-up%n", servers,
                sf, parts, servers, rounds);
        print.println("cpu: " + cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " cores");
        List<ServerProcess> started = new ArrayList<>();
        try {
            for (int i = 0; i < servers; i++) {
                started.add(ServerProcess.start(null));
            }
            long t0 = System.nanoTime();
            try (ExecutorService pool = Executors.newFixedThreadPool(servers)) {
                List<Future<?>> loads = new ArrayList<>();
                for (int i = 0; i < servers; i++) {
                    ServerProcess s = started.get(i);
                    String load = "LOAD TPCH SCALE " + sf + " PARTS " + parts + " SLICE " + i + " OF " + servers;
                    loads.add(pool.submit(() -> {
                        s.execute(load);
                        return null;
                    }));
                }
                for (Future<?> f : loads) {
                    f.get();
                }
            }
            print.printf(Locale.ROOT, "loaded in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            measure(print, started);
        } finally {
            for (ServerProcess s : started) {
                s.close();
            }
        }
    }

    private void measure(PrintStream print, List<ServerProcess> started) throws Exception {
        String addresses = String.join(",", started.stream().map(ServerProcess::address).toList());
        try (DistributedQueryRunner trino = DistributedQueryRunner.builder(session("locusdb", "default"))
                .setWorkerCount(servers).build()) {
            trino.installPlugin(new LocusPlugin());
            trino.createCatalog("locusdb", "locusdb", Map.of(CatalogSettings.SERVERS, addresses));
            trino.createCatalog("locusdb_off", "locusdb", Map.of(CatalogSettings.SERVERS, addresses,
                    CatalogSettings.PUSHDOWN, "false"));
            trino.createCatalog("locusdb_flat", "locusdb", Map.of(CatalogSettings.SERVERS, addresses,
                    CatalogSettings.PARTITIONING, "false"));
            trino.installPlugin(new TpchPlugin());
            trino.createCatalog("tpch", "tpch", Map.of("tpch.column-naming", "STANDARD",
                    "tpch.double-type-mapping", "DECIMAL"));
            Session on = session("locusdb", "default");
            Session off = session("locusdb_off", "default");
            Session flat = session("locusdb_flat", "default");
            Session reference = session("tpch", TpchQueries.schema(sf));
            long duckStart = System.nanoTime();
            TpchDuck duck = new TpchDuck(sf);
            print.printf(Locale.ROOT, "DuckDB loaded with the same generator's rows in %.1f s%n",
                    (System.nanoTime() - duckStart) / 1e9);
            // One pass over every query and catalog first: the first queries of a fresh Trino run while its code is
            // still being compiled, and would count that against whichever catalog runs them first.
            long warm = System.nanoTime();
            for (Query q : queries) {
                for (Session s : List.of(on, off, flat)) {
                    trino.execute(s, q.sql());
                }
            }
            print.printf(Locale.ROOT, "warm-up pass (every query on every catalog once): %.1f s%n",
                    (System.nanoTime() - warm) / 1e9);
            List<String> csv = new ArrayList<>(List.of("query,on_ms,off_ms,unpartitioned_ms,on_bytes,off_bytes"
                    + ",right,rows_per_server_on"));
            print.printf("%-10s %10s %10s %8s %10s %8s %12s %12s %8s  %s%n", "query", "on ms", "off ms", "off/on",
                    "unpart ms", "unp/on", "on bytes", "off bytes", "off/on", "rows sent per server (on)");
            int right = 0;
            long onBytes = 0;
            long offBytes = 0;
            double logTime = 0;
            double logPartitioned = 0;
            long[] totalRows = new long[servers];
            for (Query q : queries) {
                List<String> expected = TpchQueries.canonical(trino.execute(reference, q.sql()));
                // DuckDB's AVG of a decimal is a double, Trino's a decimal of the argument's scale: 2 places.
                List<String> duckExpected = duck.answer(q.sql(), 2);
                // The catalogs take turns round by round, so that what one query leaves behind (garbage, a cold cache)
                // does not always fall on the same catalog.
                List<Measured> m = measure(trino, List.of(on, off, flat), q.sql(), expected, duckExpected, started);
                Measured a = m.get(0);
                Measured b = m.get(1);
                Measured c = m.get(2);
                boolean ok = a.right() && b.right() && c.right();
                logPartitioned += Math.log(c.medianMs() / a.medianMs());
                right += ok ? 1 : 0;
                onBytes += a.bytes();
                offBytes += b.bytes();
                logTime += Math.log(b.medianMs() / a.medianMs());
                for (int s = 0; s < servers; s++) {
                    totalRows[s] += a.rowsPerServer()[s];
                }
                print.printf(Locale.ROOT, "%-10s %10.1f %10.1f %8.2f %10.1f %8.2f %12d %12d %8.1f  %s%s%n", q.name(),
                        a.medianMs(), b.medianMs(), b.medianMs() / a.medianMs(), c.medianMs(),
                        c.medianMs() / a.medianMs(), a.bytes(), b.bytes(),
                        (double) b.bytes() / Math.max(1, a.bytes()), Arrays.toString(a.rowsPerServer()),
                        ok ? "" : "  WRONG ANSWER");
                csv.add(String.format(Locale.ROOT, "%s,%.3f,%.3f,%.3f,%d,%d,%s,%s", q.name(), a.medianMs(),
                        b.medianMs(), c.medianMs(), a.bytes(), b.bytes(), ok, Arrays.toString(a.rowsPerServer()).replace(", ", " ")));
            }
            double timeRatio = Math.exp(logTime / queries.size());
            duck.close();
            print.printf(Locale.ROOT, "check scale-out.answers measured=%d/%d (each catalog's equal to DuckDB's and to"
                    + " Trino's tpch catalog) paper=all %s%n", right, queries.size(), right == queries.size() ? "ok"
                    : "off");
            long least = Arrays.stream(totalRows).min().orElse(0);
            print.printf(Locale.ROOT, "check scale-out.every-server-read measured=%d (fewest rows a server sent)"
                    + " paper=>0 %s%n", least, least > 0 ? "ok" : "off");
            print.printf(Locale.ROOT, "check scale-out.pushdown-bytes measured=%.2f (off/on, all queries) paper=>1"
                    + " %s%n", (double) offBytes / Math.max(1, onBytes), offBytes > onBytes ? "ok" : "off");
            print.printf(Locale.ROOT, "check scale-out.pushdown-time measured=%.2f (off/on, geometric mean)"
                    + " paper=>1 %s%n", timeRatio, timeRatio > 1 ? "ok" : "off");
            double partitionedRatio = Math.exp(logPartitioned / queries.size());
            print.printf(Locale.ROOT, "check scale-out.partitioning-time measured=%.2f (partitioning off/on, geometric"
                    + " mean) paper=>1 %s%n", partitionedRatio, partitionedRatio > 1 ? "ok" : "off");
            Files.createDirectories(out);
            Path file = out.resolve("scale-out.csv");
            Files.write(file, csv, StandardCharsets.UTF_8);
            print.println("wrote " + file);
        }
    }

    /** Each of {@code sessions} measured on {@code sql}: one warm-up run each, then R rounds of one run each. */
    private List<Measured> measure(DistributedQueryRunner trino, List<Session> sessions, String sql,
                                   List<String> expected, List<String> duckExpected, List<ServerProcess> started)
            throws SQLException {
        int n = sessions.size();
        boolean[] right = new boolean[n];
        for (int i = 0; i < n; i++) {
            MaterializedResult first = trino.execute(sessions.get(i), sql);
            right[i] = TpchQueries.canonical(first).equals(expected)
                    && TpchQueries.canonical(first, 2).equals(duckExpected);
        }
        double[][] ms = new double[n][rounds];
        long[] bytes = new long[n];
        long[][] rows = new long[n][servers];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < n; k++) {
                // Rotated each round: every catalog runs first, second and third in turn.
                int i = (k + r) % n;
                long[] seen = lastLogged(started);
                long t0 = System.nanoTime();
                MaterializedResultWithPlan result = trino.executeWithPlan(sessions.get(i), sql);
                ms[i][r] = (System.nanoTime() - t0) / 1e6;
                long[] sent = rowsSentSince(started, seen);
                right[i] &= TpchQueries.canonical(result.result()).equals(expected);
                bytes[i] = trino.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId())
                        .getQueryStats().getPhysicalInputDataSize().toBytes();
                rows[i] = sent;
            }
        }
        List<Measured> measured = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Arrays.sort(ms[i]);
            measured.add(new Measured(ms[i][rounds / 2], bytes[i], rows[i], right[i]));
        }
        return measured;
    }

    /** Per server, the sequence number of the last statement in its query log. */
    private static long[] lastLogged(List<ServerProcess> started) throws SQLException {
        long[] seq = new long[started.size()];
        for (int s = 0; s < seq.length; s++) {
            seq[s] = value(started.get(s), "SELECT coalesce(max(seq), 0) FROM locus_query_log");
        }
        return seq;
    }

    /**
     * Per server, the rows its statements after {@code seen} sent (its query log, a bounded window, is read by
     * sequence number so that entries leaving it do not count; the log's own queries are left out).
     */
    private static long[] rowsSentSince(List<ServerProcess> started, long[] seen) throws SQLException {
        long[] rows = new long[started.size()];
        for (int s = 0; s < rows.length; s++) {
            rows[s] = value(started.get(s), "SELECT coalesce(sum(row_count), 0) FROM locus_query_log WHERE seq > "
                    + seen[s] + " AND statement NOT LIKE '%locus\\_query\\_log%' ESCAPE '\\'");
        }
        return rows;
    }

    private static long value(ServerProcess server, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:locusdb://" + server.address() + "/");
             Statement st = c.createStatement(); ResultSet r = st.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    private static Session session(String catalog, String schema) {
        return testSessionBuilder().setCatalog(catalog).setSchema(schema).build();
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
