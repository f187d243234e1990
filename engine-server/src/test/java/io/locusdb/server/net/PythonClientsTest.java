package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Python's PostgreSQL clients from PyPI (psycopg 3, asyncpg, SQLAlchemy, pandas) against the PostgreSQL listener.
 * They live in a virtual environment that {@code .ci/run} makes ({@code ~/.cache/locusdb/pyclients}, or the one
 * {@code LOCUS_PYCLIENTS} names); the checks are in {@code src/test/resources/pg/python_clients.py}.
 */
class PythonClientsTest {
    private static LocusServer server;

    @BeforeAll
    static void start() {
        server = TestServers.start(Map.of("pg.port", "0"), "LOAD TPCH SCALE 0.01",
                "CREATE TABLE py_notes (id BIGINT, body VARCHAR)");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static Path python() {
        String configured = System.getenv("LOCUS_PYCLIENTS");
        String cache = System.getenv().getOrDefault("XDG_CACHE_HOME", System.getProperty("user.home") + "/.cache");
        Path venv = configured != null ? Path.of(configured) : Path.of(cache, "locusdb", "pyclients");
        return venv.resolve("bin").resolve("python");
    }

    @ParameterizedTest
    @ValueSource(strings = {"psycopg_text_and_binary", "asyncpg_pool", "sqlalchemy_inspector", "pandas_read_sql_q1"})
    void pythonClientWorks(String check) throws Exception {
        Path python = python();
        assumeTrue(Files.isExecutable(python), "no Python clients at " + python + " (.ci/run installs them)");
        Path script = resource("pg/python_clients.py");
        List<String> command = new ArrayList<>(List.of(python.toString(), script.toString(),
                Integer.toString(server.pgPort()), check));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(out).as(out).contains("ok " + check);
        assertThat(p.exitValue()).isZero();
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(PythonClientsTest.class.getClassLoader().getResource(name).toURI());
    }
}
