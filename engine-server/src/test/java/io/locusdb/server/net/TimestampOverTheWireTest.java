package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TIMESTAMP values through both protocols as their drivers' users read and bind them: LocusDB's driver (a
 * {@link Timestamp} from getObject, LocalDateTime on request, PostgreSQL's text from getString, TIMESTAMP in the
 * metadata) and pgjdbc in text and binary modes; microseconds survive every path, and a bound timestamp selects
 * the rows a literal selects.
 */
class TimestampOverTheWireTest {
    private static final LocalDateTime FIRST = LocalDateTime.of(2024, 3, 1, 13, 45, 7, 250_001_000);
    private static final LocalDateTime SECOND = LocalDateTime.of(1999, 12, 31, 23, 59, 59);
    private static LocusServer server;

    @BeforeAll
    static void start() {
        List<String> setup = new ArrayList<>();
        setup.add("CREATE TABLE ev (id INTEGER, at TIMESTAMP)");
        setup.add("INSERT INTO ev VALUES (1, TIMESTAMP '2024-03-01 13:45:07.250001'), (2, '1999-12-31 23:59:59'),"
                + " (3, NULL)");
        server = TestServers.start(Map.of("pg.port", "0"), setup.toArray(String[]::new));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void locusDriverReadsAndBindsTimestamps() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:locusdb://127.0.0.1:" + server.port() + "/");
             PreparedStatement ps = c.prepareStatement("SELECT id, at FROM ev WHERE at >= ? OR at IS NULL"
                     + " ORDER BY id")) {
            ps.setTimestamp(1, Timestamp.valueOf(SECOND));
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.getMetaData().getColumnType(2)).isEqualTo(Types.TIMESTAMP);
                assertThat(rs.getMetaData().getColumnTypeName(2)).isEqualTo("TIMESTAMP");
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(2)).isEqualTo(Timestamp.valueOf(FIRST));
                assertThat(rs.getObject(2, LocalDateTime.class)).isEqualTo(FIRST);
                assertThat(rs.getString(2)).isEqualTo("2024-03-01 13:45:07.250001");
                assertThat(rs.getDate(2).toLocalDate()).isEqualTo(FIRST.toLocalDate());
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(2)).isEqualTo("1999-12-31 23:59:59");
                assertThat(rs.next()).isTrue();
                assertThat(rs.getTimestamp(2)).isNull();
                assertThat(rs.next()).isFalse();
            }
            ps.setObject(1, FIRST.plusNanos(1_000));
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as("only the NULL row: the bound value is a microsecond later").isEqualTo(3);
                assertThat(rs.next()).isFalse();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"threshold-5", "always-prepared", "simple"})
    void pgjdbcReadsAndBindsTimestampsInTextAndBinary(String mode) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.pgJdbcUrl("locus"), PgJdbcTest.properties(mode));
             PreparedStatement ps = c.prepareStatement("SELECT id, at, at + INTERVAL '1 hour' FROM ev"
                     + " WHERE at < ? ORDER BY id")) {
            for (int round = 0; round < 7; round++) {
                ps.setTimestamp(1, Timestamp.valueOf(LocalDateTime.of(2030, 1, 1, 0, 0)));
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.getMetaData().getColumnType(2)).isEqualTo(Types.TIMESTAMP);
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getObject(2, LocalDateTime.class)).isEqualTo(FIRST);
                    assertThat(rs.getTimestamp(3).toLocalDateTime()).isEqualTo(FIRST.plusHours(1));
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getObject(2, LocalDateTime.class)).isEqualTo(SECOND);
                    assertThat(rs.next()).isFalse();
                }
            }
        }
    }
}
