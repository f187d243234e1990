package io.locusdb.jdbc;

import static io.locusdb.jdbc.FakeServer.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.protocol.ColumnDescription;
import io.locusdb.protocol.Message;
import io.locusdb.protocol.WireType;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Types;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Statements, prepared statements, update counts, error mapping, timeouts and cancel. */
class LocusStatementTest {
    static final List<ColumnDescription> COUNT = List.of(
            new ColumnDescription("count", WireType.of(WireType.BIGINT), false));

    private FakeServer server;
    private Connection connection;

    @BeforeEach
    void start() throws Exception {
        server = new FakeServer();
        connection = DriverManager.getConnection(server.url());
    }

    @AfterEach
    void stop() throws Exception {
        connection.close();
        server.close();
    }

    private static int sqlStateClass(SQLException e) {
        return e.getSQLState().charAt(0);
    }

    @Test
    void updatesAnswerWithTheirCountAndQueriesWithAResultSet() throws Exception {
        server.queries.put("INSERT INTO t VALUES (1), (2)", (s, run) -> s.updateCount(2));
        server.queries.put("SELECT count(*) FROM t", (s, run) -> s.stream(COUNT, List.<Object[]>of(row(2L)), 10,
                run.fetchBatches()));
        try (Statement st = connection.createStatement()) {
            assertThat(st.executeUpdate("INSERT INTO t VALUES (1), (2)")).isEqualTo(2);
            assertThat(st.execute("INSERT INTO t VALUES (1), (2)")).isFalse();
            assertThat(st.getUpdateCount()).isEqualTo(2);
            assertThat(st.getResultSet()).isNull();

            assertThat(st.execute("SELECT count(*) FROM t")).isTrue();
            assertThat(st.getUpdateCount()).isEqualTo(-1);
            ResultSet rs = st.getResultSet();
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(2);
            assertThat(st.getMoreResults()).isFalse();
            assertThat(rs.isClosed()).isTrue();
            assertThat(st.getUpdateCount()).isEqualTo(-1);

            assertThatThrownBy(() -> st.executeQuery("INSERT INTO t VALUES (1), (2)"))
                    .hasMessageContaining("did not return a result set");
            assertThatThrownBy(() -> st.executeUpdate("SELECT count(*) FROM t"))
                    .hasMessageContaining("returned a result set");
            assertThat(connection.isValid(1)).as("the session is free again").isTrue();
        }
    }

