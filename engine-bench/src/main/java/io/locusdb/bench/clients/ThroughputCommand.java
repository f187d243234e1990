package io.locusdb.bench.clients;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.server.net.LocusServer;
import io.locusdb.server.net.ServerConfig;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
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

    @Override
    public Integer call() throws Exception {
        if (clients < 1 || seconds < 1 || warmup < 0 || scaleFactor <= 0) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--clients and --seconds must be ≥ 1, --warmup ≥ 0 and --sf > 0");
        }
        if (!List.of("native", "pg", "both").contains(driver)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--driver is native, pg or both");
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
        try {
            if (!driver.equals("both")) {
                return drive().clean() ? 0 : 1;
            }
            ThroughputReport nativeDriver = drive();
            url = server.pgJdbcUrl("locus");
            ThroughputReport pgjdbc = drive();
            System.out.printf(Locale.ROOT, "pgjdbc / native driver: %.3f (q/s %.1f / %.1f, same server, same run)%n",
                    pgjdbc.queriesPerSecond() / nativeDriver.queriesPerSecond(), pgjdbc.queriesPerSecond(),
                    nativeDriver.queriesPerSecond());
            return nativeDriver.clean() && pgjdbc.clean() ? 0 : 1;
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

    private ThroughputReport drive() throws InterruptedException {
        long t0 = System.nanoTime();
        LineitemReference reference = LineitemReference.compute(scaleFactor,
                Runtime.getRuntime().availableProcessors());
        System.out.printf("reference answers for SF %s computed in %.1f s%n", scaleFactor,
                (System.nanoTime() - t0) / 1e9);
        Properties credentials = new Properties();
        if (!user.isEmpty()) {
            credentials.setProperty("user", user);
        }
        if (!password.isEmpty()) {
            credentials.setProperty("password", password);
        }
        ThroughputRun run = new ThroughputRun(url, credentials, TpchMix.queries(reference));
        System.out.printf("%d clients against %s: %d s warm-up, %d s measured%n", clients, url, warmup, seconds);
        ThroughputReport report = run.run(clients, Duration.ofSeconds(warmup), Duration.ofSeconds(seconds), seed);
        System.out.print(report.format());
        return report;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ThroughputCommand()).execute(args));
    }
}
