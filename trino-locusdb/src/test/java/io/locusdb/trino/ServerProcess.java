package io.locusdb.trino;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A LocusDB server in a process of its own ({@code ./locus serve}'s main class on this JVM's class path), so that it
 * can be killed as a real server dies, and started again on the same port and data directory.
 */
final class ServerProcess implements AutoCloseable {
    private static final String LISTENING = "LocusDB server listening on ";
    private final Path data;
    private final int port;
    private Process process;

    private ServerProcess(Path data, int port, Process process) {
        this.data = data;
        this.port = port;
        this.process = process;
    }

    /** Starts a server on a free port keeping its tables in {@code data} (null: in memory only). */
    static ServerProcess start(Path data) throws IOException {
        Process p = launch(data, 0);
        String url = awaitUrl(p);
        int port = Integer.parseInt(url.replaceAll(".*:(\\d+)/?$", "$1"));
        return new ServerProcess(data, port, p);
    }

    /** {@code host:port}, as the catalog names it. */
    String address() {
        return "127.0.0.1:" + port;
    }

    /** Runs statements over JDBC (a TPC-H slice to load, say). */
    void execute(String... sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:locusdb://" + address() + "/");
             Statement s = c.createStatement()) {
            for (String statement : sql) {
                s.execute(statement);
            }
        }
    }

    /** SIGKILL: no shutdown hook runs, connections are cut. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Starts the server again on its port and data directory. */
    void restart() throws IOException {
        process = launch(data, port);
        awaitUrl(process);
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }

    private static Process launch(Path data, int port) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "--add-modules",
                "jdk.incubator.vector", "-Xmx3g", "-cp", System.getProperty("java.class.path"),
                "io.locusdb.server.cli.LocusCli", "serve", "--port", Integer.toString(port), "--metrics-port", "-1",
                "--pg-port", "-1", "--placer", "off", "--warm-up", "off"));
        if (data == null) {
            command.add("--in-memory");
        } else {
            command.addAll(List.of("--data", data.toString()));
        }
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** Reads the server's output until it says where it listens; fails with what it printed otherwise. */
    private static String awaitUrl(Process server) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(),
                StandardCharsets.UTF_8));
        StringBuilder printed = new StringBuilder();
        String line;
        while ((line = out.readLine()) != null) {
            printed.append(line).append('\n');
            if (line.startsWith(LISTENING)) {
                Thread.ofVirtual().start(() -> drain(out));
                return line.substring(LISTENING.length()).strip();
            }
        }
        throw new IllegalStateException("the LocusDB server did not start:\n" + printed);
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // keeps the pipe from filling
            }
        } catch (IOException e) {
            // the process ended
        }
    }
}
