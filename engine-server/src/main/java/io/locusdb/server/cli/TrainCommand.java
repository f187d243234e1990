package io.locusdb.server.cli;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.workload.TpchQuery;
import io.locusdb.server.net.LocusServer;
import io.locusdb.server.net.ServerConfig;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The training run of the JVM's ahead-of-time cache ({@code ./locus} runs it once per build with
 * {@code -XX:AOTCacheOutput}): what a server does in its first seconds and first queries — start, generate TPC-H,
 * listen, plan and run the TPC-H queries over JDBC, ad hoc and prepared — so that the cache holds those classes,
 * already linked, and their profiles, and a started server does not load, link and profile them again.
 */
@Command(name = "train", hidden = true,
        description = "Run a short representative workload (for the JVM's ahead-of-time cache).")
public final class TrainCommand implements Callable<Integer> {
    @Option(names = "--tpch", paramLabel = "SF", defaultValue = "0.01", description = "TPC-H scale factor.")
    double scaleFactor;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "3", description = "Times each query runs.")
    int rounds;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws SQLException {
        PrintWriter out = spec.commandLine().getOut();
        long start = System.nanoTime();
        int ran = 0;
        int refused = 0;
        try (LocusDB db = LocusDB.open(LocusConfig.defaults())) {
            new TpchLoader(db.memory(), db.config().loadThreads()).loadAll(db.catalog(), scaleFactor,
                    db.topology().nodeCount(), new InitialPlacement.RoundRobin(), LoadProgress.NONE);
            LocusServer server = LocusServer.start(db, ServerConfig.defaults().withPort(0).with("pg.port", "-1")
                    .with("metrics.port", "-1"));
            try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                 Statement s = c.createStatement();
                 PreparedStatement lookup = c.prepareStatement("SELECT * FROM orders WHERE o_orderkey = ?")) {
                for (int round = 0; round < rounds; round++) {
                    for (TpchQuery q : TpchQuery.all()) {
                        try (ResultSet rs = s.executeQuery(q.withDefaults().sql())) {
                            while (rs.next()) {
                                rs.getObject(1);
                            }
                            ran++;
                        } catch (SQLException e) {
                            // A query this version cannot run still trains the planner up to its refusal.
                            refused++;
                        }
                    }
                    for (int key = 1; key <= 64; key++) {
                        lookup.setLong(1, key);
                        try (ResultSet rs = lookup.executeQuery()) {
                            while (rs.next()) {
                                rs.getObject(1);
                            }
                        }
                    }
                }
            } finally {
                server.shutdown(Duration.ofSeconds(1));
            }
        }
        out.printf(Locale.ROOT, "trained: %d queries ran, %d refused, in %.1f s%n", ran, refused,
                (System.nanoTime() - start) / 1e9);
        return 0;
    }
}
