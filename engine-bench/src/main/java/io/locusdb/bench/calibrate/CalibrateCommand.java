package io.locusdb.bench.calibrate;

import io.locusdb.core.exec.stealing.Calibration;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.placement.PlacementReport;
import io.locusdb.core.storage.placement.TablePlacementOps;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.Table;
import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.memory.NodeSegment;
import io.locusdb.natives.memory.PageMoveReport;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import io.trino.tpch.TpchTable;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./locus calibrate}: runs the calibration experiment, prints the curves, stores the figures. */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = {"Finds the memory throughput above which stealing a task class across nodes hurts (the",
                "stealing threshold), and measures page move, table move and repartition speeds in µs/page.",
                "Prints the steal / no-steal curves and stores the figures for the executor and placer."})
public final class CalibrateCommand implements Callable<Integer> {
    @Option(names = "--topology", paramLabel = "SETTING",
            description = "real | fake:N | configured:SPEC (default: LOCUS_TOPOLOGY, else real; a one-node machine"
                    + " uses fake:2)")
    String topology;

    @Option(names = "--vector-mib", defaultValue = "64", description = "MiB per vector (default ${DEFAULT-VALUE})")
    long vectorMib;

    @Option(names = "--vectors-per-node", defaultValue = "4",
            description = "vectors (and clients) per data node (default ${DEFAULT-VALUE})")
    int vectorsPerNode;

    @Option(names = "--powers", defaultValue = "1,2,4,8,16,32", split = ",",
            description = "powers n of v^n (default ${DEFAULT-VALUE})")
    int[] powers;

    @Option(names = "--seconds", defaultValue = "1.0", description = "measured seconds per point (default"
            + " ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--warmup", defaultValue = "0.3", description = "warm-up seconds per point (default"
            + " ${DEFAULT-VALUE})")
    double warmup;

    @Option(names = "--no-adaptive", description = "skip the third curve (adaptive stealing with the threshold)")
    boolean noAdaptive;

    @Option(names = "--move-mib", defaultValue = "64", description = "MiB moved with move_pages (default"
            + " ${DEFAULT-VALUE})")
    long moveMib;

    @Option(names = "--tpch-sf", defaultValue = "0.05",
            description = "scale factor of the lineitem table moved and repartitioned (default ${DEFAULT-VALUE})")
    double tpchScale;

    @Option(names = "--out", paramLabel = "FILE", description = "where to store the figures (default"
            + " $LOCUS_HOME/calibration.properties, ~/.locusdb without LOCUS_HOME)")
    Path out;

    @Option(names = "--no-store", description = "print only, store nothing")
    boolean noStore;

