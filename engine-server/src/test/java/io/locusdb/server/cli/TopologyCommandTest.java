package io.locusdb.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopologyCommandTest {
    private final CommandRun cli = new CommandRun();

    private int run(String... args) {
        return cli.run(args);
    }

    @Test
    void printsNodesCpusMemoryDistancesAndPlacementKind() {
        assertThat(run("topology")).isZero();
        assertThat(cli.out())
                .containsPattern("topology: (real|unavailable), \\d+ nodes?")
                .contains("placement:", "distances:", "memory MiB", "page size:");
    }

    @Test
    void fakeTopologySaysItIsFake() {
        assertThat(run("topology", "--fake", "2")).isZero();
        assertThat(cli.out()).containsPattern("topology: (fake|unavailable), 2 nodes").contains("virtual");
    }

    @Test
    void badSettingsGiveOneClearLineAndExitCode2() {
        assertThat(run("topology", "--spec", "0@99")).isEqualTo(2);
        assertThat(cli.err()).startsWith("locus: ").contains("physical node 99");
        assertThat(cli.err()).doesNotContain("at io.locusdb");
    }
}
