package io.locusdb.bench.query;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.workload.TpchQuery;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.server.net.LocusServer;
import io.locusdb.server.net.ServerConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./locus bench latency [SF=1] [rounds=21] [warm-up=40]}: one client's round trip through the server, ad hoc
 * and prepared, next to the same query in-process on the same database, with the plan cache off and on in one run
 * (a server each, one after the other). Medians in ms.
 */
public final class LatencyComparison {
    private static final String Q6 = TpchQuery.Q6.withDefaults().sql();
    private static final String REGION = "select count(*) from region";

    private LatencyComparison() {
    }

    public static void main(String[] args) throws Exception {
        double sf = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 21;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 40;
        System.out.printf(Locale.ROOT, "TPC-H SF%s, %d CPUs, medians of %d after %d warm-up runs%n", sf,
                Runtime.getRuntime().availableProcessors(), rounds, warmup);
        System.out.println("plan cache   Q6 ad hoc   Q6 prepared   Q6 in-process   region ad hoc   region prepared"
                + "   ad hoc/prepared   prepared/in-process");
        for (int cache : new int[] {0, 512}) {
            System.setProperty("locus.plan-cache", Integer.toString(cache));
            LocusDB db = LocusDB.open(LocusConfig.of(Topologies.fromEnvironment()).withDeltaMerge(null));
            try (Session s = db.connect(); QueryResult r = s.execute("LOAD TPCH SCALE " + sf)) {
                r.updateCount();
            }
            try (LocusServer server = LocusServer.start(db, ServerConfig.defaults().with("port", "0")
                    .with("pg.port", "0")
                    .with("metrics.port", "-1"));
                 Connection c = DriverManager.getConnection(server.jdbcUrl());
                 Statement st = c.createStatement();
                 PreparedStatement q6 = c.prepareStatement(Q6);
                 PreparedStatement region = c.prepareStatement(REGION);
                 Session session = db.connect()) {
                PreparedQuery local = session.prepare(Q6);
                double[] q6Times = medians(rounds, warmup, () -> drain(st.executeQuery(Q6)),
                        () -> drain(q6.executeQuery()), () -> {
                            try (QueryResult r = local.execute()) {
                                r.toList();
                            }
                        });
                double adHoc = q6Times[0];
                double prepared = q6Times[1];
                double inProcess = q6Times[2];
                double[] regionTimes = medians(rounds, warmup, () -> drain(st.executeQuery(REGION)),
                        () -> drain(region.executeQuery()));
                double regionAdHoc = regionTimes[0];
                double regionPrepared = regionTimes[1];
                System.out.printf(Locale.ROOT, "%-10s %11.2f %13.2f %15.2f %15.2f %17.2f %17.2f %21.2f%n",
                        cache == 0 ? "off" : "on", adHoc, prepared, inProcess, regionAdHoc, regionPrepared,
                        adHoc / prepared, prepared / inProcess);
            }
        }
    }

    private interface Run {
        void run() throws SQLException;
    }

    private static void drain(ResultSet rs) throws SQLException {
        try (rs) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }

    /**
     * Medians of each way of running the same query, taken in turns (warm-up and timed rounds alike), so that none
     * of them is measured on a JIT or a machine that the others had not yet reached.
     */
    private static double[] medians(int rounds, int warmup, Run... runs) throws SQLException {
        for (int i = 0; i < warmup; i++) {
            for (Run run : runs) {
                run.run();
            }
        }
        List<List<Double>> times = new ArrayList<>();
        for (Run ignored : runs) {
            times.add(new ArrayList<>());
        }
        for (int i = 0; i < rounds; i++) {
            for (int k = 0; k < runs.length; k++) {
                long t0 = System.nanoTime();
                runs[k].run();
                times.get(k).add((System.nanoTime() - t0) / 1e6);
            }
        }
        double[] out = new double[runs.length];
        for (int k = 0; k < runs.length; k++) {
            List<Double> sorted = times.get(k);
            sorted.sort(null);
            out[k] = sorted.get(sorted.size() / 2);
        }
        return out;
    }
}
