package io.locusdb.bench.placement;

import io.locusdb.bench.clients.MixQuery;
import io.locusdb.bench.clients.ThroughputCommand;
import io.locusdb.bench.clients.TpchTemplateMix;
import io.locusdb.bench.seed.EmbeddedTarget;
import io.locusdb.bench.seed.SeedTarget;
import io.locusdb.bench.seed.SeedWorkloadRun;
import io.locusdb.bench.seed.ServerTarget;
import io.locusdb.bench.sim.Check;
import io.locusdb.bench.sim.Reproduction;
import io.locusdb.bench.sim.Scenario;
import io.locusdb.bench.sim.ScenarioParser;
import io.locusdb.bench.sim.SimEvent;
import io.locusdb.bench.sim.SimResult;
import io.locusdb.bench.sim.SimulationChart;
import io.locusdb.bench.sim.SimulationCsv;
import io.locusdb.core.placer.PlacementActions;
import io.locusdb.core.placer.PlacerEvent;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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
    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO",
            description = {"a benchmark scenario (fig10, fig11, fig12, fig14, calibration, or a file) to run on the",
                    "real engine instead of the two-table demonstration; tpch: the paper's Figure 16, the TPC-H",
                    "mix from JDBC clients with every table starting on node 0"})
    String scenarioName;

    @Option(names = "--rows-scale", defaultValue = "0.02",
            description = "with SCENARIO: factor on its rows per table (default ${DEFAULT-VALUE})")
    double rowsScale;

    @Option(names = "--clients-scale", defaultValue = "0.05",
            description = "with SCENARIO: factor on its client counts, at least one each (default ${DEFAULT-VALUE})")
    double clientsScale;

    @Option(names = "--time-scale", defaultValue = "0.2",
            description = "with SCENARIO: factor on its seconds and phase times (default ${DEFAULT-VALUE})")
    double timeScale;

    @Option(names = "--seed", defaultValue = "42",
            description = "with SCENARIO: random seed (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--url", description = {"with SCENARIO: run it against the server at this JDBC URL (its tables",
            "TBLn are dropped and created there) instead of an engine in this process"})
    String url;

    @Option(names = "--user", defaultValue = "", description = "with --url: user name")
    String user;

    @Option(names = "--password", defaultValue = "", description = "with --url: password")
    String password;

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

    @Option(names = "--sf", defaultValue = "0.1",
            description = "with tpch: TPC-H scale factor (default ${DEFAULT-VALUE})")
    double scaleFactor;

    @Option(names = "--draws", defaultValue = "2",
            description = "with tpch: parameter sets drawn per template, answered by DuckDB first"
                    + " (default ${DEFAULT-VALUE})")
    int draws;

    @Option(names = "--warmup", defaultValue = "15", description = {"with tpch: seconds of an unreported run first,",
            "so that neither measured run is the one the JIT compiles in (default ${DEFAULT-VALUE})"})
    double warmupSeconds;

    @Option(names = "--data", defaultValue = "target/tpch-data",
            description = "with tpch: where the TPC-H rows for DuckDB are written (default ${DEFAULT-VALUE})")
    Path dataDir;

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
    public Integer call() throws IOException, InterruptedException, SQLException {
        if ("tpch".equals(scenarioName)) {
            return runTpch();
        }
        if (scenarioName != null) {
            return runScenario();
        }
        if (!(enableAt > 1 && seconds > enableAt + 3)) {
            throw new IllegalArgumentException("--enable-at must be over 1 s and at least 3 s before --seconds");
        }
        PrintWriter console = spec.commandLine().getOut();
        Topology t = severalNodes("the demonstration", console);
        console.printf(Locale.ROOT, "%d clients, 2 tables x %,d rows on node 0, range selects of %.3f%%, %s s runs,"
                + " placer switched on at %s s (period %d ms)%n", clients, rows, selectivity * 100, seconds, enableAt,
                periodMillis);
        console.flush();
        PlacementRun.Settings settings = new PlacementRun.Settings(t, rows, clients, seconds, enableAt, 250,
                periodMillis, selectivity, 42);
        PlacementRun.Result on = PlacementRun.run(settings, true);
        PlacementRun.Result off = PlacementRun.run(settings, false);
        printEventsAndThroughput(console, on, off, 1.0);
        PlacerEvent first = on.events().stream().filter(e -> e.source().equals(PlacerEvent.PLACER)).findFirst()
                .orElse(null);
        console.printf(Locale.ROOT, "  first placer event %s%n", first == null ? "none"
                : String.format(Locale.ROOT, "%.2f s after the placer was switched on", on.eventSeconds(first)
                        - enableAt));
        Files.createDirectories(out);
        Path csv = out.resolve("placement-timeline.csv");
        Path png = out.resolve("placement-timeline.png");
        TimelineCsv.write(csv, on, off, t.nodeCount());
        TimelineChart.write(png, "Adaptive placement: two tables on node 0, range selects, no scan stealing", on, off,
                enableAt, t.nodeCount());
        console.printf("timeline: %s, %s%n", csv, png);
        console.flush();
        return 0;
    }

    /**
     * Figure 16 on the real engine: the TPC-H mix with every table on node 0, placer on after a first phase, and the
     * same run with the placer off; events, throughput after / before, every answer checked, CSV + PNG.
     */
    private int runTpch() throws IOException, InterruptedException, SQLException {
        if (!(enableAt > 1 && seconds > enableAt + 3) || scaleFactor <= 0 || draws < 1 || clients < 1
                || warmupSeconds < 0) {
            throw new IllegalArgumentException("--enable-at must be over 1 s and at least 3 s before --seconds;"
                    + " --sf > 0, --draws and --clients >= 1, --warmup >= 0");
        }
        PrintWriter console = spec.commandLine().getOut();
        Topology t = severalNodes("Figure 16", console);
        console.printf(Locale.ROOT, "TPC-H SF %s, every table in one part on node 0; %d JDBC clients running the 22"
                + " templates (%d parameter sets each, answers checked against DuckDB); %s s runs, placer switched on"
                + " at %s s (period %d ms); default stealing policy%n", scaleFactor, clients, draws, seconds, enableAt,
                periodMillis);
        console.flush();
        List<MixQuery> mix;
        try (Connection duck = ThroughputCommand.openDuck(dataDir, scaleFactor)) {
            mix = TpchTemplateMix.queries(duck, seed, draws);
        }
        TpchPlacementRun.Settings settings = new TpchPlacementRun.Settings(t, scaleFactor, clients, seconds, enableAt,
                250, periodMillis, seed);
        if (warmupSeconds > 0) {
            TpchPlacementRun.Outcome warm = TpchPlacementRun.run(new TpchPlacementRun.Settings(t, scaleFactor,
                    clients, warmupSeconds, warmupSeconds, 250, periodMillis, seed), mix, false);
            console.printf(Locale.ROOT, "warm-up run (placer off, not reported): %.0f s, %d queries%n", warmupSeconds,
                    warm.report().queries());
            console.flush();
        }
        TpchPlacementRun.Outcome on = TpchPlacementRun.run(settings, mix, true);
        TpchPlacementRun.Outcome off = TpchPlacementRun.run(settings, mix, false);
        // The first seconds of a run are its JIT's and its clients' start: "before" begins a third of the way in.
        printEventsAndThroughput(console, on.result(), off.result(), enableAt / 3);
        for (TpchPlacementRun.Outcome o : List.of(on, off)) {
            console.printf(Locale.ROOT, "  %s: %d queries, %d wrong answers, %d errors%s%n",
                    o.result().placer() ? "placer on " : "placer off", o.report().queries(), o.report().wrongAnswers(),
                    o.report().errors(), o.report().failures().isEmpty() ? "" : "; first failure: "
                            + o.report().failures().getFirst());
        }
        Files.createDirectories(out);
        Path csv = out.resolve("tpch-placement-timeline.csv");
        Path png = out.resolve("tpch-placement-timeline.png");
        TimelineCsv.write(csv, on.result(), off.result(), t.nodeCount());
        TimelineChart.write(png, "Adaptive placement (Figure 16): TPC-H mix, every table on node 0 at the start",
                on.result(), off.result(), enableAt, t.nodeCount());
        console.printf("timeline: %s, %s%n", csv, png);
        console.flush();
        return on.report().clean() && off.report().clean() ? 0 : 1;
    }

    /** A benchmark scenario on the real engine: events, throughput per second, CSV + PNG and the figure's checks. */
    private int runScenario() throws IOException, InterruptedException {
        if (!(rowsScale > 0 && clientsScale > 0 && timeScale > 0)) {
            throw new IllegalArgumentException("--rows-scale, --clients-scale and --time-scale must be positive");
        }
        PrintWriter console = spec.commandLine().getOut();
        Topology t = Topologies.fromSetting(topology);
        Scenario scenario = ScenarioParser.load(scenarioName, 0);
        console.printf(Locale.ROOT, "cpu: %s; topology %s (%d nodes, %d CPUs)%n", cpuModel(), topology, t.nodeCount(),
                t.cpuCount());
        console.printf(Locale.ROOT, "scenario %s: %s%nscaled: rows x %s, clients x %s, time x %s (scenario nodes"
                + " fold onto the topology's: node mod %d)%n", scenario.name(), scenario.description(), rowsScale,
                clientsScale, timeScale, t.nodeCount());
        console.flush();
        SimResult r;
        try (SeedTarget target = target(t, scenario)) {
            r = SeedWorkloadRun.run(scenario, target, new SeedWorkloadRun.Settings(rowsScale, clientsScale, timeScale,
                    seed), warning -> console.println("warning: " + warning));
        } catch (IOException | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalArgumentException("the benchmark against " + (url != null ? url : topology)
                    + " failed: " + e.getMessage(), e);
        }
        for (SimEvent e : r.events()) {
            console.println("  " + e.line());
        }
        double total = r.scenario().seconds();
        console.printf(Locale.ROOT, "%.1f queries/s over the run, %.1f%% of tasks stolen, task classes (MB/s):%s%n",
                r.throughput(0.1 * total, total), 100 * r.stolenShare(), r.classesLine());
        Files.createDirectories(out);
        String file = scenario.name() + "-real";
        SimulationCsv.timeline(out.resolve(file + ".csv"), r);
        SimulationCsv.events(out.resolve(file + "-events.csv"), r);
        SimulationChart.timeline(out.resolve(file + ".png"), r);
        console.println("wrote " + out.toAbsolutePath());
        List<Reproduction.Run> runs = List.of(new Reproduction.Run("all", null, null, r.scenario().stealing(), r));
        for (Check check : Reproduction.checks(r.scenario(), runs)) {
            console.println(check.line());
        }
        console.flush();
        return 0;
    }

    private SeedTarget target(Topology t, Scenario scenario) throws Exception {
        if (url == null) {
            return new EmbeddedTarget(t, SeedWorkloadRun.stealing(scenario));
        }
        Properties credentials = new Properties();
        if (!user.isEmpty()) {
            credentials.setProperty("user", user);
        }
        if (!password.isEmpty()) {
            credentials.setProperty("password", password);
        }
        return new ServerTarget(url, credentials);
    }

    /**
     * The placer's events in the placer-on run, then both runs' throughput before the switch (from
     * {@code beforeFrom}) and in the second half of the time after it, and their ratios.
     */
    private void printEventsAndThroughput(PrintWriter console, PlacementRun.Result on, PlacementRun.Result off,
                                          double beforeFrom) {
        console.println("placer events (placer-on run):");
        for (PlacerEvent e : on.events()) {
            if (e.source().equals(PlacerEvent.PLACER)) {
                console.printf(Locale.ROOT, "  t=%6.2f s  %s%n", on.eventSeconds(e), PlacementActions.describe(e));
            }
        }
        double afterFrom = Math.max(enableAt, seconds - (seconds - enableAt) / 2);
        Ratio onRatio = ratio(on, beforeFrom, enableAt, afterFrom, seconds);
        Ratio offRatio = ratio(off, beforeFrom, enableAt, afterFrom, seconds);
        console.printf(Locale.ROOT, "throughput (queries/s), before = (%.1f, %.1f] s, after = (%.1f, %.1f] s:%n",
                beforeFrom, enableAt, afterFrom, seconds);
        console.printf(Locale.ROOT, "  placer on : before %8.1f  after %8.1f  after/before %.2fx%n", onRatio.before(),
                onRatio.after(), onRatio.ratio());
        console.printf(Locale.ROOT, "  placer off: before %8.1f  after %8.1f  after/before %.2fx%n", offRatio.before(),
                offRatio.after(), offRatio.ratio());
        console.printf(Locale.ROOT, "  placer on / placer off after: %.2fx%n", onRatio.after() / offRatio.after());
    }

    /** The --topology, refused unless it has two nodes or more (placement needs somewhere to go); prints it. */
    private Topology severalNodes(String what, PrintWriter console) {
        Topology t = Topologies.fromSetting(topology);
        if (t.nodeCount() < 2) {
            throw new IllegalArgumentException(what + " needs two nodes or more; " + topology + " has one");
        }
        console.printf(Locale.ROOT, "cpu: %s; topology %s (%d nodes, %d CPUs)%n", cpuModel(), topology, t.nodeCount(),
                t.cpuCount());
        return t;
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
