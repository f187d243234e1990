package io.locusdb.bench.placement;

import io.locusdb.core.placer.PlacementActions;
import io.locusdb.core.placer.PlacerEvent;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./locus bench placement}: the placer's demonstration on a fake multi-node topology. Runs the same workload
 * twice in one process, placer on and placer off, prints the events and the same-run ratios of throughput after /
 * before, and writes the timeline as CSV and PNG.
 */
@Command(name = "placement", mixinStandardHelpOptions = true,
        description = {"Two tables on node 0, clients running range selects on both, no stealing of scan tasks;",
                "the placer is switched on after a first phase. Prints the placer's events and throughput after /",
                "before with the placer on and off (same process, same workload), writes timeline CSV + PNG."})
public final class PlacementCommand implements Callable<Integer> {
    @Option(names = "--topology", defaultValue = "fake:2", description = "topology (default ${DEFAULT-VALUE})")
    String topology;

    @Option(names = "--rows", defaultValue = "4000000", description = "rows per table (default ${DEFAULT-VALUE})")
    long rows;

    @Option(names = "--clients", defaultValue = "4", description = "client threads (default ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--seconds", defaultValue = "20", description = "length of each run (default ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--enable-at", defaultValue = "6",
            description = "second at which the placer is switched on (default ${DEFAULT-VALUE})")
    double enableAt;

    @Option(names = "--period-ms", defaultValue = "1000", description = "placer period c_p (default ${DEFAULT-VALUE})")
    long periodMillis;

    @Option(names = "--selectivity", defaultValue = "0.001",
            description = "fraction of rows a range select matches (default ${DEFAULT-VALUE})")
    double selectivity;

    @Option(names = "--out", defaultValue = "placement-demo", description = "output folder (default ${DEFAULT-VALUE})")
    Path out;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new PlacementCommand());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException) {
                commandLine.getErr().println("locus bench placement: " + e.getMessage());
                return 2;
            }
            throw e;
        });
        System.exit(cli.execute(args));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (!(enableAt > 1 && seconds > enableAt + 3)) {
            throw new IllegalArgumentException("--enable-at must be over 1 s and at least 3 s before --seconds");
        }
        PrintWriter console = spec.commandLine().getOut();
        Topology t = Topologies.fromSetting(topology);
        if (t.nodeCount() < 2) {
            throw new IllegalArgumentException("the demonstration needs two nodes or more; " + topology + " has one");
        }
        console.printf(Locale.ROOT, "cpu: %s; topology %s (%d nodes, %d CPUs)%n", cpuModel(), topology, t.nodeCount(),
                t.cpuCount());
        console.printf(Locale.ROOT, "%d clients, 2 tables x %,d rows on node 0, range selects of %.3f%%, %s s runs,"
                + " placer switched on at %s s (period %d ms)%n", clients, rows, selectivity * 100, seconds, enableAt,
                periodMillis);
        console.flush();
        PlacementRun.Settings settings = new PlacementRun.Settings(t, rows, clients, seconds, enableAt, 250,
                periodMillis, selectivity, 42);
        PlacementRun.Result on = PlacementRun.run(settings, true);
        PlacementRun.Result off = PlacementRun.run(settings, false);

        console.println("placer events (placer-on run):");
        for (PlacerEvent e : on.events()) {
            if (e.source().equals(PlacerEvent.PLACER)) {
                console.printf(Locale.ROOT, "  t=%6.2f s  %s%n", on.eventSeconds(e), PlacementActions.describe(e));
            }
        }
        double beforeFrom = 1.0;
        double afterFrom = Math.max(enableAt, seconds - (seconds - enableAt) / 2);
        Ratio onRatio = ratio(on, beforeFrom, enableAt, afterFrom, seconds);
        Ratio offRatio = ratio(off, beforeFrom, enableAt, afterFrom, seconds);
        console.printf(Locale.ROOT, "throughput (queries/s), before = (%.1f, %.1f] s, after = (%.1f, %.1f] s:%n",
                beforeFrom, enableAt, afterFrom, seconds);
        console.printf(Locale.ROOT, "  placer on : before %8.1f  after %8.1f  after/before %.2fx%n", onRatio.before(),
                onRatio.after(), onRatio.ratio());
        console.printf(Locale.ROOT, "  placer off: before %8.1f  after %8.1f  after/before %.2fx%n", offRatio.before(),
                offRatio.after(), offRatio.ratio());
        PlacerEvent first = on.events().stream().filter(e -> e.source().equals(PlacerEvent.PLACER)).findFirst()
                .orElse(null);
        console.printf(Locale.ROOT, "  first placer event %s%n", first == null ? "none"
                : String.format(Locale.ROOT, "%.2f s after the placer was switched on", on.eventSeconds(first)
                        - enableAt));
        Files.createDirectories(out);
        Path csv = out.resolve("placement-timeline.csv");
        Path png = out.resolve("placement-timeline.png");
        TimelineCsv.write(csv, on, off, t.nodeCount());
        TimelineChart.write(png, on, off, enableAt, t.nodeCount());
        console.printf("timeline: %s, %s%n", csv, png);
        console.flush();
        return 0;
    }

    record Ratio(double before, double after) {
        double ratio() {
            return after / before;
        }
    }

    private static Ratio ratio(PlacementRun.Result r, double beforeFrom, double beforeTo, double afterFrom,
                               double afterTo) {
        return new Ratio(r.throughput(beforeFrom, beforeTo), r.throughput(afterFrom, afterTo));
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
