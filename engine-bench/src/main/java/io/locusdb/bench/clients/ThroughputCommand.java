package io.locusdb.bench.clients;

import io.locusdb.bench.query.TpchTablesForDuck;
import io.locusdb.bench.storage.LoadComparison;
import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.server.net.LocusServer;
import io.locusdb.server.net.ServerConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.duckdb.DuckDBConnection;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./locus bench clients}: the multi-client throughput driver. Connects N JDBC clients to a running server
 * (started e.g. with {@code ./locus serve --tpch SF}), runs the checked TPC-H mix for a bounded time and prints
 * throughput and latency percentiles.
 */
@Command(name = "clients", mixinStandardHelpOptions = true,
        description = "N concurrent JDBC clients running the checked TPC-H query mix against a server.")
public final class ThroughputCommand implements Callable<Integer> {
    @Option(names = "--url", description = "JDBC URL of the server (default: ${DEFAULT-VALUE})")
    String url = "jdbc:locusdb://127.0.0.1:5499/";

    @Option(names = "--user", description = "user name")
    String user = "";

    @Option(names = "--password", description = "password (default: $LOCUS_PASSWORD)")
    String password = System.getenv().getOrDefault("LOCUS_PASSWORD", "");

    @Option(names = "--sf", description = "TPC-H scale factor the server loaded (answers are checked against it;"
            + " default: ${DEFAULT-VALUE})")
    double scaleFactor = 1;

    @Option(names = "--clients", description = "concurrent clients (default: ${DEFAULT-VALUE})")
    int clients = 256;

    @Option(names = "--seconds", description = "measured seconds (default: ${DEFAULT-VALUE})")
    int seconds = 30;

    @Option(names = "--warmup", description = "unmeasured seconds first (default: ${DEFAULT-VALUE})")
    int warmup = 5;

    @Option(names = "--serve-tpch", paramLabel = "SF", description = "start a server in this process on an ephemeral"
            + " port with TPC-H at this scale factor (then --url and --sf are not needed)")
    Double serveScaleFactor;

    @Option(names = "--parts", description = "table parts for --serve-tpch (default: one per node)")
    Integer parts;

    @Option(names = "--driver", paramLabel = "native|pg|both", description = "with --serve-tpch: the native JDBC"
            + " driver, PostgreSQL's pgjdbc on the PostgreSQL port, or both one after the other on the same server,"
            + " with their ratio (default: ${DEFAULT-VALUE})")
    String driver = "native";

    @Option(names = "--seed", description = "random seed of the parameter draws (default: ${DEFAULT-VALUE})")
    long seed = 42;

    @Option(names = "--mix", paramLabel = "lineitem|tpch", description = "lineitem: Q1, Q6 and the paper's two scan"
            + " shapes, checked against answers computed here; tpch: all 22 TPC-H templates with drawn parameters,"
            + " checked against DuckDB's answers, then the same mix against DuckDB with as many connections"
            + " (default: ${DEFAULT-VALUE})")
    String mixName = "lineitem";

    @Option(names = "--draws", description = "with --mix tpch: parameter sets drawn per template, each answered by"
            + " DuckDB before the run (default: ${DEFAULT-VALUE})")
    int draws = 4;

    @Option(names = "--data", description = "with --mix tpch: where the TPC-H rows for DuckDB are written"
            + " (default: ${DEFAULT-VALUE})")
    Path dataDir = Path.of("target/tpch-data");

