package io.locusdb.jdbc;

import static io.locusdb.jdbc.FakeServer.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.locusdb.protocol.ColumnDescription;
import io.locusdb.protocol.Message;
import io.locusdb.protocol.WireType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Streaming with flow control, getters and conversions, and the result's metadata. */
class LocusResultSetTest {
    static final List<ColumnDescription> ALL_TYPES = List.of(
            new ColumnDescription("b", WireType.of(WireType.BOOLEAN), true),
            new ColumnDescription("i", WireType.of(WireType.INTEGER), true),
            new ColumnDescription("l", WireType.of(WireType.BIGINT), false),
            new ColumnDescription("d", WireType.of(WireType.DOUBLE), true),
            new ColumnDescription("price", WireType.decimal(15, 2), true),
            new ColumnDescription("day", WireType.of(WireType.DATE), true),
            new ColumnDescription("name", WireType.varchar(25), true),
            new ColumnDescription("flag", WireType.character(1), true));

    private FakeServer server;
    private Connection connection;

    @BeforeEach
    void start() throws Exception {
        server = new FakeServer();
        connection = DriverManager.getConnection(server.url());
        server.queries.put("SELECT * FROM typed", (s, run) -> s.stream(ALL_TYPES, List.of(
                row(true, 7, 1L << 40, 2.5, new BigDecimal("-12.50"), LocalDate.of(1998, 9, 2), "Grüße, 東京 🚀",
                        "A"),
                row(null, null, 0L, null, null, null, null, null),
                row(false, -3, -1L, -0.0, new BigDecimal("0.07"), LocalDate.of(1970, 1, 1), " 42 ", "N")),
                2, run.fetchBatches()));
    }

    @AfterEach
    void stop() throws Exception {
        connection.close();
        server.close();
    }

