package io.locusdb.bench.start;

import io.locusdb.bench.query.TpchTablesForDuck;
import io.locusdb.bench.storage.LoadComparison;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Locale;

/**
 * DuckDB's side of {@link MemoryComparison}, in a process of its own so that its resident memory is DuckDB's (and a
 * small JVM's, reported apart): {@code generated DIR SF} loads the TPC-H tables into an in-memory database from the
 * {@code .tbl} files in DIR (written beforehand, so no generator runs here); {@code restarted FILE} opens a database
 * file. Either way it then runs the 22 TPC-H queries once. It prints {@code rss PHASE BYTES} lines, each after
 * {@code idleSeconds} of rest, as the server is measured.
 */
public final class DuckMemoryProbe {
    private DuckMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        long idleMillis = (long) (Double.parseDouble(args[args.length - 1]) * 1000);
        report("jvm", 0);
        String url = mode.equals("generated") ? "jdbc:duckdb:" : "jdbc:duckdb:" + args[1];
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            if (mode.equals("generated")) {
                Path dir = Path.of(args[1]);
                double sf = Double.parseDouble(args[2]);
                LoadComparison.loadDuck(s, LoadComparison.writeTbl(dir, sf));
                TpchTablesForDuck.load(s, dir, sf);
            } else {
                // DuckDB reads a file's blocks when queries need them; counting the tables makes it open them all.
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM lineitem")) {
                    rs.next();
                }
            }
            report("loaded", idleMillis);
            MemoryComparison.runAll(s);
            report("queried", idleMillis);
        }
    }

    private static void report(String phase, long idleMillis) throws InterruptedException {
        Thread.sleep(idleMillis);
        System.out.printf(Locale.ROOT, "rss %s %d%n", phase, Resident.of(ProcessHandle.current().pid()));
        System.out.flush();
    }
}