    private final PrintStream console = System.out;

    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new CalibrateCommand());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException) {
                commandLine.getErr().println("locus calibrate: " + e.getMessage());
                return 2;
            }
            throw e;
        });
        System.exit(cli.execute(args));
    }

    private Topology topology() {
        String setting = topology != null ? topology : System.getenv(Topologies.ENVIRONMENT);
        if (setting != null && !setting.isBlank()) {
            return Topologies.fromSetting(setting);
        }
        Topology real = Topologies.real();
        if (real.nodeCount() >= 2) {
            return real;
        }
        console.println("one NUMA node here: calibrating on a fake 2-node topology (fake:2)");
        return Topologies.fake(2);
    }

    @Override
    public Integer call() throws Exception {
        Topology t = topology();
        console.println(t.describe().lines().findFirst().orElse(t.toString()));
        if (t.kind() != io.locusdb.natives.topology.TopologyKind.REAL) {
            console.println("note: on a " + t.kind().label() + " topology the virtual nodes share memory, so a"
                    + " steal has no remote-memory penalty: expect stealing to win everywhere.");
        }
        CalibrationExperiment.Settings settings = new CalibrationExperiment.Settings(t, vectorMib << 20,
                vectorsPerNode, powers, seconds, warmup, !noAdaptive);
        CalibrationExperiment.Result result = new CalibrationExperiment(settings, console::println).run();
        printCurves(result);

        double pageMove = measurePageMove(t);
        double[] tableOps = measureTableOps(t);
        CalibrationExperiment.Threshold threshold = result.threshold();
        console.printf(Locale.ROOT, "%nstealing threshold: %.1f MB/s%n  %s%n", threshold.bytesPerSecond() / 1e6,
                threshold.explanation());
        console.printf(Locale.ROOT, "page move (move_pages): %.3f µs/page%n", pageMove);
        console.printf(Locale.ROOT, "table part move (copy): %.3f µs/page%n", tableOps[0]);
        console.printf(Locale.ROOT, "repartition 1→2:        %.3f µs/page%n", tableOps[1]);

        Calibration calibration = new Calibration(threshold.bytesPerSecond(), pageMove, tableOps[0], tableOps[1],
                t.kind().label() + " " + t.nodeCount() + " nodes, " + t.cpuCount() + " CPUs",
                threshold.explanation(), Instant.now());
        if (!noStore) {
            Path file = out != null ? out : Calibration.defaultPath();
            calibration.save(file);
            console.println("stored in " + file);
        }
        return 0;
    }

    private void printCurves(CalibrationExperiment.Result r) {
        console.println();
        console.println(r.adaptive().isEmpty() ? "curves:" : "second pass, the three policies back to back per power:");
        console.println("throughput in M elements/s (v^n summed), class = the task class's memory throughput average");
        console.println("  n     never-steal    always-steal        adaptive  always/never  class MB/s (never)"
                + "  stolen% (always)  stolen% (adaptive)");
        for (int i = 0; i < r.never().size(); i++) {
            CalibrationExperiment.Point never = r.never().get(i);
            CalibrationExperiment.Point always = r.always().get(i);
            String adaptive = r.adaptive().isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f",
                    r.adaptive().get(i).elementsPerSecond() / 1e6);
            String adaptiveStolen = r.adaptive().isEmpty() ? "-" : String.format(Locale.ROOT, "%.1f",
                    stolenPercent(r.adaptive().get(i)));
            String ratio = never.elementsPerSecond() > 0 ? String.format(Locale.ROOT, "%.2f",
                    always.elementsPerSecond() / never.elementsPerSecond()) : "-";
            console.printf(Locale.ROOT, "%3d  %14.2f  %14.2f  %14s  %12s  %18.1f  %16.1f  %18s%n", never.power(),
                    never.elementsPerSecond() / 1e6, always.elementsPerSecond() / 1e6, adaptive, ratio,
                    never.classThroughput() / 1e6, stolenPercent(always), adaptiveStolen);
        }
        if (r.never().stream().anyMatch(p -> p.tasks() == 0)) {
            console.println("note: some points finished no task while measured; their class throughput is 0. Use"
                    + " smaller --vector-mib or longer --seconds.");
        }
    }

    private static double stolenPercent(CalibrationExperiment.Point p) {
        return p.tasks() == 0 ? 0 : 100.0 * p.stolen() / p.tasks();
    }

    /** µs per moved page for a segment moved from node 0 to the last node; NaN when no page had to move. */
    private double measurePageMove(Topology t) {
        NodeMemory memory = new NodeMemory(t);
        try (Arena arena = Arena.ofConfined()) {
            NodeSegment segment = memory.allocate(moveMib << 20, MemoryPolicy.bind(0), arena);
            segment.touchPages(memory.pageSize());
            PageMoveReport report = memory.move(segment, t.nodeCount() - 1);
            if (report.moved() == 0) {
                console.println("page move: no page moved (" + report + "): the nodes share physical memory here");
            }
            return report.microsPerMovedPage();
        }
    }

    /** [table part move µs/page, repartition 1→2 µs/page] on lineitem at the configured scale. */
    private double[] measureTableOps(Topology t) {
        NodeMemory memory = new NodeMemory(t);
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        Catalog catalog = new Catalog(memory);
        Table table = catalog.register(new TpchLoader(memory, threads).generate(TpchTable.LINE_ITEM, tpchScale, 1,
                new InitialPlacement.Aligned(0), LoadProgress.NONE));
        try {
            TablePlacementOps ops = new TablePlacementOps(memory, threads);
            // A first round warms the code up (JIT); the second one is measured.
            ops.move(table, 0, t.nodeCount() - 1);
            ops.repartition(table);
            ops.merge(table, 0);
            PlacementReport move = ops.move(table, 0, t.nodeCount() - 1);
            PlacementReport repartition = ops.repartition(table);
            console.println(move);
            console.println(repartition);
            return new double[] {move.microsPerPage(), repartition.microsPerPage()};
        } finally {
            catalog.drop(table.name());
        }
    }

}
