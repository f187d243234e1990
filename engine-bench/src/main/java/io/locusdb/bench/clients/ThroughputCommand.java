package io.locusdb.bench.clients;

import java.time.Duration;
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

    @Option(names = "--seed", description = "random seed of the parameter draws (default: ${DEFAULT-VALUE})")
    long seed = 42;

    @Override
    public Integer call() throws Exception {
        if (clients < 1 || seconds < 1 || warmup < 0 || scaleFactor <= 0) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--clients and --seconds must be ≥ 1, --warmup ≥ 0 and --sf > 0");
        }
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
        return report.clean() ? 0 : 1;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ThroughputCommand()).execute(args));
    }
}
