package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who may log in over the PostgreSQL protocol: the server's own users, by SCRAM-SHA-256 or a clear-text password. */
class PgAuthenticationTest {
    private static final String ALICE = PasswordHash.create("wonderland".toCharArray(), 4096).format();

    private static Connection connect(LocusServer server, String user, String password, String... extra)
            throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        if (password != null) {
            p.setProperty("password", password);
        }
        for (int i = 0; i + 1 < extra.length; i += 2) {
            p.setProperty(extra[i], extra[i + 1]);
        }
        return DriverManager.getConnection(server.pgJdbcUrl("locus"), p);
    }

    private static long count(Connection c) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM items")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void scramLogsInAConfiguredUserAndRefusesWrongPasswordsAndUnknownUsers() throws SQLException {
        try (LocusServer server = TestServers.start(Map.of("pg.port", "0", "user.alice", ALICE), TestServers.ITEMS)) {
            try (Connection c = connect(server, "alice", "wonderland")) {
                assertThat(count(c)).isEqualTo(5);
            }
            assertThatThrownBy(() -> connect(server, "alice", "wrong"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
            assertThatThrownBy(() -> connect(server, "mallory", "wonderland"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
            // The refused attempts cost nothing lasting: the right password still works.
            try (Connection c = connect(server, "alice", "wonderland")) {
                assertThat(count(c)).isEqualTo(5);
            }
        }
    }

    @Test
    void clearTextPasswordsAreCheckedAgainstTheSameHashes() throws SQLException {
        try (LocusServer server = TestServers.start(Map.of("pg.port", "0", "user.alice", ALICE, "pg.auth",
                "password"), TestServers.ITEMS)) {
            try (Connection c = connect(server, "alice", "wonderland")) {
                assertThat(count(c)).isEqualTo(5);
            }
            assertThatThrownBy(() -> connect(server, "alice", "Wonderland"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
        }
    }

    @Test
    void withoutUsersEveryoneIsTrustedOnLoopback() throws SQLException {
        try (LocusServer server = TestServers.start(Map.of("pg.port", "0"), TestServers.ITEMS);
             Connection c = connect(server, "anyone", null)) {
            assertThat(count(c)).isEqualTo(5);
        }
    }

    @Test
    void withACertificateOnlyTlsConnectionsAreServed(@TempDir Path dir) throws Exception {
        Path keystore = ServerSecurityTest.selfSignedKeystore(dir);
        Map<String, String> settings = Map.of("pg.port", "0", "user.alice", ALICE, "tls.keystore",
                keystore.toString(), "tls.keystore-password", "changeit");
        try (LocusServer server = TestServers.start(settings, TestServers.ITEMS)) {
            try (Connection c = connect(server, "alice", "wonderland", "sslmode", "require")) {
                assertThat(count(c)).isEqualTo(5);
            }
            assertThatThrownBy(() -> connect(server, "alice", "wonderland", "sslmode", "disable"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28000"));
        }
    }

    @Test
    void thePgListenerCanBeTurnedOff() {
        try (LocusServer server = TestServers.start(Map.of("pg.port", "-1"))) {
            assertThat(server.pgPort()).isEqualTo(-1);
        }
    }
}
