package io.locusdb.server.cli;

import io.locusdb.core.storage.load.DelimitedFileLoader;
import io.locusdb.core.storage.load.DelimitedFormat;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.load.TpchSchemas;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.SystemViews;
import io.locusdb.core.storage.table.Table;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import io.trino.tpch.TpchTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./locus load}: generates TPC-H data (or loads .tbl/CSV files with TPC-H schemas) into an in-process store
 * and reports load time, footprint and placement. The data lives as long as the command; {@code ./locus serve}
 * keeps it.
 */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = "Load TPC-H data (generated, or .tbl/CSV files) and report time, footprint and placement.")
public final class LoadCommand implements Callable<Integer> {
    @Option(names = "--tpch", paramLabel = "SF", description = "Generate all eight TPC-H tables at scale factor SF.")
    Double scaleFactor;

    @Option(names = "--file", paramLabel = "FILE", description = "Load a .tbl or CSV file (needs --table).")
    Path file;

    @Option(names = "--table", paramLabel = "NAME", description = "The TPC-H table the file holds (its schema).")
    String table;

    @Option(names = "--parts", paramLabel = "N", description = "Parts per table (default: one per node).")
    Integer parts;

    @Option(names = "--placement", paramLabel = "POLICY", defaultValue = "round-robin",
            description = "first-touch, round-robin, aligned[:N], interleave or 1-ahead (default ${DEFAULT-VALUE}).")
    String placement;

    @Option(names = "--threads", paramLabel = "N", description = "Loader threads (default: CPUs).")
    Integer threads;

    @Option(names = "--columns", description = "Also list every column's encoding.")
    boolean columns;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if ((scaleFactor == null) == (file == null)) {
            throw new IllegalArgumentException("give either --tpch SF or --file FILE --table NAME");
        }
        Topology topology = Topologies.fromEnvironment();
        NodeMemory memory = new NodeMemory(topology);
        Catalog catalog = new Catalog(memory);
        InitialPlacement policy = InitialPlacement.parse(placement);
        int partCount = parts != null ? parts : topology.nodeCount();
        int loaderThreads = threads != null ? threads : topology.cpuCount();
        PrintWriter out = spec.commandLine().getOut();
        ProgressBar progress = new ProgressBar(System.err);
        long start = System.nanoTime();
        if (scaleFactor != null) {
            new TpchLoader(memory, loaderThreads).loadAll(catalog, scaleFactor, partCount, policy, progress);
        } else {
            if (table == null) {
                throw new IllegalArgumentException("--file needs --table (one of the TPC-H tables)");
            }
            TpchTable<?> tpch = TpchTable.getTable(table.toLowerCase(Locale.ROOT));
            String key = TpchSchemas.partitionKey(tpch);
            PartitionSpec partitioning = key == null || partCount == 1 ? PartitionSpec.none()
                    : new PartitionSpec.Range(key, partCount);
            Table loaded = new DelimitedFileLoader(memory, loaderThreads).load(file, tpch.getTableName(),
                    TpchSchemas.schemaOf(tpch), partitioning,
                    DelimitedFormat.forFile(file.getFileName().toString()), policy, progress);
            loaded.checkKeysUnique();
            catalog.register(loaded);
        }
        long nanos = System.nanoTime() - start;
        progress.finish();
        print(out, topology, catalog, nanos);
        return 0;
    }

    private void print(PrintWriter out, Topology topology, Catalog catalog, long nanos) {
        SystemViews views = new SystemViews(catalog);
        out.printf(Locale.ROOT, "loaded in %.2f s on a %s topology with %d node(s)%n", nanos / 1e9,
                topology.kind().label(), topology.nodeCount());
        out.printf(Locale.ROOT, "%-10s %-34s %6s %12s %12s%n", "table", "partitioning", "parts", "rows", "MiB");
        long total = 0;
        for (SystemViews.TableRow t : views.tables()) {
            out.printf(Locale.ROOT, "%-10s %-34s %6d %,12d %12.1f%n", t.name(), t.partitioning(), t.parts(),
                    t.rows(), t.bytes() / 1048576.0);
            total += t.bytes();
        }
        out.printf(Locale.ROOT, "%-10s %-34s %6s %12s %12.1f%n", "total", "", "", "", total / 1048576.0);
        out.println("parts (pages by node):");
        for (SystemViews.PartRow p : views.parts()) {
            out.printf(Locale.ROOT, "  %-10s part %-3d home node %d  %-28s %,12d rows %10.1f MiB  pages %s%n",
                    p.table(), p.part(), p.homeNode(), p.memoryPolicy(), p.rows(), p.mappedBytes() / 1048576.0,
                    Arrays.toString(p.pagesByNode()));
        }
        if (columns) {
            out.println("columns:");
            for (SystemViews.ColumnRow c : views.columns()) {
                out.printf(Locale.ROOT, "  %-10s %-3d %-16s %-14s %,10d distinct %2d bits %-10s %10.2f MiB dict"
                                + " %10.2f MiB codes%n", c.table(), c.part(), c.column(), c.type(), c.distinct(),
                        c.codeBits(), c.packing(),
                        c.dictionaryBytes() / 1048576.0, c.codeBytes() / 1048576.0);
            }
        }
        out.flush();
    }
}