    private static List<Object[]> numbered(int count) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(row((long) i));
        }
        return rows;
    }

    @Test
    void aResultStreamsAndAsksForMoreOnlyWhenItHasConsumedItsCredit() throws Exception {
        List<ColumnDescription> cols = List.of(new ColumnDescription("n", WireType.of(WireType.BIGINT), false));
        server.queries.put("SELECT n FROM big", (s, run) -> s.stream(cols, numbered(5000), 100, run.fetchBatches()));
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT n FROM big")) {
            assertThat(server.received(Message.Query.class).getFirst().fetchBatches()).isEqualTo(2);
            assertThat(rs.next()).isTrue();
            assertThat(server.batchesSent.get()).as("the server stops at the initial credit").isLessThanOrEqualTo(2);
            long expected = 0;
            do {
                assertThat(rs.getLong(1)).isEqualTo(expected);
                long batchesConsumed = expected / 100 + 1;
                assertThat(server.creditGranted.get()).as("credit granted after row %d", expected)
                        .isLessThanOrEqualTo((int) batchesConsumed + 2);
                expected++;
            } while (rs.next());
            assertThat(expected).isEqualTo(5000);
            assertThat(rs.isAfterLast()).isTrue();
            // 2 + 24 × 2 batches cover all 50; a 25th FETCH may cross the RESULT_END that follows the last batch
            assertThat(server.received(Message.Fetch.class)).hasSizeBetween(24, 25)
                    .allSatisfy(f -> assertThat(f.batches()).isEqualTo(2));
        }
    }

    @Test
    void aNoticeArrivingWhenTheCreditIsUsedUpDoesNotKeepTheDriverFromAskingForMore() throws Exception {
        List<ColumnDescription> cols = List.of(new ColumnDescription("n", WireType.of(WireType.BIGINT), false));
        server.queries.put("SELECT n FROM noticed", (s, run) -> {
            s.send(new Message.ResultHeader(true, cols));
            s.sendBatch(cols, numbered(10));
            // Credit 1 is used up; the shutdown NOTICE is all the client has to read, and the server waits for FETCH.
            s.send(new Message.Notice("57P01", "the server is shutting down; running statements may finish within"
                    + " 30000 ms"));
            while (!(s.read() instanceof Message.Fetch)) {
                // nothing else expected
            }
            s.sendBatch(cols, numbered(10));
            s.send(new Message.ResultEnd(-1, 20, false));
        });
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            try (Statement st = connection.createStatement()) {
                st.setFetchSize(10);
                try (ResultSet rs = st.executeQuery("SELECT n FROM noticed")) {
                    assertThat(rs.next()).isTrue();
                    Thread.sleep(200); // the NOTICE is here before the driver decides whether to FETCH
                    int rows = 1;
                    while (rs.next()) {
                        rows++;
                    }
                    assertThat(rows).isEqualTo(20);
                }
            }
        });
        assertThat((Object) connection.getWarnings()).isNotNull();
        assertThat(connection.getWarnings().getSQLState()).isEqualTo("57P01");
        // The FETCH after the NOTICE is what matters (without it both sides wait). A second one may cross the final
        // RESULT_END when that frame is still in flight after the last batch; the protocol has the server ignore it.
        assertThat(server.received(Message.Fetch.class)).hasSizeBetween(1, 2);
    }

    @Test
    void theFetchSizeBecomesCreditInBatchesOf4096Rows() throws Exception {
        List<ColumnDescription> cols = List.of(new ColumnDescription("n", WireType.of(WireType.BIGINT), false));
        server.queries.put("SELECT n FROM big", (s, run) -> s.stream(cols, numbered(10), 1, run.fetchBatches()));
        try (Statement st = connection.createStatement()) {
            st.setFetchSize(10_000);
            st.setMaxRows(7);
            st.setQueryTimeout(3);
            st.executeQuery("SELECT n FROM big").close();
            st.setFetchSize(1);
            st.executeQuery("SELECT n FROM big").close();
            st.setFetchSize(0);
            st.executeQuery("SELECT n FROM big").close();
        }
        List<Message.Query> q = server.received(Message.Query.class);
        assertThat(q).extracting(Message.Query::fetchBatches).containsExactly(3, 1, 2);
        assertThat(q.getFirst().maxRows()).isEqualTo(7);
        assertThat(q.getFirst().timeoutMillis()).isEqualTo(3000);
        assertThat(LocusStatement.fetchBatches(4096)).isEqualTo(1);
        assertThat(LocusStatement.fetchBatches(4097)).isEqualTo(2);
    }

    @Test
    void closingAResultEarlySendsCloseResultAndDrainsSoTheNextStatementRuns() throws Exception {
        List<ColumnDescription> cols = List.of(new ColumnDescription("n", WireType.of(WireType.BIGINT), false));
        server.queries.put("SELECT n FROM big", (s, run) -> s.stream(cols, numbered(1000), 10, run.fetchBatches()));
        try (Statement st = connection.createStatement()) {
            ResultSet first = st.executeQuery("SELECT n FROM big");
            assertThat(first.next()).isTrue();
            first.close();
            assertThat(first.isClosed()).isTrue();
            assertThat(server.received(Message.CloseResult.class)).hasSize(1);

            ResultSet second = st.executeQuery("SELECT n FROM big");
            assertThat(second.next()).isTrue();
            // a new statement on the same connection while `second` is open closes it first, like other drivers
            try (Statement other = connection.createStatement();
                 ResultSet third = other.executeQuery("SELECT n FROM big")) {
                assertThat(second.isClosed()).isTrue();
                int n = 0;
                while (third.next()) {
                    n++;
                }
                assertThat(n).isEqualTo(1000);
            }
        }
        List<String> order = server.received.stream().map(m -> m.getClass().getSimpleName())
                .filter(n -> n.equals("Query") || n.equals("CloseResult")).toList();
        assertThat(order).containsExactly("Query", "CloseResult", "Query", "CloseResult", "Query");
        assertThat(connection.isValid(1)).isTrue();
    }

    @Test
    void gettersReadEveryTypeAndWasNullReportsNulls() throws Exception {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM typed")) {
            assertThat(rs.isBeforeFirst()).isTrue();
            assertThat(rs.next()).isTrue();
            assertThat(rs.isFirst()).isTrue();
            assertThat(rs.getRow()).isEqualTo(1);
            assertThat(rs.getBoolean(1)).isTrue();
            assertThat(rs.getInt("I")).isEqualTo(7);
            assertThat(rs.getLong("l")).isEqualTo(1L << 40);
            assertThat(rs.getDouble(4)).isEqualTo(2.5);
            assertThat(rs.getBigDecimal("price")).isEqualTo(new BigDecimal("-12.50"));
            assertThat(rs.getDate("day")).isEqualTo(Date.valueOf("1998-09-02"));
            assertThat(rs.getString("name")).isEqualTo("Grüße, 東京 🚀");
            assertThat(rs.getString("flag")).isEqualTo("A");
            assertThat(rs.wasNull()).isFalse();
            assertThat(rs.getObject(1)).isEqualTo(true);
            assertThat(rs.getObject(2)).isEqualTo(7);
            assertThat(rs.getObject(3)).isEqualTo(1L << 40);
            assertThat(rs.getObject(4)).isEqualTo(2.5);
            assertThat(rs.getObject(5)).isEqualTo(new BigDecimal("-12.50"));
            assertThat(rs.getObject(6)).isEqualTo(Date.valueOf("1998-09-02"));
            assertThat(rs.getObject(7)).isEqualTo("Grüße, 東京 🚀");

            assertThat(rs.next()).isTrue();
            assertThat(rs.getBoolean(1)).isFalse();
            assertThat(rs.wasNull()).isTrue();
            assertThat(rs.getInt(2)).isZero();
            assertThat(rs.wasNull()).isTrue();
            assertThat(rs.getLong(3)).isZero();
            assertThat(rs.wasNull()).isFalse();
            assertThat(rs.getDouble(4)).isZero();
            assertThat(rs.wasNull()).isTrue();
            assertThat(rs.getBigDecimal(5)).isNull();
            assertThat(rs.getDate(6)).isNull();
            assertThat(rs.getString(7)).isNull();
            assertThat(rs.wasNull()).isTrue();
            assertThat(rs.getObject(8)).isNull();
            assertThat(rs.getObject(2, Integer.class)).isNull();

            assertThat(rs.next()).isTrue();
            assertThat(rs.isLast()).isTrue();
            assertThat(rs.getRow()).isEqualTo(3);
            assertThat(rs.getString(8)).isEqualTo("N");
            assertThat(rs.next()).isFalse();
            assertThat(rs.isAfterLast()).isTrue();
            assertThat(rs.getRow()).isZero();
            assertThatThrownBy(() -> rs.getInt(2)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("after the last row");
        }
    }

    @Test
    void valuesConvertAsJdbcExpects() throws Exception {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM typed")) {
            rs.next();
            assertThat(rs.getString("b")).isEqualTo("true");
            assertThat(rs.getString("i")).isEqualTo("7");
            assertThat(rs.getString("d")).isEqualTo("2.5");
            assertThat(rs.getString("price")).isEqualTo("-12.50");
            assertThat(rs.getString("day")).isEqualTo("1998-09-02");
            assertThat(rs.getLong("price")).as("DECIMAL to BIGINT truncates").isEqualTo(-12);
            assertThat(rs.getInt("d")).isEqualTo(2);
            assertThat(rs.getDouble("price")).isEqualTo(-12.5);
            assertThat(rs.getFloat("price")).isEqualTo(-12.5f);
            assertThat(rs.getBigDecimal("i")).isEqualTo(BigDecimal.valueOf(7));
            assertThat(rs.getBigDecimal("d")).isEqualTo(new BigDecimal("2.5"));
            assertThat(rs.getInt("b")).isEqualTo(1);
            assertThat(rs.getShort("i")).isEqualTo((short) 7);
            assertThat(rs.getByte("i")).isEqualTo((byte) 7);
            assertThat(rs.getTimestamp("day")).isEqualTo(Timestamp.valueOf("1998-09-02 00:00:00"));
            assertThat(rs.getObject("day", LocalDate.class)).isEqualTo(LocalDate.of(1998, 9, 2));
            assertThat(rs.getObject("l", BigInteger.class)).isEqualTo(BigInteger.ONE.shiftLeft(40));
            assertThat(rs.getObject("i", Long.class)).isEqualTo(7L);
            assertThat(rs.getObject("price", String.class)).isEqualTo("-12.50");
            assertThat(rs.getObject("b", Boolean.class)).isTrue();

            assertThatThrownBy(() -> rs.getInt("l")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("out of range for INTEGER")
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("22003");
            assertThatThrownBy(() -> rs.getInt("name")).isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("22018");
            assertThatThrownBy(() -> rs.getDate("i")).hasMessageContaining("cannot convert INTEGER to DATE");
            assertThatThrownBy(() -> rs.getBoolean("i")).hasMessageContaining("cannot convert INTEGER value 7");
            assertThatThrownBy(() -> rs.getObject("i", StringBuilder.class))
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("22018");
            assertThatThrownBy(() -> rs.getBytes("name")).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> rs.getInt(9)).hasMessageContaining("column index 9 is out of range 1..8");
            assertThatThrownBy(() -> rs.getInt("nope")).hasMessageContaining("no column 'nope'");

            rs.next();
            rs.next();
            assertThat(rs.getInt("name")).as("numeric strings convert, blanks trimmed").isEqualTo(42);
            assertThat(rs.getBigDecimal("price")).isEqualTo(new BigDecimal("0.07"));
            assertThat(rs.getLong("price")).isZero();
            assertThat(rs.getBoolean("flag")).as("'N' reads as false").isFalse();
            assertThat(rs.getDate("day")).isEqualTo(Date.valueOf("1970-01-01"));
        }
    }

    @Test
    void theMetaDataMapsLocusTypesToJavaSqlTypes() throws Exception {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM typed")) {
            ResultSetMetaData md = rs.getMetaData();
            assertThat(md.getColumnCount()).isEqualTo(8);
            int[] types = new int[8];
            String[] names = new String[8];
            for (int i = 1; i <= 8; i++) {
                types[i - 1] = md.getColumnType(i);
                names[i - 1] = md.getColumnTypeName(i);
            }
            assertThat(types).containsExactly(Types.BOOLEAN, Types.INTEGER, Types.BIGINT, Types.DOUBLE,
                    Types.DECIMAL, Types.DATE, Types.VARCHAR, Types.CHAR);
            assertThat(names).containsExactly("BOOLEAN", "INTEGER", "BIGINT", "DOUBLE", "DECIMAL", "DATE",
                    "VARCHAR", "CHAR");
            assertThat(md.getPrecision(5)).isEqualTo(15);
            assertThat(md.getScale(5)).isEqualTo(2);
            assertThat(md.getPrecision(7)).isEqualTo(25);
            assertThat(md.getColumnDisplaySize(5)).isEqualTo(17);
            assertThat(md.getColumnName(5)).isEqualTo("price");
            assertThat(md.getColumnLabel(5)).isEqualTo("price");
            assertThat(md.isNullable(3)).isEqualTo(ResultSetMetaData.columnNoNulls);
            assertThat(md.isNullable(4)).isEqualTo(ResultSetMetaData.columnNullable);
            assertThat(md.getColumnClassName(5)).isEqualTo("java.math.BigDecimal");
            assertThat(md.getColumnClassName(6)).isEqualTo("java.sql.Date");
            assertThat(md.isSigned(2)).isTrue();
            assertThat(md.isSigned(7)).isFalse();
            assertThat(rs.getStatement()).isSameAs(st);
            assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
            assertThat(rs.getConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
            assertThat(rs.getFetchSize()).isEqualTo(2 * 4096);
            assertThat(rs.findColumn("PRICE")).isEqualTo(5);
        }
    }

    @Test
    void aForwardOnlyReadOnlyResultRefusesScrollingAndUpdates() throws Exception {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM typed")) {
            rs.next();
            assertThatThrownBy(rs::previous).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> rs.absolute(1)).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> rs.updateInt(1, 3)).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(rs::insertRow).isInstanceOf(SQLFeatureNotSupportedException.class);
        }
    }

    @Test
    void gettersBeforeNextOrAfterCloseSaySo() throws Exception {
        Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery("SELECT * FROM typed");
        assertThatThrownBy(() -> rs.getInt(1)).hasMessageContaining("call next() first");
        rs.close();
        assertThatThrownBy(rs::next).hasMessageContaining("closed");
        st.closeOnCompletion();
        ResultSet again = st.executeQuery("SELECT * FROM typed");
        again.close();
        assertThat(st.isClosed()).as("closeOnCompletion").isTrue();
    }
}
