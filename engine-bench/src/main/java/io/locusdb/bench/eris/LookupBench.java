package io.locusdb.bench.eris;

import io.locusdb.bench.query.TpchTablesForDuck;
import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.server.net.LocusServer;
import io.locusdb.server.net.ServerConfig;
import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.duckdb.DuckDBConnection;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Prepared point lookups by primary key, as users send them: {@code SELECT * FROM orders WHERE o_orderkey = ?}
 * from N concurrent JDBC clients against a server started here with default settings ({@code LOAD TPCH}, one part
 * per node), once with the key index switched off (every lookup scans, as LocusDB did before keyed tables) and
 * once with it on; then the same prepared lookup from N threads of an in-process DuckDB whose orders table has the
 * same primary key (and so its ART index). Every answer is checked (one row, the key asked for). Ends with
 * {@code check} lines: index ÷ scan ≥ 20, LocusDB ÷ DuckDB ≥ 1.
 */
@Command(name = "lookups", mixinStandardHelpOptions = true,
        description = "Prepared point lookups by primary key over the wire: index vs scan vs DuckDB")
public final class LookupBench implements Runnable {
    @Option(names = "--sf", description = "TPC-H scale factor (default: ${DEFAULT-VALUE})")
    double scaleFactor = 1;

    @Option(names = "--clients", description = "concurrent clients (default: ${DEFAULT-VALUE})")
    int clients = 32;

    @Option(names = "--seconds", description = "measured seconds per run (default: ${DEFAULT-VALUE})")
    int seconds = 10;

    @Option(names = "--warmup", description = "unmeasured seconds first, per run (default: ${DEFAULT-VALUE})")
    int warmup = 3;

    @Option(names = "--rounds", description = "runs of each side, alternating; medians reported (default:"
            + " ${DEFAULT-VALUE})")
    int rounds = 3;

    @Option(names = "--topology", description = "real | fake:N (default: LOCUS_TOPOLOGY, else the real machine)")
    String topology;

    @Option(names = "--dir", description = "where DuckDB's input files are cached (default: ${DEFAULT-VALUE})")
    Path dir = Path.of("target", "bench-data");

    private static final String LOOKUP = "SELECT * FROM orders WHERE o_orderkey = ?";

    /** One run: queries per second and the latency histogram (microseconds). */
    record Run(double queriesPerSecond, Histogram micros, long errors) {
        String line(String label) {
            return String.format(Locale.ROOT, "%-22s %10.1f q/s   p50 %7.1f us   p99 %8.1f us   errors %d", label,
                    queriesPerSecond, micros.getValueAtPercentile(50) * 1.0, micros.getValueAtPercentile(99) * 1.0,
                    errors);
        }
    }

    /** How a client opens its connection. */
    interface Connector {
        Connection open() throws SQLException;
    }

