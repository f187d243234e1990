package io.locusdb.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image as users run it: built with podman from {@code docker/Dockerfile} on a base made from the
 * Debian mirror (no registry), then run with a cpuset, published ports, a data volume and the shipped seccomp
 * profile, or without it. Skipped, saying why, where podman (or mmdebstrap for the base) is not installed.
 */
class ContainerImageTest {
    private static final String IMAGE = "localhost/locusdb:test";
    private static final String DEFAULT_BASE = "localhost/locusdb-ci-base:trixie";
    private static final Duration BUILD = Duration.ofMinutes(10);
    private static final Duration STARTUP = Duration.ofMinutes(3);
    private static final Duration PODMAN = Duration.ofMinutes(2);
    private static final String SF = "0.01";

    private static Path repository;
    private static Podman podman;

    @TempDir
    Path dir;

    @BeforeAll
    static void buildImage() {
        repository = Path.of("").toAbsolutePath().getParent();
        assumeTrue(Podman.installed(), "podman is not installed: the container image is neither built nor run here"
                + " (.ci/run installs podman, runc and mmdebstrap on Debian)");
        podman = new Podman(repository);
        assertThat(repository.resolve("engine-server/target/lib")).as("engine-server is packaged").isDirectory();
        String base = System.getenv().getOrDefault("LOCUS_IMAGE_BASE", DEFAULT_BASE);
        if (!podman.run(PODMAN, "image", "exists", base).succeeded()) {
            Podman.Result made = podman.exec(List.of(repository.resolve("docker/ci/base-image").toString(), base),
                    BUILD);
            assumeTrue(made.exitCode() != 2, "the base image " + base + " is missing and mmdebstrap is not"
                    + " installed to make it: " + made.output());
            assertThat(made.exitCode()).as("docker/ci/base-image:\n%s", made.output()).isZero();
        }
        Podman.Result build = podman.run(BUILD, "build", "--format", "docker", "--build-arg", "BASE_IMAGE=" + base,
                "-f", repository.resolve("docker/Dockerfile").toString(), "-t", IMAGE, repository.toString());
        assertThat(build.exitCode()).as("podman build:\n%s", build.output()).isZero();
    }

