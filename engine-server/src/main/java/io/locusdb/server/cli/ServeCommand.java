package io.locusdb.server.cli;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.durable.Durability;
import io.locusdb.core.durable.FsyncPolicy;
import io.locusdb.core.query.scan.VectorKernelCompilation;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.load.TpchTextPool;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.server.net.LocusServer;
import io.locusdb.server.net.ServerConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./locus serve}: the LocusDB server on an in-process database, optionally loaded with TPC-H first. Runs until
 * SIGINT/SIGTERM, then shuts down gracefully (running statements get the configured grace period).
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Run the LocusDB server (protocol v1, docs/protocol.md) with a Prometheus endpoint.",
                "Settings come from --config FILE (see docs/server.md); options override them."})
public final class ServeCommand implements Callable<Integer> {
    @Option(names = "--tpch", paramLabel = "SF", description = "Generate the TPC-H tables at scale factor SF first.")
    Double scaleFactor;

    @Option(names = "--parts", paramLabel = "N", description = "Parts per TPC-H table (default: one per node).")
    Integer parts;

    @Option(names = "--port", paramLabel = "N", description = "Port (default 5499; 0 = any free port).")
    Integer port;

    @Option(names = "--pg-port", paramLabel = "N",
            description = "PostgreSQL protocol port, for psql, pgjdbc, psycopg and BI tools (default 5433;"
                    + " 0 = any free port, -1 = off).")
    Integer pgPort;

    @Option(names = "--bind", paramLabel = "ADDR", description = "Address to listen on (default 127.0.0.1).")
    String bind;

    @Option(names = "--metrics-port", paramLabel = "N",
            description = "Prometheus endpoint port (default 9499; 0 = any, -1 = off).")
    Integer metricsPort;

    @Option(names = "--config", paramLabel = "FILE", description = "Server settings (a properties file).")
    Path config;

    @Option(names = "--topology", paramLabel = "SETTING",
            description = "real, fake:N or configured:SPEC (default: LOCUS_TOPOLOGY, else real).")
    String topology;

    @Option(names = "--placer", paramLabel = "on|off",
            description = "Whether the placer adapts the placement to the load (default on, or the config's"
                    + " 'placer').")
    String placer;

    @Option(names = "--data", paramLabel = "DIR",
            description = "Data directory: tables survive restarts (default $LOCUS_HOME/data, ~/.locusdb/data"
                    + " without LOCUS_HOME).")
    Path data;

    @Option(names = "--replace",
            description = "With --tpch: drop the TPC-H tables already in the data directory (of any scale) and"
                    + " generate the scale asked for.")
    boolean replace;

    @Option(names = "--warm-up", paramLabel = "on|off", defaultValue = "on",
            description = "Compile the engine's code on a small database of its own in the background after the"
                    + " start, so that first queries run at warm speed, and run the scalar kernels until the vector"
                    + " ones are compiled (default on).")
    String warmUp;

    @Option(names = "--in-memory", description = "Keep nothing on disk: every table is lost when the server stops.")
    boolean inMemory;

