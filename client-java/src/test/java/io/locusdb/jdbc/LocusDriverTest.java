package io.locusdb.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.protocol.Message;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The driver's entry points: discovery, URLs and properties, the handshake and the connection's life cycle. */
class LocusDriverTest {
    private FakeServer server;

    @BeforeEach
    void start() throws Exception {
        server = new FakeServer();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    @Test
    void aProgramThatOnlyKnowsJavaSqlFindsTheDriverThroughServiceLoader() throws Exception {
        assertThat(ServiceLoader.load(Driver.class).stream().map(p -> p.type().getName()))
                .contains(LocusDriver.class.getName());
        Properties props = new Properties();
        props.setProperty("password", "secret");
        try (Connection c = DriverManager.getConnection(server.url() + "tpch?user=ada", props)) {
            assertThat(c).isInstanceOf(LocusConnection.class);
            assertThat(c.isValid(2)).isTrue();
            assertThat(DriverManager.getDriver(server.url())).isInstanceOf(LocusDriver.class);
        }
        Message.Startup startup = server.received(Message.Startup.class).getFirst();
        assertThat(startup.user()).isEqualTo("ada");
        assertThat(startup.password()).isEqualTo("secret");
        assertThat(startup.database()).isEqualTo("tpch");
        assertThat(startup.clientName()).startsWith("LocusDB JDBC");
        assertThat(server.received(Message.Ping.class)).hasSize(1);
        assertThat(server.await(Message.Terminate.class, 1)).hasSize(1);
        assertThat(server.received).last().isInstanceOf(Message.Terminate.class);
    }

    @Test
    void urlsParseWithDefaultsAndPropertiesOverrideUrlParameters() throws Exception {
        ConnectionConfig c = ConnectionConfig.parse("jdbc:locusdb://db.example", null);
        assertThat(c.host()).isEqualTo("db.example");
        assertThat(c.port()).isEqualTo(5499);
        assertThat(c.database()).isEmpty();
        assertThat(c.ssl()).isFalse();
        assertThat(c.sslVerify()).isTrue();

        Properties p = new Properties();
        p.setProperty("user", "bob");
        p.setProperty("someToolsOwnSetting", "ignored");
        ConnectionConfig d = ConnectionConfig.parse("jdbc:locusdb://[::1]:6000/sales?user=ada&password=a%2Bb%26c"
                + "&ssl=true&sslVerify=false&fetchSize=10000&connectTimeout=3&socketTimeout=60", p);
        assertThat(d.host()).isEqualTo("::1");
        assertThat(d.port()).isEqualTo(6000);
        assertThat(d.database()).isEqualTo("sales");
        assertThat(d.user()).isEqualTo("bob");
        assertThat(d.password()).isEqualTo("a+b&c");
        assertThat(d.ssl()).isTrue();
        assertThat(d.sslVerify()).isFalse();
        assertThat(d.fetchSize()).isEqualTo(10000);
        assertThat(d.connectTimeoutSeconds()).isEqualTo(3);
        assertThat(d.socketTimeoutSeconds()).isEqualTo(60);
    }

    @Test
    void badUrlsSayWhatIsWrong() {
        assertThatThrownBy(() -> ConnectionConfig.parse("jdbc:locusdb:host:5499", null))
                .isInstanceOf(SQLException.class).hasMessageContaining("expected //");
        assertThatThrownBy(() -> ConnectionConfig.parse("jdbc:locusdb://h:99999", null))
                .hasMessageContaining("port 99999 is out of range");
        assertThatThrownBy(() -> ConnectionConfig.parse("jdbc:locusdb://h:abc", null))
                .hasMessageContaining("port 'abc' is not a number");
        assertThatThrownBy(() -> ConnectionConfig.parse("jdbc:locusdb://h/?pasword=x", null))
                .hasMessageContaining("unknown parameter 'pasword'");
        assertThatThrownBy(() -> ConnectionConfig.parse("jdbc:locusdb://h/?ssl=maybe", null))
                .hasMessageContaining("ssl must be true or false");
        assertThatThrownBy(() -> ConnectionConfig.parse("jdbc:locusdb://h/?fetchSize=-1", null))
                .hasMessageContaining("fetchSize -1 is out of range");
        assertThatThrownBy(() -> ConnectionConfig.parse("jdbc:locusdb://h/?password=top%2", null))
                .hasMessageContaining("bad percent escape").hasMessageNotContaining("top");
    }

    @Test
    void otherDriversUrlsAreNotAccepted() throws Exception {
        LocusDriver driver = new LocusDriver();
        assertThat(driver.acceptsURL("jdbc:postgresql://h/db")).isFalse();
        assertThat(driver.acceptsURL("jdbc:locusdb://h")).isTrue();
        assertThat(driver.connect("jdbc:postgresql://h/db", new Properties())).isNull();
        assertThat(driver.jdbcCompliant()).isFalse();
        assertThat(driver.getMajorVersion()).isZero();
        assertThat(driver.getMinorVersion()).isEqualTo(1);
        DriverPropertyInfo[] info = driver.getPropertyInfo("jdbc:locusdb://h?user=ada", new Properties());
        assertThat(Arrays.stream(info).map(i -> i.name)).contains("user", "password", "token", "ssl",
                "sslTrustStore", "sslTrustStorePassword", "sslVerify", "fetchSize", "connectTimeout",
                "socketTimeout");
        assertThat(Arrays.stream(info).filter(i -> i.name.equals("user")).findFirst().orElseThrow().value)
                .isEqualTo("ada");
        assertThat(Arrays.stream(info).filter(i -> i.name.equals("ssl")).findFirst().orElseThrow().choices)
                .containsExactly("true", "false");
    }

    @Test
    void aWrongPasswordIsAnAuthorizationError() {
        server.onStartup = s -> new Message.Error("28P01", "password authentication failed for user \""
                + s.user() + "\"", 0, 0);
        assertThatThrownBy(() -> DriverManager.getConnection(server.url() + "?user=ada&password=wrong"))
                .isInstanceOf(SQLInvalidAuthorizationSpecException.class)
                .hasMessageContaining("password authentication failed for user \"ada\"")
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("28P01");
    }

    @Test
    void tooManySessionsIsATransientError() {
        server.onStartup = s -> new Message.Error("53300", "too many sessions (512)", 0, 0);
        assertThatThrownBy(() -> DriverManager.getConnection(server.url()))
                .isInstanceOf(SQLTransientException.class).extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("53300");
    }

    @Test
    void aVersionTheServerDoesNotSpeakIsAConnectionError() {
        server.onStartup = s -> new Message.Error("08P01", "protocol version 1 is not supported", 0, 0);
        assertThatThrownBy(() -> DriverManager.getConnection(server.url()))
                .isInstanceOf(SQLNonTransientConnectionException.class).hasMessageContaining("version");
    }

    @Test
    void nobodyListeningIsAConnectionErrorNamingTheAddress() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:locusdb://127.0.0.1:" + port + "/"))
                .isInstanceOf(SQLNonTransientConnectionException.class)
                .hasMessageContaining("could not connect to 127.0.0.1:" + port)
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("08001");
    }