    @Override
    public void run() {
        if (clients < 1 || seconds < 1 || warmup < 0 || rounds < 1 || !(scaleFactor > 0)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--clients, --seconds and --rounds must"
                    + " be ≥ 1, --warmup ≥ 0 and --sf > 0");
        }
        try {
            measure();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void measure() throws Exception {
        long maxKey = maxOrderKey();
        System.out.printf(Locale.ROOT, "prepared lookups %s, %d clients, SF %s, %d s warm-up + %d s per run, %d"
                + " rounds%n", LOOKUP, clients, scaleFactor, warmup, seconds, rounds);
        if (topology != null) {
            System.setProperty("locus.topology", topology);
        }
        LocusDB db = LocusDB.open(LocusConfig.defaults());
        int parts = Math.max(1, db.topology().nodeCount());
        long t0 = System.nanoTime();
        try (Session s = db.connect(); QueryResult r = s.execute("LOAD TPCH SCALE " + scaleFactor + " PARTS "
                + parts)) {
            r.updateCount();
        }
        System.out.printf(Locale.ROOT, "LocusDB: TPC-H SF %s in %d part(s) on a %d-node topology, loaded in %.1f s%n",
                scaleFactor, parts, db.topology().nodeCount(), (System.nanoTime() - t0) / 1e9);
        Files.createDirectories(dir);
        Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = duck.createStatement()) {
            s.execute("SET threads = " + Runtime.getRuntime().availableProcessors());
            t0 = System.nanoTime();
            TpchTablesForDuck.loadKeyed(s, dir, TpchTable.ORDERS, scaleFactor);
        }
        System.out.printf(Locale.ROOT, "DuckDB: orders with PRIMARY KEY (o_orderkey) loaded in %.1f s%n",
                (System.nanoTime() - t0) / 1e9);
        List<Double> scan = new ArrayList<>();
        List<Double> index = new ArrayList<>();
        List<Double> duckRuns = new ArrayList<>();
        try (LocusServer server = LocusServer.start(db, ServerConfig.defaults().with("port", "0")
                .with("pg.port", "0").with("metrics.port", "-1"))) {
            String url = server.jdbcUrl();
            for (int round = 1; round <= rounds; round++) {
                System.setProperty("locus.index", "off");
                Run off = drive(() -> DriverManager.getConnection(url), maxKey, round);
                System.setProperty("locus.index", "on");
                Run on = drive(() -> DriverManager.getConnection(url), maxKey, round);
                Run d = drive(() -> ((DuckDBConnection) duck).duplicate(), maxKey, round);
                System.out.println("round " + round + ":");
                System.out.println("  " + off.line("LocusDB, scan"));
                System.out.println("  " + on.line("LocusDB, key index"));
                System.out.println("  " + d.line("DuckDB, in-process"));
                scan.add(off.queriesPerSecond());
                index.add(on.queriesPerSecond());
                duckRuns.add(d.queriesPerSecond());
            }
        } finally {
            System.clearProperty("locus.index");
            duck.close();
            db.close();
        }
        double medianScan = median(scan);
        double medianIndex = median(index);
        double medianDuck = median(duckRuns);
        System.out.printf(Locale.ROOT, "medians: scan %.1f q/s, key index %.1f q/s, DuckDB %.1f q/s%n", medianScan,
                medianIndex, medianDuck);
        System.out.println(check("lookups-index-vs-scan", medianIndex / medianScan, 20));
        System.out.println(check("lookups-vs-duckdb", medianIndex / medianDuck, 1));
    }

    /** Orders in the table: 1,500,000 × SF. */
    private long maxOrderKey() {
        return (long) (1_500_000 * scaleFactor);
    }

    /**
     * The key of a random existing order: TPC-H's keys are sparse, the generator makes order i (from 1) key
     * {@code (i / 8) * 32 + i % 8}.
     */
    private static long orderKey(SplittableRandom random, long orders) {
        long i = 1 + random.nextLong(Math.max(1, orders));
        return ((i >>> 3) << 5) | (i & 7);
    }

    private Run drive(Connector connector, long maxKey, int round) throws InterruptedException {
        ConcurrentHistogram micros = new ConcurrentHistogram(3_600_000_000L, 3);
        AtomicLong done = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicReference<Throwable> firstError = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(clients);
        long start = System.nanoTime() + 500_000_000L + (long) warmup * 1_000_000_000L;
        long end = start + (long) seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            long seed = 31L * round + c;
            threads.add(Thread.ofPlatform().name("lookup-" + c).start(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                try (Connection connection = connector.open();
                     PreparedStatement lookup = connection.prepareStatement(LOOKUP)) {
                    ready.countDown();
                    while (true) {
                        long now = System.nanoTime();
                        if (now >= end) {
                            break;
                        }
                        long key = orderKey(random, maxKey);
                        lookup.setLong(1, key);
                        int rows = 0;
                        boolean right = true;
                        try (ResultSet rs = lookup.executeQuery()) {
                            while (rs.next()) {
                                rows++;
                                right &= rs.getLong(1) == key;
                            }
                        }
                        long after = System.nanoTime();
                        if (rows != 1 || !right) {
                            errors.incrementAndGet();
                            firstError.compareAndSet(null, new AssertionError(rows + " rows for key " + key));
                        }
                        if (now >= start) {
                            micros.recordValue(Math.max(1, (after - now) / 1000));
                            done.incrementAndGet();
                        }
                    }
                } catch (SQLException | RuntimeException e) {
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, e);
                    ready.countDown();
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        if (firstError.get() != null) {
            System.out.println("  first error: " + firstError.get());
        }
        return new Run(done.get() / (double) seconds, micros, errors.get());
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String check(String name, double measured, double target) {
        return String.format(Locale.ROOT, "check %s measured=%.3f target=%.3f %s", name, measured, target,
                measured >= target ? "ok" : "off");
    }
}