    @Option(names = "--fsync", paramLabel = "POLICY",
            description = "When the log reaches disk: commit (default: each acknowledged statement is on disk),"
                    + " group:N (every N ms; a power loss can take the last N ms) or off.")
    String fsync;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        ServerConfig settings = config == null ? ServerConfig.defaults() : ServerConfig.load(config);
        if (port != null) {
            settings = settings.withPort(port);
        }
        if (pgPort != null) {
            settings = settings.with("pg.port", Integer.toString(pgPort));
        }
        if (bind != null) {
            settings = settings.with("bind", bind);
        }
        if (metricsPort != null) {
            settings = settings.with("metrics.port", Integer.toString(metricsPort));
        }
        if (placer != null) {
            settings = settings.with("placer", placer);
        }
        // Before TPC-H is generated: a refusal should not cost minutes of loading first.
        settings.requireSafeExposure();
        PrintWriter out = spec.commandLine().getOut();
        LocusConfig dbConfig = (topology == null ? LocusConfig.defaults()
                : LocusConfig.of(Topologies.fromSetting(topology)).withStoredCalibration()).withPlacer(settings.placer());
        if (replace && scaleFactor == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--replace goes with --tpch SF");
        }
        if (!warmUp.equals("on") && !warmUp.equals("off")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--warm-up takes on or off, not " + warmUp);
        }
        if (inMemory && (data != null || fsync != null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--in-memory keeps nothing on disk:"
                    + " leave out --data and --fsync");
        }
        if (!inMemory) {
            Durability durability = Durability.in(data != null ? data : Durability.defaultDirectory());
            if (fsync != null) {
                try {
                    durability = durability.withFsync(FsyncPolicy.parse(fsync));
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
                }
            }
            dbConfig = dbConfig.withDurability(durability);
        }
        LocusDB db = LocusDB.open(dbConfig);
        db.durableStore().ifPresent(store -> {
            var report = store.recoveryReport();
            out.printf(Locale.ROOT, "data directory: %s (%d tables, %d parts, %d log records replayed in %.2f s;"
                            + " columns not read yet follow in the background)%n",
                    store.directory(), report.tables(), report.parts(), report.replayedRecords(), report.seconds());
            report.warnings().forEach(w -> out.println("warning: " + w));
        });
        if (db.durableStore().isEmpty()) {
            out.println("data directory: none (--in-memory): nothing survives the server");
        }
        LocusServer server;
        boolean vectorsHeld = false;
        try {
            if (scaleFactor != null) {
                Path directory = db.durableStore().map(store -> store.directory()).orElse(null);
                if (TpchInDataDirectory.decide(db, directory, scaleFactor, replace)
                        == TpchInDataDirectory.Action.KEEP) {
                    out.println("TPC-H SF " + TpchInDataDirectory.format(scaleFactor)
                            + " is already in the data directory: not generated again");
                } else {
                    load(db, out);
                    TpchInDataDirectory.recordScale(directory, scaleFactor);
                }
            }
            // From before it listens: the first queries may come at once.
            vectorsHeld = warmUp.equals("on") && VectorKernelCompilation.hold();
            server = LocusServer.start(db, settings);
        } catch (RuntimeException e) {
            VectorKernelCompilation.release();
            db.close();
            throw e;
        }
        LocusServer running = server;
        ServerConfig effective = settings;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.err.println("locus: shutting down (running statements may finish within "
                    + effective.shutdownGrace().toSeconds() + " s)");
            running.shutdown(effective.shutdownGrace());
        }, "locus-shutdown"));
        out.printf("LocusDB server listening on %s%n", server.jdbcUrl());
        out.printf("PostgreSQL clients: %s%n", server.pgPort() < 0 ? "off (pg.port = -1)"
                : "psql -h " + settings.bindAddress() + " -p " + server.pgPort() + " -U " + (settings.trustMode()
                ? "$USER" : "<user>") + " locus   (or " + server.pgJdbcUrl("locus") + ")");
        out.printf("metrics: %s%n", server.metricsUrl() == null ? "off" : server.metricsUrl());
        out.printf("calibration: %s%n", dbConfig.calibrationSummary());
        out.printf(Locale.ROOT, "placer: %s (period %d ms, moves by %s; SELECT * FROM locus_placer_events)%n",
                settings.placer().enabled() ? "on" : "off", settings.placer().periodMillis(),
                settings.placer().move().label());
        out.println("page moves (move_pages): " + db.memory().pageMoves().describe());
        out.printf("%s; %s%n", settings.trustMode() ? "trust mode: no users or tokens configured, every client is"
                        + " accepted" : settings.users().size() + " user(s), " + settings.tokens().size() + " token(s)",
                settings.tls() == null ? "TLS off" : "TLS on");
        out.println("Ctrl-C (SIGINT) or SIGTERM stops it gracefully.");
        out.flush();
        if (warmUp.equals("on")) {
            VectorKernelCompilation.start(vectorsHeld, db::busy, line -> {
                out.println(line);
                out.flush();
            });
            KernelWarmUp.start(dbConfig, db::busy, out);
        }
        server.awaitTermination();
        return 0;
    }

    private void load(LocusDB db, PrintWriter out) {
        int partCount = parts != null ? parts : db.topology().nodeCount();
        ProgressBar progress = new ProgressBar(System.err);
        long start = System.nanoTime();
        // A text pool of the load's own: the generator's shared one would stay on the heap for the server's life.
        var tables = new TpchLoader(db.memory(), db.config().loadThreads(),
                TpchTextPool.own(TpchTextPool.STANDARD_BYTES)).loadAll(db.catalog(), scaleFactor,
                partCount, new InitialPlacement.RoundRobin(), progress);
        progress.finish();
        db.durableStore().ifPresent(store -> store.checkpoint());
        out.printf(Locale.ROOT, "loaded TPC-H SF %s (%d tables, %d part(s) each) in %.2f s%n", scaleFactor,
                tables.size(), partCount, (System.nanoTime() - start) / 1e9);
        out.flush();
    }
}
