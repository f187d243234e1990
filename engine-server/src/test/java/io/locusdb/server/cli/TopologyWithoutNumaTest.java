package io.locusdb.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Without libnuma LocusDB runs as one node and says why in one log line; it never crashes. */
class TopologyWithoutNumaTest {
    @Test
    void topologyCommandReportsUnavailablePlacementInOneLine() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-Dlocus.numa.disable=true", "-cp", System.getProperty("java.class.path"),
                LocusCli.class.getName(), "topology", "--fake", "2"))
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).contains("topology: unavailable, 2 nodes")
                .contains("placement: unavailable")
                .contains("libnuma: disabled by -Dlocus.numa.disable=true");
        assertThat(output.lines().filter(l -> l.contains("NUMA placement unavailable, running as one node")))
                .hasSize(1);
        assertThat(output).doesNotContain("Exception");
    }
}
