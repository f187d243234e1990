package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.Period;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.util.PGInterval;

/**
 * INTERVAL values through both protocols: LocusDB's driver gives a {@link Duration} or a {@link Period} from
 * getObject and PostgreSQL's text from getString; pgjdbc reads them as {@link PGInterval}s in text and binary modes.
 */
class IntervalOverTheWireTest {
    private static final String QUERY = "SELECT id, t1 - t0, INTERVAL '1 year 2 months' FROM ev ORDER BY id";
    private static LocusServer server;

    @BeforeAll
    static void start() {
        server = TestServers.start(Map.of("pg.port", "0"),
                "CREATE TABLE ev (id INTEGER, t0 TIMESTAMP, t1 TIMESTAMP)",
                "INSERT INTO ev VALUES (1, TIMESTAMP '2024-01-01 10:00:00', TIMESTAMP '2024-03-05 12:30:00.5'),"
                        + " (2, TIMESTAMP '2024-03-05 12:30:00', TIMESTAMP '2024-03-04 11:00:00'), (3, NULL, NULL)");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void locusDriverReadsDurationsPeriodsAndPostgresText() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:locusdb://127.0.0.1:" + server.port() + "/");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery(QUERY)) {
            assertThat(rs.getMetaData().getColumnType(2)).isEqualTo(Types.OTHER);
            assertThat(rs.getMetaData().getColumnTypeName(2)).isEqualTo("INTERVAL");
            assertThat(rs.getMetaData().getColumnClassName(3)).isEqualTo(Period.class.getName());
            assertThat(rs.next()).isTrue();
            assertThat(rs.getObject(2)).isEqualTo(Duration.ofDays(64).plusHours(2).plusMinutes(30).plusMillis(500));
            assertThat(rs.getObject(2, Duration.class)).isEqualTo(rs.getObject(2));
            assertThat(rs.getString(2)).isEqualTo("64 days 02:30:00.5");
            assertThat(rs.getObject(3)).isEqualTo(Period.of(1, 2, 0));
            assertThat(rs.getString(3)).isEqualTo("1 year 2 mons");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(2)).isEqualTo("-1 days -01:30:00");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getObject(2)).isNull();
            assertThat(rs.wasNull()).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"threshold-5", "always-prepared", "simple"})
    void pgjdbcReadsIntervals(String mode) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.pgJdbcUrl("locus"), PgJdbcTest.properties(mode))) {
            for (int round = 0; round < 7; round++) {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(QUERY)) {
                    assertThat(rs.getMetaData().getColumnTypeName(2)).isEqualTo("interval");
                    assertThat(rs.next()).isTrue();
                    PGInterval gap = (PGInterval) rs.getObject(2);
                    assertThat(gap.getDays()).isEqualTo(64);
                    assertThat(gap.getHours()).isEqualTo(2);
                    assertThat(gap.getMinutes()).isEqualTo(30);
                    assertThat(gap.getSeconds()).isEqualTo(0.5);
                    PGInterval yearMonth = (PGInterval) rs.getObject(3);
                    assertThat(yearMonth.getYears()).isEqualTo(1);
                    assertThat(yearMonth.getMonths()).isEqualTo(2);
                    assertThat(rs.next()).isTrue();
                    PGInterval negative = (PGInterval) rs.getObject(2);
                    assertThat(negative.getDays()).isEqualTo(-1);
                    assertThat(negative.getHours()).isEqualTo(-1);
                    assertThat(negative.getMinutes()).isEqualTo(-30);
                }
            }
        }
    }
}
