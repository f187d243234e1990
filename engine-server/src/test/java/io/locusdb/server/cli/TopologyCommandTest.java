package io.locusdb.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TopologyCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = LocusCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void printsNodesCpusMemoryDistancesAndPlacementKind() {
        assertThat(run("topology")).isZero();
        assertThat(out.toString())
                .containsPattern("topology: (real|unavailable), \\d+ nodes?")
                .contains("placement:", "distances:", "memory MiB", "page size:");
    }

    @Test
    void fakeTopologySaysItIsFake() {
        assertThat(run("topology", "--fake", "2")).isZero();
        assertThat(out.toString()).containsPattern("topology: (fake|unavailable), 2 nodes").contains("virtual");
    }

    @Test
    void badSettingsGiveOneClearLineAndExitCode2() {
        assertThat(run("topology", "--spec", "0@99")).isEqualTo(2);
        assertThat(err.toString()).startsWith("locus: ").contains("physical node 99");
        assertThat(err.toString()).doesNotContain("at io.locusdb");
    }
}
