package io.locusdb.docker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the podman command line. Its settings come from {@code docker/ci/containers.conf} unless CONTAINERS_CONF
 * names others, so the tests change nothing in /etc.
 */
final class Podman {
    /** What a command printed (stdout and stderr together) and how it ended. */
    record Result(int exitCode, String output) {
        boolean succeeded() {
            return exitCode == 0;
        }
    }

    private final Path settings;

    Podman(Path repository) {
        String given = System.getenv("CONTAINERS_CONF");
        this.settings = given != null ? Path.of(given) : repository.resolve("docker/ci/containers.conf");
    }

    /** True when a podman binary is on the PATH. */
    static boolean installed() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "podman"))) {
                return true;
            }
        }
        return false;
    }

    Result run(Duration timeout, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add("podman");
        command.addAll(List.of(arguments));
        return exec(command, timeout);
    }

    /** Any other command, with the same settings in its environment (scripts that call podman). */
    Result exec(List<String> command, Duration timeout) {
        try {
            Path output = Files.createTempFile("podman-", ".out");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(output.toFile());
                Map<String, String> env = builder.environment();
                env.put("CONTAINERS_CONF", settings.toString());
                Process process = builder.start();
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor();
                    throw new IllegalStateException(String.join(" ", command) + " did not end within " + timeout
                            + "; it printed:\n" + Files.readString(output, StandardCharsets.UTF_8));
                }
                return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        }
    }
}
