package io.locusdb.bench.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ./locus bench placement tpch}: Figure 16 on the real engine, shortened. */
class PlacementCommandTpchTest {

    @Test
    void theTpchMixRunsWithThePlacerOnAndOffChecksEveryAnswerAndWritesTheTimeline(@TempDir Path dir)
            throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new PlacementCommand());
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute("tpch", "--sf", "0.01", "--clients", "2", "--seconds", "6", "--enable-at", "2",
                "--warmup", "0", "--period-ms", "200", "--draws", "1", "--data", dir.resolve("data").toString(),
                "--out", dir.resolve("out").toString());

        assertThat(exit).as(out + "\n" + err).isZero();
        assertThat(out.toString()).contains("every table in one part on node 0")
                .contains("placer on : before").contains("placer off: before")
                .containsPattern("placer on : \\d+ queries, 0 wrong answers, 0 errors")
                .containsPattern("placer off: \\d+ queries, 0 wrong answers, 0 errors");
        List<String> csv = Files.readAllLines(dir.resolve("out/tpch-placement-timeline.csv"));
        assertThat(csv.getFirst()).startsWith("run,seconds,queries_per_s,node0_threads,node1_threads")
                .contains("node_of_lineitem").contains("node_of_region");
        assertThat(csv).anyMatch(line -> line.startsWith("placer-on,"))
                .anyMatch(line -> line.startsWith("placer-off,"));
        assertThat(dir.resolve("out/tpch-placement-timeline.png")).isNotEmptyFile();
    }

    @Test
    void aTopologyOfOneNodeIsRefusedWithTheReason(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new PlacementCommand());
        cli.setErr(new PrintWriter(err));
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println(e.getMessage());
            return 2;
        });
        int exit = cli.execute("tpch", "--topology", "fake:1", "--out", dir.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("two nodes or more").contains("fake:1");
    }
}