    @Test
    void aClosedConnectionRefusesWorkAndIsNotValid() throws Exception {
        Connection c = DriverManager.getConnection(server.url());
        Statement s = c.createStatement();
        c.close();
        c.close();
        assertThat(c.isClosed()).isTrue();
        assertThat(c.isValid(1)).isFalse();
        assertThatThrownBy(() -> c.createStatement()).isInstanceOf(SQLNonTransientConnectionException.class)
                .hasMessageContaining("closed").extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("08003");
        assertThatThrownBy(() -> s.executeQuery("SELECT 1")).isInstanceOf(SQLException.class);
        assertThat(server.await(Message.Terminate.class, 1)).hasSize(1);
    }

    @Test
    void theConnectionIsAlwaysInAutoCommitModeAndSaysSoWhenAskedForTransactions() throws Exception {
        try (Connection c = DriverManager.getConnection(server.url())) {
            assertThat(c.getAutoCommit()).isTrue();
            c.setAutoCommit(true);
            assertThatThrownBy(() -> c.setAutoCommit(false)).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(c::commit).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(c::rollback).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(c::setSavepoint).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> c.prepareCall("call x()")).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> c.createStatement(java.sql.ResultSet.TYPE_SCROLL_INSENSITIVE,
                    java.sql.ResultSet.CONCUR_READ_ONLY)).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(c::createBlob).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> c.setReadOnly(true)).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_NONE);
            assertThat(c.isReadOnly()).isFalse();
            assertThat(c.nativeSQL("SELECT 1")).isEqualTo("SELECT 1");
            assertThat(c.getCatalog()).isNull();
            assertThat(c.getSchema()).isNull();
            c.setClientInfo("ApplicationName", "specs");
            assertThat(c.getClientInfo("ApplicationName")).isEqualTo("specs");
            c.setNetworkTimeout(Runnable::run, 1500);
            assertThat(c.getNetworkTimeout()).isEqualTo(1500);
            assertThat(c.unwrap(LocusConnection.class).serverVersion()).isEqualTo("0.1.0-fake");
        }
    }

    @Test
    void abortClosesTheSocketAtOnce() throws Exception {
        Connection c = DriverManager.getConnection(server.url());
        c.abort(Runnable::run);
        assertThat(c.isClosed()).isTrue();
        assertThat(server.received(Message.Terminate.class)).isEmpty();
    }

    @Test
    void noticesBecomeWarnings() throws Exception {
        server.queries.put("SELECT 1", (s, run) -> {
            s.send(new Message.Notice("57P01", "the server is shutting down"));
            s.updateCount(0);
        });
        try (Connection c = DriverManager.getConnection(server.url()); Statement st = c.createStatement()) {
            st.execute("SELECT 1");
            assertThat(c.getWarnings() != null).isTrue();
            assertThat(c.getWarnings().getSQLState()).isEqualTo("57P01");
            assertThat(c.getWarnings().getMessage()).contains("shutting down");
            c.clearWarnings();
            assertThat(c.getWarnings() == null).isTrue();
        }
    }

    static List<Object[]> rows(Object[]... rows) {
        return List.of(rows);
    }
}
