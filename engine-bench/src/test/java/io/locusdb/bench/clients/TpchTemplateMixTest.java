package io.locusdb.bench.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.bench.query.TpchTablesForDuck;
import io.locusdb.bench.storage.LoadComparison;
import io.locusdb.server.net.LocusServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 22-template TPC-H client mix: DuckDB answers every drawn text before the run, clients of a LocusDB server get
 * only answers that agree with it, and the same mix runs against DuckDB's own connections; an answer that differs is
 * counted as wrong, not passed.
 */
class TpchTemplateMixTest {
    private static final double SF = 0.01;
    private static LocusServer server;
    private static Connection duck;
    private static List<MixQuery> mix;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        server = TpchServers.start(SF);
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = duck.createStatement()) {
            LoadComparison.loadDuck(s, LoadComparison.writeTbl(dir, SF));
            TpchTablesForDuck.load(s, dir, SF);
        }
        mix = TpchTemplateMix.queries(duck, 11, 2);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        duck.close();
    }

    @Test
    void everyTemplateIsInTheMixWithItsDraws() {
        Set<String> names = mix.stream().map(MixQuery::name).collect(Collectors.toSet());
        assertThat(mix).hasSize(44);
        assertThat(names).hasSize(22).contains("Q1", "Q13", "Q15", "Q22");
    }

    @Test
    void clientsOfALocusServerGetDuckDbsAnswerToEveryTemplate() throws InterruptedException {
        ThroughputRun run = new ThroughputRun(server.jdbcUrl(), new Properties(), mix);

        ThroughputReport report = run.run(4, Duration.ofSeconds(1), Duration.ofSeconds(6), 3);

        System.out.print(report.format());
        assertThat(report.failures()).isEmpty();
        assertThat(report.wrongAnswers()).isZero();
        assertThat(report.errors()).isZero();
        assertThat(report.latencies()).hasSize(22);
    }

    @Test
    void theSameMixRunsOnDuckDbConnectionsOnPlatformThreads() throws InterruptedException {
        ThroughputRun run = new ThroughputRun(() -> ((DuckDBConnection) duck).duplicate(), mix, true);

        ThroughputReport report = run.run(4, Duration.ofSeconds(1), Duration.ofSeconds(3), 5);

        assertThat(report.clean()).isTrue();
        assertThat(report.idleClients()).as("clients that completed no query while measured").isZero();
    }

    @Test
    void anAnswerThatDiffersIsWrong() throws Exception {
        try (Statement s = duck.createStatement()) {
            ReferenceAnswer expected;
            try (ResultSet rs = s.executeQuery("SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y'")) {
                expected = ReferenceAnswer.of(rs);
            }
            try (ResultSet rs = s.executeQuery("SELECT 2 AS a, 'y  ' AS b UNION ALL SELECT 1, 'x'")) {
                assertThat(expected.check("reordered, padded", rs)).as("rows in another order, CHAR padding")
                        .isEqualTo(2);
            }
            try (ResultSet rs = s.executeQuery("SELECT 1 AS a, 'x' AS b UNION ALL SELECT 3, 'y'")) {
                assertThatThrownBy(() -> expected.check("wrong", rs))
                        .isInstanceOf(MixQuery.WrongAnswerException.class).hasMessageContaining("wrong");
            }
            try (ResultSet rs = s.executeQuery("SELECT 1 AS a, 'x' AS b")) {
                assertThatThrownBy(() -> expected.check("short", rs))
                        .isInstanceOf(MixQuery.WrongAnswerException.class).hasMessageContaining("1 rows");
            }
        }
    }
}