    @Override
    public Integer call() throws Exception {
        if (clients < 1 || seconds < 1 || warmup < 0 || scaleFactor <= 0) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--clients and --seconds must be ≥ 1, --warmup ≥ 0 and --sf > 0");
        }
        if (!List.of("native", "pg", "both").contains(driver)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--driver is native, pg or both");
        }
        if (!List.of("lineitem", "tpch").contains(mixName) || draws < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--mix is lineitem or tpch, --draws ≥ 1");
        }
        if (!driver.equals("native") && serveScaleFactor == null) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--driver pg|both needs --serve-tpch"
                    + " (against a running server, give its jdbc:postgresql:// URL with --url)");
        }
        LocusServer server = null;
        if (serveScaleFactor != null) {
            scaleFactor = serveScaleFactor;
            server = startServer();
            url = driver.equals("pg") ? server.pgJdbcUrl("locus") : server.jdbcUrl();
        }
        try (Connection oracle = mixName.equals("tpch") ? loadDuck() : null) {
            List<MixQuery> mix = mix(oracle);
            if (!driver.equals("both")) {
                ThroughputReport report = drive(mix);
                return report.clean() & againstDuck(oracle, mix, report) ? 0 : 1;
            }
            ThroughputReport nativeDriver = drive(mix);
            url = server.pgJdbcUrl("locus");
            ThroughputReport pgjdbc = drive(mix);
            System.out.printf(Locale.ROOT, "pgjdbc / native driver: %.3f (q/s %.1f / %.1f, same server, same run)%n",
                    pgjdbc.queriesPerSecond() / nativeDriver.queriesPerSecond(), pgjdbc.queriesPerSecond(),
                    nativeDriver.queriesPerSecond());
            return nativeDriver.clean() & pgjdbc.clean() & againstDuck(oracle, mix, nativeDriver) ? 0 : 1;
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    private LocusServer startServer() {
        LocusDB db = LocusDB.open(LocusConfig.defaults());
        long t0 = System.nanoTime();
        int partCount = parts != null ? parts : Math.max(1, db.topology().nodeCount());
        try (Session s = db.connect(); QueryResult r = s.execute("LOAD TPCH SCALE " + serveScaleFactor
                + " PARTS " + partCount)) {
            r.updateCount();
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        System.out.printf("loaded TPC-H SF %s in %d part(s) in %.1f s%n", serveScaleFactor, partCount,
                (System.nanoTime() - t0) / 1e9);
        return LocusServer.start(db, ServerConfig.defaults().with("port", "0").with("pg.port", "0")
                .with("metrics.port", "-1"));
    }

    /** DuckDB in this process with the TPC-H rows of the scale factor the server loaded (the same generator). */
    private Connection loadDuck() throws IOException, SQLException {
        return openDuck(dataDir, scaleFactor);
    }

    /** DuckDB in this process holding TPC-H at {@code sf} (LocusDB's generator), its rows written to {@code dir}. */
    public static Connection openDuck(Path dir, double sf) throws IOException, SQLException {
        long t0 = System.nanoTime();
        Path lineitem = LoadComparison.writeTbl(dir, sf);
        Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = duck.createStatement()) {
            LoadComparison.loadDuck(s, lineitem);
            TpchTablesForDuck.load(s, dir, sf);
        } catch (IOException | SQLException | RuntimeException e) {
            duck.close();
            throw e;
        }
        System.out.printf(Locale.ROOT, "DuckDB loaded TPC-H SF %s in %.1f s%n", sf, (System.nanoTime() - t0) / 1e9);
        return duck;
    }

    /** The mix with its reference answers: computed here (lineitem) or by DuckDB (tpch). */
    private List<MixQuery> mix(Connection oracle) throws SQLException {
        long t0 = System.nanoTime();
        List<MixQuery> mix;
        if (oracle == null) {
            mix = TpchMix.queries(LineitemReference.compute(scaleFactor, Runtime.getRuntime().availableProcessors()));
        } else {
            mix = TpchTemplateMix.queries(oracle, seed, draws);
        }
        System.out.printf(Locale.ROOT, "reference answers for SF %s (%d texts) computed in %.1f s%n", scaleFactor,
                mix.size(), (System.nanoTime() - t0) / 1e9);
        return mix;
    }

    /**
     * With the TPC-H mix: the same mix, clients, warm-up and time against DuckDB in this process (a connection per
     * client on one database), and the throughput ratio. True when DuckDB's run was clean too (or there was none).
     */
    private boolean againstDuck(Connection duck, List<MixQuery> mix, ThroughputReport locus)
            throws InterruptedException {
        if (duck == null) {
            return true;
        }
        System.out.printf("the same mix, %d connections to DuckDB in this process (%s):%n", clients,
                "threads = all cores");
        ThroughputReport report = new ThroughputRun(() -> ((DuckDBConnection) duck).duplicate(), mix, true)
                .run(clients, Duration.ofSeconds(warmup), Duration.ofSeconds(seconds), seed);
        System.out.print(report.format());
        System.out.printf(Locale.ROOT, "LocusDB / DuckDB throughput: %.2f (%.1f / %.1f queries/s, %d clients, same"
                        + " run)%n", locus.queriesPerSecond() / report.queriesPerSecond(), locus.queriesPerSecond(),
                report.queriesPerSecond(), clients);
        return report.clean();
    }

    private ThroughputReport drive(List<MixQuery> mix) throws InterruptedException {
        Properties credentials = new Properties();
        if (!user.isEmpty()) {
            credentials.setProperty("user", user);
        }
        if (!password.isEmpty()) {
            credentials.setProperty("password", password);
        }
        ThroughputRun run = new ThroughputRun(url, credentials, mix);
        System.out.printf("%d clients against %s: %d s warm-up, %d s measured%n", clients, url, warmup, seconds);
        ThroughputReport report = run.run(clients, Duration.ofSeconds(warmup), Duration.ofSeconds(seconds), seed);
        System.out.print(report.format());
        return report;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ThroughputCommand()).execute(args));
    }
}
