package io.locusdb.bench.start;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A server process started with {@code ./locus}, as a user starts one, on free ports. */
final class LocusServerProcess {
    /** What {@code ./locus serve} prints, with its JDBC URL, once it accepts connections. */
    private static final String LISTENING = "LocusDB server listening on ";

    /** What it prints when its background warm-up has finished (or stopped). */
    private static final String WARMED_UP = "warm-up: ";
    private final Process process;
    private final String url;
    private final double listeningSeconds;
    /** Seconds from the process start until the warm-up line. */
    private final CompletableFuture<Double> warmedUp;

    private LocusServerProcess(Process process, String url, double listeningSeconds,
                               CompletableFuture<Double> warmedUp) {
        this.process = process;
        this.url = url;
        this.listeningSeconds = listeningSeconds;
        this.warmedUp = warmedUp;
    }

    static LocusServerProcess start(Path locus, List<String> arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(locus.toString());
        command.addAll(arguments);
        // Free ports for all three listeners, so that a server the user runs is not in the way.
        for (String listener : List.of("--port", "--pg-port", "--metrics-port")) {
            command.add(listener);
            command.add(String.valueOf(freePort()));
        }
        long t0 = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        CompletableFuture<String> listening = new CompletableFuture<>();
        CompletableFuture<Double> warmedUp = new CompletableFuture<>();
        StringBuilder output = new StringBuilder();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    synchronized (output) {
                        output.append(line).append('\n');
                    }
                    int at = line.indexOf(LISTENING);
                    if (at >= 0) {
                        listening.complete(line.substring(at + LISTENING.length()).trim().split("\\s+")[0]);
                    }
                    if (line.startsWith(WARMED_UP)) {
                        warmedUp.complete((System.nanoTime() - t0) / 1e9);
                    }
                }
            } catch (IOException e) {
                listening.completeExceptionally(new UncheckedIOException(e));
            }
            listening.completeExceptionally(new IllegalStateException("the server ended without listening"));
            warmedUp.completeExceptionally(new IllegalStateException("the server ended without a warm-up"));
        }, "server-output");
        reader.setDaemon(true);
        reader.start();
        String url;
        try {
            url = listening.get(30, TimeUnit.MINUTES);
        } catch (Exception e) {
            process.destroyForcibly();
            synchronized (output) {
                throw new IllegalStateException("./locus " + String.join(" ", arguments) + " did not start: "
                        + output, e);
            }
        }
        return new LocusServerProcess(process, url, (System.nanoTime() - t0) / 1e9, warmedUp);
    }

    /** VmRSS of the server process, from /proc (0 where there is none). */
    long residentBytes() {
        return Resident.of(process.pid());
    }

    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    String url() {
        return url;
    }

    double listeningSeconds() {
        return listeningSeconds;
    }

    /** Completes with the seconds from the process start until the server's warm-up line. */
    CompletableFuture<Double> warmedUp() {
        return warmedUp;
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }
}