    @Test
    void servesOnThePublishedPortsInItsCpusetKeepsItsVolumeAndStopsGracefullyOnSigterm() throws Exception {
        String volume = "locus-test-data-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> options = List.of("--cpuset-cpus", "0", "--cpuset-mems", "0", "--cap-add", "SYS_NICE",
                "--security-opt", "seccomp=" + profile(), "-v", volume + ":/var/lib/locusdb");
        try {
            try (ServerContainer server = ServerContainer.start(podman, IMAGE, options, serve(), STARTUP)) {
                assertThat(count(server, "SELECT count(*) FROM lineitem")).isEqualTo(rows(TpchTable.LINE_ITEM));
                try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                     Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE notes (id INTEGER NOT NULL, note VARCHAR)");
                    s.executeUpdate("INSERT INTO notes VALUES (1, 'kept'), (2, 'on the volume')");
                }

                HttpResponse<String> metrics = HttpClient.newHttpClient().send(
                        HttpRequest.newBuilder(URI.create(server.metricsUrl())).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(metrics.statusCode()).isEqualTo(200);
                assertThat(metrics.body()).contains("locus_sessions");

                Podman.Result topology = server.exec("./locus", "topology");
                assertThat(topology.exitCode()).as(topology.output()).isZero();
                assertThat(topology.output())
                        .contains("topology: real, 1 node, 1 CPU")
                        .containsPattern("(?m)^0\\s+0\\s+0\\s+\\d+\\s+\\d+$")
                        .contains("page moves (move_pages): permitted");
                assertThat(server.exec("id", "-u").output().strip()).as("runs as a non-root user").isEqualTo("10001");
                assertThat(podman.run(PODMAN, "healthcheck", "run", server.name()).exitCode())
                        .as("the image's healthcheck").isZero();

                long start = System.nanoTime();
                Podman.Result stop = podman.run(PODMAN, "stop", "--time", "40", server.name());
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertThat(stop.exitCode()).as(stop.output()).isZero();
                assertThat(took).as("stopped within the grace period").isLessThan(Duration.ofSeconds(40));
                // 143 = the JVM's exit on SIGTERM after its shutdown hooks; 137 would be podman's SIGKILL.
                assertThat(server.inspect("{{.State.ExitCode}}")).isIn("0", "143");
                assertThat(server.logs()).contains("locus: shutting down");
            }
            try (ServerContainer again = ServerContainer.start(podman, IMAGE, options, serve(), STARTUP)) {
                assertThat(again.logs()).contains("is already in the data directory: not generated again");
                assertThat(count(again, "SELECT count(*) FROM lineitem")).isEqualTo(rows(TpchTable.LINE_ITEM));
                assertThat(count(again, "SELECT count(*) FROM notes WHERE note = 'on the volume'")).isEqualTo(1);
            }
        } finally {
            podman.run(PODMAN, "volume", "rm", "--force", volume);
        }
    }

    @Test
    void withTheShippedSeccompProfileAPartMigratesWithMovePages() throws Exception {
        List<String> options = List.of("--cap-add", "SYS_NICE", "--security-opt", "seccomp=" + profile(),
                "-v", migratingSettings() + ":/etc/locusdb/server.properties:ro");
        try (ServerContainer server = ServerContainer.start(podman, IMAGE, options, serveInMemory(), STARTUP)) {
            assertThat(server.logs()).contains("moves by migrate").contains("page moves (move_pages): permitted");
            assertThat(moveOrdersPart(server)).containsExactly("migrate", null);
            assertThat(count(server, "SELECT count(*) FROM orders")).isEqualTo(rows(TpchTable.ORDERS));
        }
    }

    @Test
    void withoutTheProfileTheEngineSaysMovesAreNotPermittedAndCopiesThePart() throws Exception {
        List<String> options = List.of("--cap-add", "SYS_NICE",
                "-v", migratingSettings() + ":/etc/locusdb/server.properties:ro");
        try (ServerContainer server = ServerContainer.start(podman, IMAGE, options, serveInMemory(), STARTUP)) {
            assertThat(server.logs()).contains("page moves (move_pages): not permitted")
                    .contains("seccomp-locusdb.json");
            assertThat(server.exec("./locus", "topology").output())
                    .contains("page moves (move_pages): not permitted");
            assertThat(moveOrdersPart(server)).containsExactly("copy (page moves not permitted)", null);
            assertThat(count(server, "SELECT count(*) FROM orders")).isEqualTo(rows(TpchTable.ORDERS));
            assertThat(server.logs()).contains("table parts move by copying instead of migrating their pages");
        }
    }

    private static List<String> serve() {
        return List.of("serve", "--tpch", SF, "--bind", "0.0.0.0", "--config", "/etc/locusdb/server.properties",
                "--data", "/var/lib/locusdb/data");
    }

    private static List<String> serveInMemory() {
        return List.of("serve", "--tpch", SF, "--bind", "0.0.0.0", "--config", "/etc/locusdb/server.properties",
                "--in-memory");
    }

    private static String profile() {
        return repository.resolve("docker/seccomp-locusdb.json").toString();
    }

    /** The image's settings with moves by page migration, readable by the container's user. */
    private Path migratingSettings() throws IOException {
        Path file = dir.resolve("server.properties");
        String example = Files.readString(repository.resolve("docker/server.properties.example"),
                StandardCharsets.UTF_8);
        Files.writeString(file, example + "\nplacer.move = migrate\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        return file;
    }

    /** Moves part 0 of orders to node 0 the operator's way; returns the event's method and error. */
    private static List<String> moveOrdersPart(ServerContainer server) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.jdbcUrl()); Statement s = c.createStatement()) {
            s.execute("ALTER TABLE orders MOVE PART 0 TO NODE 0");
            try (ResultSet r = s.executeQuery("SELECT moved_by, error FROM locus_placer_events"
                    + " WHERE owner = 'orders' AND source = 'operator'")) {
                assertThat(r.next()).as("the move's event").isTrue();
                List<String> event = new ArrayList<>();
                event.add(r.getString(1));
                event.add(r.getString(2));
                return event;
            }
        }
    }

    private static long count(ServerContainer server, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.jdbcUrl()); Statement s = c.createStatement();
             ResultSet r = s.executeQuery(sql)) {
            assertThat(r.next()).isTrue();
            return r.getLong(1);
        }
    }

    private static long rows(TpchTable<?> table) {
        long n = 0;
        for (Object ignored : table.createGenerator(Double.parseDouble(SF), 1, 1)) {
            n++;
        }
        return n;
    }
}
