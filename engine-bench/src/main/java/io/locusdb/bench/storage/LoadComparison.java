package io.locusdb.bench.storage;

import io.locusdb.core.storage.load.DelimitedFileLoader;
import io.locusdb.core.storage.load.DelimitedFormat;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.load.TpchSchemas;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.topology.Topologies;
import io.trino.tpch.LineItem;
import io.trino.tpch.TpchTable;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Loads TPC-H lineitem into LocusDB and into DuckDB (in-process, in-memory, same thread count) in one run and
 * prints load times (median of the repetitions) and in-memory footprints side by side:
 * <ul>
 *   <li>LocusDB from the generator (the path {@code ./locus load --tpch} takes),</li>
 *   <li>LocusDB and DuckDB each reading the same {@code lineitem.tbl} file.</li>
 * </ul>
 * Usage: {@code LoadComparison [scale-factor=1] [repetitions=3] [dir=target/tpch-data]}.
 */
public final class LoadComparison {
    private LoadComparison() {
    }

    public static void main(String[] args) throws Exception {
        double sf = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = Path.of(args.length > 2 ? args[2] : "target/tpch-data");
        int threads = Runtime.getRuntime().availableProcessors();
        Path file = writeTbl(dir, sf);
        System.out.printf(Locale.ROOT, "lineitem SF%s, %d thread(s), %d repetitions, file %s (%.0f MiB)%n", sf,
                threads, reps, file, Files.size(file) / 1048576.0);

        NodeMemory memory = new NodeMemory(Topologies.real());
        List<Double> generated = new ArrayList<>();
        List<Double> fromFile = new ArrayList<>();
        long locusBytes = 0;
        long locusMapped = 0;
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            Table table = new TpchLoader(memory, threads).generate(TpchTable.LINE_ITEM, sf, 1,
                    new InitialPlacement.RoundRobin(), LoadProgress.NONE);
            generated.add((System.nanoTime() - t0) / 1e9);
            locusBytes = table.version().parts().stream().mapToLong(TablePart::byteSize).sum();
            locusMapped = table.version().parts().stream().mapToLong(p -> p.memory().mappedBytes()).sum();
            table.version().parts().forEach(TablePart::release);
            System.gc();

            t0 = System.nanoTime();
            Table loaded = new DelimitedFileLoader(memory, threads).load(file, "lineitem",
                    TpchSchemas.schemaOf(TpchTable.LINE_ITEM), PartitionSpec.none(), DelimitedFormat.tbl(),
                    new InitialPlacement.RoundRobin(), LoadProgress.NONE);
            fromFile.add((System.nanoTime() - t0) / 1e9);
            loaded.version().parts().forEach(TablePart::release);
            System.gc();
        }

        List<Double> duck = new ArrayList<>();
        long duckBytes = 0;
        long duckBytesBeforeCheckpoint = 0;
        for (int r = 0; r < reps; r++) {
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                 Statement s = c.createStatement()) {
                s.execute("SET threads = " + threads);
                long t0 = System.nanoTime();
                loadDuck(s, file);
                duck.add((System.nanoTime() - t0) / 1e9);
                try (ResultSet rs = s.executeQuery("SELECT sum(memory_usage_bytes) FROM duckdb_memory()")) {
                    rs.next();
                    duckBytesBeforeCheckpoint = rs.getLong(1);
                }
                // DuckDB compresses in-memory tables at checkpoint time; both figures are reported.
                s.execute("CHECKPOINT");
                try (ResultSet rs = s.executeQuery("SELECT sum(memory_usage_bytes) FROM duckdb_memory()")) {
                    rs.next();
                    duckBytes = rs.getLong(1);
                }
            }
        }
        double g = median(generated);
        double f = median(fromFile);
        double d = median(duck);
        System.out.printf(Locale.ROOT, "%-42s %10s %12s%n", "", "median s", "footprint");
        System.out.printf(Locale.ROOT, "%-42s %10.2f %9.0f MiB (%.0f MiB mapped)%n", "LocusDB, TPC-H generator", g,
                locusBytes / 1048576.0, locusMapped / 1048576.0);
        System.out.printf(Locale.ROOT, "%-42s %10.2f%n", "LocusDB, lineitem.tbl", f);
        System.out.printf(Locale.ROOT, "%-42s %10.2f %9.0f MiB after CHECKPOINT (%.0f MiB before)%n",
                "DuckDB " + duckVersion() + ", lineitem.tbl", d, duckBytes / 1048576.0,
                duckBytesBeforeCheckpoint / 1048576.0);
        System.out.printf(Locale.ROOT, "time ratio LocusDB/DuckDB: generator %.2f, file %.2f; footprint ratio %.2f"
                + " (vs DuckDB before checkpoint %.2f)%n", g / d, f / d, (double) locusMapped / duckBytes,
                (double) locusMapped / duckBytesBeforeCheckpoint);
        System.out.println("all runs (s): generator " + generated + ", file " + fromFile + ", duckdb " + duck);
    }

    /** Loads {@code lineitem.tbl} into DuckDB as table {@code lineitem} (the trailing '|' column dropped). */
    public static void loadDuck(java.sql.Statement s, Path file) throws java.sql.SQLException {
        s.execute("CREATE TABLE lineitem AS SELECT * FROM read_csv('" + file + "', delim = '|', header = false,"
                + " columns = {'l_orderkey': 'BIGINT', 'l_partkey': 'BIGINT', 'l_suppkey': 'BIGINT',"
                + " 'l_linenumber': 'INTEGER', 'l_quantity': 'DECIMAL(15,2)', 'l_extendedprice': 'DECIMAL(15,2)',"
                + " 'l_discount': 'DECIMAL(15,2)', 'l_tax': 'DECIMAL(15,2)', 'l_returnflag': 'VARCHAR',"
                + " 'l_linestatus': 'VARCHAR', 'l_shipdate': 'DATE', 'l_commitdate': 'DATE',"
                + " 'l_receiptdate': 'DATE', 'l_shipinstruct': 'VARCHAR', 'l_shipmode': 'VARCHAR',"
                + " 'l_comment': 'VARCHAR', 'dummy': 'VARCHAR'})");
        s.execute("ALTER TABLE lineitem DROP COLUMN dummy");
    }

    public static Path writeTbl(Path dir, double sf) throws IOException {
        Path file = dir.resolve(String.format(Locale.ROOT, "lineitem-sf%s.tbl", sf));
        if (Files.exists(file)) {
            return file;
        }
        Files.createDirectories(dir);
        Path tmp = dir.resolve(file.getFileName() + ".tmp");
        try (BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            for (LineItem item : TpchTable.LINE_ITEM.createGenerator(sf, 1, 1)) {
                out.write(item.toLine());
                out.write('\n');
            }
        }
        return Files.move(tmp, file);
    }

    private static String duckVersion() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT version()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
