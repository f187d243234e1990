package io.locusdb.bench.placement;

import io.locusdb.bench.seed.EmbeddedTarget;
import io.locusdb.bench.seed.EngineCostFit;
import io.locusdb.bench.seed.SeedWorkloadRun;
import io.locusdb.bench.sim.Check;
import io.locusdb.bench.sim.HostMeasurement;
import io.locusdb.bench.sim.MachineModel;
import io.locusdb.bench.sim.Reproduction;
import io.locusdb.bench.sim.Scenario;
import io.locusdb.bench.sim.ScenarioParser;
import io.locusdb.bench.sim.SimEvent;
import io.locusdb.bench.sim.SimResult;
import io.locusdb.bench.sim.SimulationChart;
import io.locusdb.bench.sim.SimulationCsv;
import io.locusdb.bench.sim.Simulator;
import io.locusdb.natives.topology.Topologies;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import io.locusdb.bench.sim.eris.ErisFigures;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./locus simulate SCENARIO}: runs a benchmark scenario on a simulated multi-socket machine with LocusDB's
 * own stealing policy and Data Placer, writes CSV timelines and PNG plots, and ends with one {@code check} line
 * per ratio the paper states.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = {"Runs a scenario of the adaptive-placement paper's benchmark in the NUMA simulator (LocusDB's",
                "own stealing policy, utilization histories and Data Placer on simulated time), writes CSV + PNG,",
                "and prints 'check NAME measured=X paper=Y ok|off' for each ratio of the paper's figure."})
public final class SimulateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCENARIO",
            description = "fig10, fig11, fig12, fig14, fig16, numa-effects, elastic, calibration, eris-fig8,"
                    + " eris-fig9, eris-fig13, or a scenario file")
    String scenarioName;

    @Option(names = "--machine", description = "4x15, 8x15, 32x18 or here (default: the scenario's)")
    String machine;

    @Option(names = "--seed", defaultValue = "1", description = "random seed (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--rows-scale", defaultValue = "1",
            description = "factor on the rows per table (default ${DEFAULT-VALUE}: the paper's)")
    double rowsScale;

    @Option(names = "--time-scale", defaultValue = "1",
            description = "factor on the scenario's seconds and phase times (default ${DEFAULT-VALUE})")
    double timeScale;

    @Option(names = "--out", defaultValue = "simulation", description = "output folder (default ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--real", paramLabel = "TOPOLOGY",
            description = {"also run the scenario on the real engine on this topology (e.g. fake:2) and compare the",
                    "throughput ratio after/before the placer was switched on (check NAME.sim-vs-real)"})
    String realTopology;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new SimulateCommand());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException) {
                commandLine.getErr().println("locus simulate: " + e.getMessage());
                return 2;
            }
            throw e;
        });
        System.exit(cli.execute(args));
    }

    @Override
    public Integer call() throws IOException {
        if (!(rowsScale > 0 && timeScale > 0)) {
            throw new IllegalArgumentException("--rows-scale and --time-scale must be positive");
        }
        PrintWriter console = spec.commandLine().getOut();
        if (ErisFigures.handles(scenarioName)) {
            ErisFigures.run(scenarioName, out, console);
            return 0;
        }
        Scenario declared = ScenarioParser.load(scenarioName, 0);
        if (realTopology != null && !declared.isSeedBenchmark()) {
            throw new IllegalArgumentException("--real runs the benchmark's TBLn tables and query types a, b and c;"
                    + " scenario " + declared.name() + " has table sizes, groups, query templates or step costs of its"
                    + " own");
        }
        String machineName = machine != null ? machine : declared.machine();
        boolean here = machineName.equals(MachineModel.HERE);
        MachineModel model = here ? HostMeasurement.measure(2) : MachineModel.preset(machineName);
        Scenario scenario = (model.nodes() == ScenarioParser.nodesOf(declared.machine()) ? declared
                : ScenarioParser.load(scenarioName, model.nodes())).scaled(rowsScale, timeScale);
        Simulator.Settings settings = Simulator.Settings.defaults(seed);
        if (here) {
            EngineCostFit.Fit fit = EngineCostFit.measure(scenario.rows(), model.threadBandwidth(), 2);
            console.println(fit.describe());
            settings = settings.withCosts(fit.costs());
            if (!scenario.costs().isEmpty()) {
                console.println("the scenario's own cost lines (" + scenario.costs().stream()
                        .map(Scenario.StepCost::kind).toList() + ") replace those fitted costs");
            }
        }
        console.println("scenario " + scenario.name() + ": " + scenario.description());
        console.println("machine " + model.describe());
        console.flush();
        Reproduction.Outcome outcome = Reproduction.run(scenario, model, settings);
        Files.createDirectories(out);
        for (Reproduction.Run run : outcome.runs()) {
            String file = scenario.name() + (run.cores().equals("all") ? "" : "-cores-" + run.cores())
                    + (run.layout() == null ? "" : "-" + run.layout())
                    + (run.selectivity() == null ? "" : "-sel" + run.selectivity())
                    + "-" + run.stealing();
            SimulationCsv.timeline(out.resolve(file + ".csv"), run.result());
            SimulationCsv.events(out.resolve(file + "-events.csv"), run.result());
            SimulationChart.timeline(out.resolve(file + ".png"), run.result());
            console.println(Reproduction.summary(run));
            console.println("  final layout: " + run.result().layoutLine());
            for (SimEvent e : run.result().events()) {
                console.println("  " + e.line());
            }
        }
        if (outcome.runs().size() > 1 && outcome.runs().getFirst().selectivity() != null) {
            SimulationChart.sweep(out.resolve(scenario.name() + "-sweep.png"), outcome);
        }
        console.println("wrote " + out.toAbsolutePath());
        for (Check check : outcome.checks()) {
            console.println(check.line());
        }
        if (realTopology != null) {
            compareWithRealEngine(console, scenario, outcome);
        }
        return 0;
    }

    /** Runs the scenario on the real engine too and compares the placer's effect (after/before) with the model's. */
    private void compareWithRealEngine(PrintWriter console, Scenario scenario, Reproduction.Outcome outcome)
            throws IOException {
        SimResult simulated = outcome.runs().getFirst().result();
        double simRatio = Reproduction.afterOverBefore(simulated);
        if (Double.isNaN(simRatio)) {
            throw new IllegalArgumentException("--real compares the placer's effect: the scenario must switch the"
                    + " placer on after its second second");
        }
        console.printf(Locale.ROOT, "running %s on the real engine (%s)...%n", scenario.name(), realTopology);
        console.flush();
        SimResult real;
        try (EmbeddedTarget target = new EmbeddedTarget(Topologies.fromSetting(realTopology),
                SeedWorkloadRun.stealing(scenario))) {
            real = SeedWorkloadRun.run(scenario, target, new SeedWorkloadRun.Settings(1, 1, 1, seed),
                    warning -> console.println("warning: " + warning));
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the real engine's run failed: " + e, e);
        }
        for (SimEvent e : real.events()) {
            console.println("  real " + e.line());
        }
        SimulationCsv.timeline(out.resolve(scenario.name() + "-real.csv"), real);
        SimulationChart.timeline(out.resolve(scenario.name() + "-real.png"), real);
        double realRatio = Reproduction.afterOverBefore(real);
        console.printf(Locale.ROOT, "after/before the placer: simulated %.2f, real engine %.2f%n", simRatio,
                realRatio);
        console.println(new Check(scenario.name() + ".sim-vs-real", simRatio / realRatio, 1.0, false).line());
    }
}