    @Test
    void serverErrorsMapToTheJdbcExceptionsOfTheirSqlStateClass() throws Exception {
        server.queries.put("SELECT nope FROM nowhere", (s, run) -> s.send(new Message.Error("42P01",
                "table \"nowhere\" does not exist", 1, 18)));
        server.queries.put("SELECT a FROM x JOIN y", (s, run) -> s.send(new Message.Error("0A000",
                "joins are not supported", 1, 17)));
        server.queries.put("SELECT 1/0", (s, run) -> s.send(new Message.Error("22012", "division", 0, 0)));
        try (Statement st = connection.createStatement()) {
            assertThatThrownBy(() -> st.executeQuery("SELECT nope FROM nowhere"))
                    .isInstanceOf(SQLSyntaxErrorException.class)
                    .hasMessage("table \"nowhere\" does not exist (line 1, column 18)")
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42P01");
            assertThatThrownBy(() -> st.executeQuery("SELECT a FROM x JOIN y"))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> st.executeQuery("SELECT 1/0")).isExactlyInstanceOf(SQLException.class)
                    .hasMessage("division");
            assertThat(connection.isValid(1)).as("statement errors leave the connection usable").isTrue();
        }
    }

    @Test
    void anErrorInTheMiddleOfAResultIsThrownByNextAndTheConnectionGoesOn() throws Exception {
        server.queries.put("SELECT n FROM big", (s, run) -> {
            s.send(new Message.ResultHeader(true, COUNT));
            s.sendBatch(COUNT, List.of(row(1L), row(2L)));
            s.send(new Message.Error("53200", "the query needs more than its memory budget of 1 GiB", 0, 0));
        });
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT n FROM big")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.next()).isTrue();
            assertThatThrownBy(rs::next).hasMessageContaining("memory budget")
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("53200");
        }
        assertThat(connection.isValid(1)).isTrue();
    }

    @Test
    void aProtocolViolationBreaksTheConnection() throws Exception {
        server.queries.put("SELECT garbage", (s, run) -> s.sendRaw(new byte[] {0, 0, 0, 2, 0x43, 7}));
        try (Statement st = connection.createStatement()) {
            assertThatThrownBy(() -> st.executeQuery("SELECT garbage"))
                    .isInstanceOf(SQLNonTransientConnectionException.class)
                    .hasMessageContaining("protocol violation").hasMessageContaining("RESULT_HEADER")
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("08P01");
            assertThat(connection.isValid(1)).isFalse();
            assertThatThrownBy(() -> st.executeQuery("SELECT 1")).isInstanceOf(SQLNonTransientConnectionException.class)
                    .hasMessageContaining("broken");
        }
    }

    @Test
    void theServerClosingTheConnectionIsAConnectionError() throws Exception {
        server.queries.put("SELECT bye", (s, run) -> s.socket.close());
        try (Statement st = connection.createStatement()) {
            assertThatThrownBy(() -> st.executeQuery("SELECT bye")).isInstanceOf(SQLNonTransientConnectionException.class)
                    .hasMessageContaining("lost").extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("08006");
        }
        assertThat(connection.isValid(1)).isFalse();
    }

    @Test
    void aQueryTimeoutIsSentAndTheServersTimeoutErrorIsAnSqlTimeoutException() throws Exception {
        server.queries.put("SELECT slow", (s, run) -> s.send(new Message.Error("57014",
                "query timed out after " + run.timeoutMillis() + " ms", 0, 0)));
        try (Statement st = connection.createStatement()) {
            st.setQueryTimeout(2);
            assertThatThrownBy(() -> st.executeQuery("SELECT slow")).isInstanceOf(SQLTimeoutException.class)
                    .hasMessage("query timed out after 2000 ms");
        }
    }

    @Test
    void cancelFromAnotherThreadSendsACancelRequestOnASecondConnection() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        server.queries.put("SELECT slow", (s, run) -> {
            s.send(new Message.ResultHeader(true, COUNT));
            running.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!s.cancelled && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            s.send(new Message.Error("57014", "canceling statement due to user request", 0, 0));
        });
        Statement st = connection.createStatement();
        CompletableFuture<Throwable> blocked = CompletableFuture.supplyAsync(() -> {
            try (ResultSet rs = st.executeQuery("SELECT slow")) {
                rs.next();
                return null;
            } catch (SQLException e) {
                return e;
            }
        });
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(50); // let the reader block in next()
        st.cancel();
        Throwable e = blocked.get(10, TimeUnit.SECONDS);
        assertThat(e).isExactlyInstanceOf(SQLException.class).hasMessageContaining("canceling statement");
        assertThat(((SQLException) e).getSQLState()).isEqualTo("57014");
        assertThat(server.cancelRequests).containsExactly(new Message.CancelRequest(FakeServer.SESSION_ID,
                FakeServer.CANCEL_KEY));
        assertThat(server.connections.get()).isEqualTo(2);
        assertThat(connection.isValid(1)).isTrue();
        st.cancel(); // nothing running: no request
        assertThat(server.cancelRequests).hasSize(1);
    }

    @Test
    void cancelAfterTheResultEndedDoesNotCancelAnotherStatementOfTheConnection() throws Exception {
        server.queries.put("SELECT count(*) FROM t", (s, run) -> s.stream(COUNT, List.<Object[]>of(row(2L)), 10,
                run.fetchBatches()));
        try (Statement a = connection.createStatement(); Statement b = connection.createStatement()) {
            ResultSet rs = a.executeQuery("SELECT count(*) FROM t");
            assertThat(rs.next()).isTrue();
            assertThat(rs.next()).isFalse(); // RESULT_END read: a runs nothing any more, though rs is still open
            assertThat(b.executeQuery("SELECT count(*) FROM t").next()).isTrue();
            a.cancel(); // b's statement is the session's now: a must not cancel it
            Thread.sleep(100);
            assertThat(server.cancelRequests).isEmpty();
            assertThat(server.connections.get()).isEqualTo(1);
        }
    }

    @Test
    void aDecimalParameterTooLongToSendIsRefusedUpFrontNamingTheParameter() throws Exception {
        server.preparable.put("SELECT count(*) FROM t WHERE a = ? AND b = ?", new FakeServer.Prepared(2, COUNT,
                (s, run) -> s.stream(COUNT, List.<Object[]>of(row(1L)), 10, run.fetchBatches())));
        try (PreparedStatement ps = connection.prepareStatement("SELECT count(*) FROM t WHERE a = ? AND b = ?")) {
            ps.setBigDecimal(1, new BigDecimal("1E+199")); // 200 characters written out: still fine
            assertThatThrownBy(() -> ps.setBigDecimal(2, new BigDecimal("-1E+999999999")))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22003"))
                    .hasMessage("parameter 2: a DECIMAL of 1000000001 characters written out is out of range (at most"
                            + " 200)");
            assertThatThrownBy(() -> ps.setObject(2, "0." + "0".repeat(200) + "1", Types.DECIMAL))
                    .hasMessageStartingWith("parameter 2: a DECIMAL of 203 characters");
            ps.setBigDecimal(2, new BigDecimal("0E+999")); // written out: "0"
            assertThat(ps.executeQuery().next()).isTrue();
            assertThat(connection.isValid(1)).isTrue();
        }
        assertThat(LocusPreparedStatement.plainLength(new BigDecimal("-1.5E-3"))).isEqualTo("-0.0015".length());
        assertThat(LocusPreparedStatement.plainLength(new BigDecimal("-1.5E+3"))).isEqualTo("-1500".length());
        assertThat(LocusPreparedStatement.plainLength(new BigDecimal("123.45"))).isEqualTo(6);
    }

    @Test
    void aPreparedStatementIsPreparedOnceAndExecutedWithTypedParameters() throws Exception {
        server.preparable.put("SELECT count(*) FROM t WHERE a < ? AND b = ? AND c = ? AND d = ? AND e = ? AND f = ?"
                + " AND g = ? AND h = ? AND i = ?", new FakeServer.Prepared(9, COUNT,
                (s, run) -> s.stream(COUNT, List.<Object[]>of(row((long) run.parameters().size())), 10, run.fetchBatches())));
        try (PreparedStatement ps = connection.prepareStatement("SELECT count(*) FROM t WHERE a < ? AND b = ?"
                + " AND c = ? AND d = ? AND e = ? AND f = ? AND g = ? AND h = ? AND i = ?")) {
            assertThat(ps.getMetaData().getColumnName(1)).isEqualTo("count");
            ParameterMetaData pmd = ps.getParameterMetaData();
            assertThat(pmd.getParameterCount()).isEqualTo(9);
            assertThat(pmd.getParameterType(1)).isEqualTo(Types.VARCHAR);
            assertThat(pmd.getParameterTypeName(1)).isEqualTo("unknown");

            ps.setInt(1, 10);
            ps.setLong(2, 1L << 40);
            ps.setString(3, "Grüße");
            ps.setBigDecimal(4, new BigDecimal("0.05"));
            ps.setDate(5, Date.valueOf("1994-01-01"));
            ps.setBoolean(6, true);
            ps.setDouble(7, 2.5);
            ps.setNull(8, Types.VARCHAR);
            assertThatThrownBy(ps::executeQuery).hasMessage("parameter 9 is not set")
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("07002");
            ps.setObject(9, (short) 3);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(9);
            }
            ps.setObject(1, "12", Types.INTEGER);
            ps.setObject(5, LocalDate.of(1995, 1, 1));
            ps.executeQuery().close();
            assertThatThrownBy(() -> ps.setInt(10, 1)).hasMessageContaining("parameter index 10 is out of range");
            assertThatThrownBy(() -> ps.setTime(1, new Time(0)))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> ps.executeQuery("SELECT 1")).hasMessageContaining("PreparedStatement");
            assertThatThrownBy(() -> ps.addBatch("SELECT 1")).hasMessageContaining("PreparedStatement");
            ps.clearParameters();
            assertThatThrownBy(ps::execute).hasMessage("parameter 1 is not set");
        }
        assertThat(server.received(Message.Prepare.class)).hasSize(1);
        List<Message.Execute> executes = server.received(Message.Execute.class);
        assertThat(executes).hasSize(2);
        assertThat(executes.get(0).parameters()).containsExactly(10, 1L << 40, "Grüße", new BigDecimal("0.05"),
                LocalDate.of(1994, 1, 1), true, 2.5, null, 3);
        assertThat(executes.get(1).parameters().get(0)).isEqualTo(12);
        assertThat(executes.get(1).parameters().get(4)).isEqualTo(LocalDate.of(1995, 1, 1));
        assertThat(server.await(Message.CloseStatement.class, 1)).hasSize(1);
    }

    @Test
    void prepareErrorsCarryTheirPosition() {
        assertThatThrownBy(() -> connection.prepareStatement("SELECT nope FROM nowhere"))
                .isInstanceOf(SQLSyntaxErrorException.class).hasMessageEndingWith("(line 1, column 15)");
    }

    @Test
    void generatedKeysAndCursorNamesAreNotSupported() throws Exception {
        try (Statement st = connection.createStatement()) {
            for (ThrowingRunnable r : Arrays.<ThrowingRunnable>asList(st::getGeneratedKeys, () -> st.setCursorName("c"),
                    () -> st.executeUpdate("x", Statement.RETURN_GENERATED_KEYS),
                    () -> st.setFetchDirection(ResultSet.FETCH_REVERSE))) {
                assertThatThrownBy(r::run).isInstanceOf(SQLFeatureNotSupportedException.class);
            }
        }
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
