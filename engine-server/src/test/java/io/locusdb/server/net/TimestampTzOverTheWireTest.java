package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TIMESTAMP WITH TIME ZONE through both protocols: LocusDB's driver (an OffsetDateTime at UTC from getObject, JDBC's
 * TIMESTAMP_WITH_TIMEZONE in the metadata, an OffsetDateTime bound as an instant, SET TIME ZONE for the session) and
 * pgjdbc in text and binary modes (timestamptz, OID 1184; text in the session's TimeZone with its offset).
 */
class TimestampTzOverTheWireTest {
    private static final OffsetDateTime FIRST = OffsetDateTime.of(2024, 3, 1, 12, 45, 7, 250_001_000, ZoneOffset.UTC);
    private static final OffsetDateTime SECOND = OffsetDateTime.of(1999, 12, 31, 23, 59, 59, 0, ZoneOffset.UTC);
    private static LocusServer server;

    @BeforeAll
    static void start() {
        server = TestServers.start(Map.of("pg.port", "0"), "CREATE TABLE evz (id INTEGER, at TIMESTAMPTZ)",
                "INSERT INTO evz VALUES (1, '2024-03-01 13:45:07.250001+01'), (2, '1999-12-31 18:59:59-05'), (3, NULL)");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void locusDriverReadsInstantsAndBindsThem() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:locusdb://127.0.0.1:" + server.port() + "/");
             PreparedStatement ps = c.prepareStatement("SELECT id, at FROM evz WHERE at >= ? OR at IS NULL"
                     + " ORDER BY id")) {
            ps.setObject(1, SECOND.withOffsetSameInstant(ZoneOffset.ofHours(9)));
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.getMetaData().getColumnType(2)).isEqualTo(Types.TIMESTAMP_WITH_TIMEZONE);
                assertThat(rs.getMetaData().getColumnTypeName(2)).isEqualTo("TIMESTAMP WITH TIME ZONE");
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(2)).isEqualTo(FIRST);
                assertThat(rs.getObject(2, Instant.class)).isEqualTo(FIRST.toInstant());
                assertThat(rs.getTimestamp(2).toInstant()).isEqualTo(FIRST.toInstant());
                assertThat(rs.getString(2)).isEqualTo("2024-03-01 12:45:07.250001+00");
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(2, OffsetDateTime.class)).isEqualTo(SECOND);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(2)).isNull();
                assertThat(rs.next()).isFalse();
            }
            ps.setObject(1, FIRST.plusNanos(1_000));
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as("only the NULL row: the bound instant is a microsecond later").isEqualTo(3);
                assertThat(rs.next()).isFalse();
            }
        }
    }

    @Test
    void aNativeSessionKeepsItsTimeZone() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:locusdb://127.0.0.1:" + server.port() + "/");
             Statement s = c.createStatement()) {
            s.execute("SET TIME ZONE 'Asia/Kolkata'");
            try (ResultSet rs = s.executeQuery("SELECT CAST(at AS VARCHAR), extract(hour FROM at) FROM evz"
                    + " WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("2024-03-01 18:15:07.250001+05:30");
                assertThat(rs.getLong(2)).isEqualTo(18);
            }
            try (ResultSet rs = s.executeQuery("SHOW TIME ZONE")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("Asia/Kolkata");
            }
            assertThatThrownBy(() -> s.execute("SET TIME ZONE 'Moon/Base'"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22023"));
        }
        try (Connection other = DriverManager.getConnection("jdbc:locusdb://127.0.0.1:" + server.port() + "/");
             Statement s = other.createStatement();
             ResultSet rs = s.executeQuery("SELECT CAST(at AS VARCHAR) FROM evz WHERE id = 1")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).as("another session is still at UTC").isEqualTo("2024-03-01 12:45:07.250001+00");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"threshold-5", "always-prepared", "simple"})
    void pgjdbcReadsAndBindsTimestamptzInTextAndBinary(String mode) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.pgJdbcUrl("locus"), PgJdbcTest.properties(mode));
             PreparedStatement ps = c.prepareStatement("SELECT id, at, at + INTERVAL '1 hour' FROM evz"
                     + " WHERE at < ? ORDER BY id")) {
            for (int round = 0; round < 7; round++) {
                ps.setObject(1, OffsetDateTime.of(2030, 1, 1, 0, 0, 0, 0, ZoneOffset.ofHours(-3)));
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.getMetaData().getColumnTypeName(2)).isEqualTo("timestamptz");
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getObject(2, OffsetDateTime.class).toInstant()).isEqualTo(FIRST.toInstant());
                    assertThat(rs.getTimestamp(3).toInstant()).isEqualTo(FIRST.plusHours(1).toInstant());
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getObject(2, OffsetDateTime.class).toInstant()).isEqualTo(SECOND.toInstant());
                    assertThat(rs.next()).isFalse();
                }
            }
            try (Statement s = c.createStatement()) {
                s.execute("SET TIME ZONE 'America/New_York'");
                try (ResultSet rs = s.executeQuery("SELECT CAST(at AS VARCHAR), at FROM evz WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("2024-03-01 07:45:07.250001-05");
                    assertThat(rs.getObject(2, OffsetDateTime.class).toInstant()).isEqualTo(FIRST.toInstant());
                }
                try (ResultSet rs = s.executeQuery("SHOW TimeZone")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("America/New_York");
                }
                assertThatThrownBy(() -> s.execute("SET TIME ZONE 'Moon/Base'")).isInstanceOfSatisfying(
                        SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22023"));
            }
        }
    }

    @Test
    void pgjdbcInSimpleModeReadsPostgreSqlsTextWithTheSessionsOffset() throws SQLException {
        try (Connection c = DriverManager.getConnection(server.pgJdbcUrl("locus"), PgJdbcTest.properties("simple"));
             Statement s = c.createStatement()) {
            s.execute("SET TIME ZONE 'Asia/Kolkata'");
            try (ResultSet rs = s.executeQuery("SELECT at FROM evz WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("2024-03-01 18:15:07.250001+05:30");
            }
        }
    }
}
