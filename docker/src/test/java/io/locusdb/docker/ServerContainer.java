package io.locusdb.docker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** One LocusDB server container with both ports published on the host's loopback; removed on close. */
final class ServerContainer implements AutoCloseable {
    private static final Duration PODMAN = Duration.ofMinutes(2);
    private static final String LISTENING = "LocusDB server listening on ";

    private final Podman podman;
    private final String name;
    private int port;
    private int metricsPort;

    private ServerContainer(Podman podman, String name) {
        this.podman = podman;
        this.name = name;
    }

    /**
     * Starts {@code image} detached with {@code options} (podman run's) and {@code arguments} (the entry point's),
     * and waits until the server says it listens.
     */
    static ServerContainer start(Podman podman, String image, List<String> options, List<String> arguments,
                                 Duration startup) {
        String name = "locus-test-" + UUID.randomUUID().toString().substring(0, 8);
        // Host ports chosen by podman (no race with other processes for a port picked here), read back below.
        List<String> command = new ArrayList<>(List.of("run", "--detach", "--name", name,
                "-p", "127.0.0.1::5499", "-p", "127.0.0.1::9499"));
        command.addAll(options);
        command.add(image);
        command.addAll(arguments);
        ServerContainer container = new ServerContainer(podman, name);
        try {
            Podman.Result run = podman.run(PODMAN, command.toArray(String[]::new));
            if (!run.succeeded()) {
                throw new IllegalStateException("podman run failed (" + run.exitCode() + "):\n" + run.output());
            }
            container.port = container.published(5499);
            container.metricsPort = container.published(9499);
            container.awaitListening(startup);
        } catch (RuntimeException e) {
            container.close();
            throw e;
        }
        return container;
    }

    String name() {
        return name;
    }

    String jdbcUrl() {
        return "jdbc:locusdb://127.0.0.1:" + port + "/";
    }

    String metricsUrl() {
        return "http://127.0.0.1:" + metricsPort + "/metrics";
    }

    String logs() {
        return podman.run(PODMAN, "logs", name).output();
    }

    /** A command inside the running container (podman exec). */
    Podman.Result exec(String... command) {
        List<String> arguments = new ArrayList<>(List.of("exec", name));
        arguments.addAll(List.of(command));
        return podman.run(PODMAN, arguments.toArray(String[]::new));
    }

    /** {@code podman inspect --format TEMPLATE}, trimmed. */
    String inspect(String template) {
        return podman.run(PODMAN, "inspect", "--format", template, name).output().strip();
    }

    private void awaitListening(Duration startup) {
        long deadline = System.nanoTime() + startup.toNanos();
        while (System.nanoTime() < deadline) {
            String logs = logs();
            if (logs.contains(LISTENING)) {
                return;
            }
            if (!"true".equals(inspect("{{.State.Running}}"))) {
                throw new IllegalStateException("the container stopped before the server listened; it printed:\n"
                        + logs);
            }
            sleep(Duration.ofMillis(250));
        }
        throw new IllegalStateException("the server did not listen within " + startup + "; it printed:\n" + logs());
    }

    @Override
    public void close() {
        podman.run(PODMAN, "rm", "--force", "--volumes", "--time", "0", name);
    }

    /** The host port podman published {@code containerPort} on ({@code podman port}: "127.0.0.1:PORT"). */
    private int published(int containerPort) {
        Podman.Result answer = podman.run(PODMAN, "port", name, containerPort + "/tcp");
        String text = answer.output().strip();
        int colon = text.lastIndexOf(':');
        if (!answer.succeeded() || colon < 0) {
            throw new IllegalStateException("podman port " + name + " " + containerPort + ": " + text);
        }
        return Integer.parseInt(text.substring(colon + 1).strip());
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
