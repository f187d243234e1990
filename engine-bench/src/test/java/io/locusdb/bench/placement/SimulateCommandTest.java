package io.locusdb.bench.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SimulateCommandTest {

    private record Outcome(int exit, String out, String err) {
    }

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new SimulateCommand());
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException) {
                commandLine.getErr().println("locus simulate: " + e.getMessage());
                return 2;
            }
            throw e;
        });
        int exit = cli.execute(args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    @Test
    void a_scenario_file_runs_and_writes_its_timeline_plot_and_checks(@TempDir Path dir) throws IOException {
        Path scenario = dir.resolve("two.scenario");
        Files.writeString(scenario, """
                name two
                machine 4x15
                seconds 8
                rows 10000000
                table T1 node 0
                table T2 node 0
                clients 16 a T1,T2 selectivity 0.0001
                placer on
                stealing adaptive
                """);
        Outcome o = run(scenario.toString(), "--out", dir.resolve("out").toString());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).contains("scenario two").contains("q/s");
        assertThat(dir.resolve("out/two-adaptive.csv")).exists();
        assertThat(dir.resolve("out/two-adaptive.png")).exists();
        assertThat(Files.readAllLines(dir.resolve("out/two-adaptive.csv"))).hasSize(9);
    }

    @Test
    void a_bundled_figure_ends_with_check_lines(@TempDir Path dir) {
        Outcome o = run("fig10", "--time-scale", "0.3", "--out", dir.toString());
        assertThat(o.exit()).isZero();
        assertThat(o.out().lines().filter(l -> l.startsWith("check ")).toList()).singleElement().asString()
                .matches("check fig10\\.throughput-after-vs-before measured=[0-9.]+ paper=2\\.000 (ok|off)");
    }

    @Test
    void bad_input_is_an_error_naming_the_problem() {
        Outcome missing = run("no-such-scenario");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("no-such-scenario").contains("fig10");
        Outcome machine = run("fig10", "--machine", "3x3");
        assertThat(machine.exit()).isEqualTo(2);
        assertThat(machine.err()).contains("3x3");
        Outcome scale = run("fig10", "--time-scale", "0");
        assertThat(scale.exit()).isEqualTo(2);
        assertThat(scale.err()).contains("--time-scale");
        Outcome mix = run("fig16", "--real", "fake:2");
        assertThat(mix.exit()).isEqualTo(2);
        assertThat(mix.err()).contains("fig16").contains("--real");
    }
}
