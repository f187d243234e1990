package io.locusdb.bench.start;

import com.sun.management.OperatingSystemMXBean;
import io.locusdb.core.workload.TpchQuery;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code ./locus bench memory [SF ...=1 3] [--idle SECONDS=10] [--dir DIR]}: resident memory of a LocusDB server
 * next to DuckDB's with the same tables in memory, one scale after the other, in four moments: right after the
 * tables were made (LocusDB: {@code ./locus serve --tpch SF} into a new data directory; DuckDB: an in-memory
 * database loaded from the same rows), after the 22 TPC-H queries ran once each, after a restart (LocusDB: {@code
 * ./locus serve --data DIR}; DuckDB: opening its database file) and after the 22 queries again. Each figure is taken
 * after {@code --idle} seconds of rest, for both. The server runs exactly as users start it (default settings,
 * warm-up included: measured after its warm-up line); DuckDB runs in a process of its own ({@link
 * DuckMemoryProbe}) whose JVM's resident memory before DuckDB opened is taken off. Goals of issue 45, against
 * DuckDB with the same tables in memory: after making the tables at most its memory, after a restart at most 0.7x.
 * A restarted DuckDB that opens its file reads blocks as queries need them, so it is shown too, apart.
 */
public final class MemoryComparison {
    /** The moments measured, in order. */
    private static final List<String> MOMENTS = List.of("made", "made + 22 queries", "restarted",
            "restarted + 22 queries");

    private MemoryComparison() {
    }

    public static void main(String[] args) throws Exception {
        List<Double> scales = new ArrayList<>();
        double idle = 10;
        Path dir = Path.of("target/memory-data");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--idle" -> idle = Double.parseDouble(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> scales.add(Double.parseDouble(args[i]));
            }
        }
        if (scales.isEmpty()) {
            scales = List.of(1.0, 3.0);
        }
        String root = System.getenv("LOCUS_ROOT");
        if (root == null) {
            System.err.println("memory: run it as ./locus bench memory (it starts ./locus serve)");
            System.exit(2);
        }
        dir = dir.toAbsolutePath();
        Files.createDirectories(dir);
        Path locus = Path.of(root, "locus");
        System.out.printf(Locale.ROOT, "memory: TPC-H SF %s, %.0f s of rest before each figure, data in %s; %d CPUs,"
                + " %.1f GiB%n", scales, idle, dir, Runtime.getRuntime().availableProcessors(), physicalGiB());
        Map<Double, Map<String, long[]>> results = new LinkedHashMap<>();
        for (double sf : scales) {
            long[] locusFigures = locus(locus, dir.resolve("locus-sf" + sf), sf, idle);
            Path duckFile = dir.resolve("duck-sf" + sf + ".db");
            FirstQueryComparison.prepareDuck(dir, duckFile, sf);
            Map<String, Long> inMemory = duck(List.of("generated", dir.toString(), String.valueOf(sf)), idle);
            Map<String, Long> file = duck(List.of("restarted", duckFile.toString()), idle);
            long jvm = Math.min(inMemory.get("jvm"), file.get("jvm"));
            // Per moment: LocusDB, DuckDB with the tables in memory, DuckDB reading its file (restarts only), and
            // the bare JVM of DuckDB's process.
            Map<String, long[]> bySf = new LinkedHashMap<>();
            bySf.put(MOMENTS.get(0), new long[] {locusFigures[0], inMemory.get("loaded"), -1, jvm});
            bySf.put(MOMENTS.get(1), new long[] {locusFigures[1], inMemory.get("queried"), -1, jvm});
            bySf.put(MOMENTS.get(2), new long[] {locusFigures[2], inMemory.get("loaded"), file.get("loaded"), jvm});
            bySf.put(MOMENTS.get(3), new long[] {locusFigures[3], inMemory.get("queried"), file.get("queried"), jvm});
            results.put(sf, bySf);
            report(sf, bySf);
        }
        summary(results);
    }

    /** The server's resident bytes at the four moments. */
    private static long[] locus(Path locus, Path data, double sf, double idle) throws Exception {
        deleteTree(data);
        long[] figures = new long[4];
        LocusServerProcess made = LocusServerProcess.start(locus, List.of("serve", "--tpch", String.valueOf(sf),
                "--data", data.toString()));
        try {
            figures[0] = settled(made, idle);
            queries(made.url());
            figures[1] = restAndMeasure(made, idle);
        } finally {
            made.stop();
        }
        LocusServerProcess restarted = LocusServerProcess.start(locus, List.of("serve", "--data", data.toString()));
        try {
            figures[2] = settled(restarted, idle);
            queries(restarted.url());
            figures[3] = restAndMeasure(restarted, idle);
        } finally {
            restarted.stop();
        }
        return figures;
    }

    /** Waits for the server's warm-up to end (it ends on its own), then rests and measures. */
    private static long settled(LocusServerProcess server, double idle) throws Exception {
        try {
            server.warmedUp().get(10, TimeUnit.MINUTES);
        } catch (Exception e) {
            // A server started without its warm-up never prints the line; it is measured as it is.
        }
        return restAndMeasure(server, idle);
    }

    private static long restAndMeasure(LocusServerProcess server, double idle) throws InterruptedException {
        Thread.sleep((long) (idle * 1000));
        return server.residentBytes();
    }

    /** The 22 TPC-H queries once each over JDBC, every row read. */
    private static void queries(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            runAll(s);
        }
    }

    /** The 22 TPC-H queries (DuckDB's texts, default parameters) once each through {@code s}, every row read. */
    static void runAll(Statement s) throws SQLException {
        for (TpchQuery q : TpchQuery.all()) {
            try (ResultSet rs = s.executeQuery(q.withDefaults().sql())) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    for (int i = 1; i <= columns; i++) {
                        rs.getObject(i);
                    }
                }
            }
        }
    }

    /** Runs {@link DuckMemoryProbe} in a JVM of its own; its figures by phase. */
    private static Map<String, Long> duck(List<String> arguments, double idle) throws Exception {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xms16m", "-Xmx512m", "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), DuckMemoryProbe.class.getName()));
        command.addAll(arguments);
        command.add(String.valueOf(idle));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Map<String, Long> figures = new LinkedHashMap<>();
        StringBuilder output = new StringBuilder();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                output.append(line).append('\n');
                String[] words = line.split(" ");
                if (words.length == 3 && words[0].equals("rss")) {
                    figures.put(words[1], Long.parseLong(words[2]));
                }
            }
        }
        if (process.waitFor() != 0 || figures.size() != 3) {
            throw new IllegalStateException("DuckDB probe " + arguments + " failed:\n" + output);
        }
        return figures;
    }

    private static void report(double sf, Map<String, long[]> figures) {
        System.out.printf(Locale.ROOT, "%nSF %s (MiB; DuckDB's bare JVM taken off)%n%-24s %10s %16s %8s %16s %8s%n", sf,
                "moment", "LocusDB", "DuckDB in memory", "ratio", "DuckDB its file", "ratio");
        for (Map.Entry<String, long[]> e : figures.entrySet()) {
            long[] f = e.getValue();
            String file = f[2] < 0 ? "" : String.format(Locale.ROOT, "%.0f", mib(f[2] - f[3]));
            String fileRatio = f[2] < 0 ? "" : String.format(Locale.ROOT, "%.2fx", (double) f[0] / (f[2] - f[3]));
            System.out.printf(Locale.ROOT, "%-24s %10.0f %16.0f %7.2fx %16s %8s%n", e.getKey(), mib(f[0]),
                    mib(f[1] - f[3]), ratio(f), file, fileRatio);
        }
        System.out.printf(Locale.ROOT, "DuckDB's process held %.0f MiB as a bare JVM before it opened DuckDB."
                + " \"In memory\": an in-memory database loaded with the tables, what LocusDB holds; \"its file\":"
                + " DuckDB's database file opened, whose blocks it reads when a query needs them.%n",
                mib(figures.values().iterator().next()[3]));
    }

    /** LocusDB over DuckDB with the same tables in memory. */
    private static double ratio(long[] f) {
        return (double) f[0] / (f[1] - f[3]);
    }

    private static void summary(Map<Double, Map<String, long[]>> results) {
        System.out.println();
        boolean madeGoal = true;
        boolean restartGoal = true;
        for (Map.Entry<Double, Map<String, long[]>> r : results.entrySet()) {
            for (Map.Entry<String, long[]> e : r.getValue().entrySet()) {
                double ratio = ratio(e.getValue());
                if (e.getKey().startsWith("made")) {
                    madeGoal &= ratio <= 1.0;
                } else {
                    restartGoal &= ratio <= 0.7;
                }
            }
        }
        System.out.printf(Locale.ROOT, "check memory.made measured=%s paper=<=1.0x DuckDB in memory %s%n",
                ratios(results, "made"), madeGoal ? "ok" : "not met");
        System.out.printf(Locale.ROOT, "check memory.restarted measured=%s paper=<=0.7x DuckDB in memory %s%n",
                ratios(results, "restarted"), restartGoal ? "ok" : "not met");
    }

    private static String ratios(Map<Double, Map<String, long[]>> results, String prefix) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<Double, Map<String, long[]>> r : results.entrySet()) {
            for (Map.Entry<String, long[]> e : r.getValue().entrySet()) {
                if (e.getKey().startsWith(prefix)) {
                    out.add(String.format(Locale.ROOT, "SF%s:%.2f", r.getKey(), ratio(e.getValue())));
                }
            }
        }
        return String.join(",", out);
    }

    private static double mib(long bytes) {
        return bytes / 1048576.0;
    }

    private static double physicalGiB() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize()
                / (double) (1L << 30);
    }

    private static void deleteTree(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
