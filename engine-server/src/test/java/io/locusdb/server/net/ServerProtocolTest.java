package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.protocol.ColumnDescription;
import io.locusdb.protocol.Message;
import io.locusdb.protocol.Protocol;
import io.locusdb.protocol.WireType;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Protocol v1 as docs/protocol.md describes it, exchange by exchange, against a server on TPC-H SF 0.01. */
class ServerProtocolTest {
    static LocusServer server;

    @BeforeAll
    static void start() {
        String[] setup = Arrays.copyOf(TestServers.ITEMS, TestServers.ITEMS.length + 1);
        setup[setup.length - 1] = "LOAD TPCH SCALE 0.01 PARTS 2";
        server = TestServers.start(Map.of("max-statements", "4"), setup);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Object embedded(String sql) {
        try (Session s = server.database().connect(); QueryResult r = s.execute(sql)) {
            return r.toList().getFirst().getFirst();
        }
    }

    @Test
    void handshakeAnswersReadyWithTheSessionAndLimits() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            Message.Ready ready = c.startup();
            assertThat(ready.sessionId()).isPositive();
            assertThat(ready.serverVersion()).startsWith("LocusDB");
            assertThat(ready.maxFrameBytes()).isEqualTo(Protocol.DEFAULT_MAX_FRAME_BYTES);
            assertThat(ready.maxStatements()).isEqualTo(4);
            c.send(new Message.Ping());
            c.expect(Message.Pong.class);
        }
    }

    @Test
    void aQueryAnswersTheSameAsTheEmbeddedEngine() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            RawClient.Result r = c.query("SELECT count(*), sum(l_extendedprice) FROM lineitem");
            assertThat(r.header().rows()).isTrue();
            assertThat(r.header().columns()).hasSize(2);
            List<Object> row = r.rows().getFirst();
            assertThat(row.get(0)).isEqualTo(embedded("SELECT count(*) FROM lineitem"));
            assertThat(((Number) row.get(0)).longValue()).isGreaterThan(50_000);
            assertThat(row.get(1)).isEqualTo(embedded("SELECT sum(l_extendedprice) FROM lineitem"));
            assertThat(r.end().updateCount()).isEqualTo(-1);
            assertThat(r.end().rowsSent()).isEqualTo(1);
            assertThat(r.end().truncated()).isFalse();
        }
    }

    @Test
    void everyTypeAndNullArrivesIntact() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            RawClient.Result r = c.query("SELECT id, name, price, sold, ok, w, n FROM items ORDER BY id");
            assertThat(r.header().columns()).extracting(ColumnDescription::name)
                    .containsExactly("id", "name", "price", "sold", "ok", "w", "n");
            assertThat(r.header().columns().get(2).type()).isEqualTo(WireType.decimal(10, 2));
            assertThat(r.rows()).containsExactly(
                    List.of(1L, "apple", new BigDecimal("1.50"), LocalDate.of(2024, 1, 2), true, 0.5, 10L),
                    List.of(2L, "pear", new BigDecimal("2.25"), LocalDate.of(2024, 2, 3), false, 1.5, 20L),
                    Arrays.asList(3L, "plum", null, null, null, null, null),
                    List.of(4L, "grüne Äpfel", new BigDecimal("10.00"), LocalDate.of(1999, 12, 31), true, -2.0, -40L),
                    List.of(5L, "", new BigDecimal("0.01"), LocalDate.of(1970, 1, 1), false, 1e300, 2147483647L));
        }
    }

    @Test
    void preparedStatementsTakeParametersOfEveryKind() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            Message.Prepared p = c.prepare("SELECT count(*) FROM lineitem WHERE l_quantity < ? AND l_shipdate >= ?");
            assertThat(p.parameterCount()).isEqualTo(2);
            assertThat(p.columns()).hasSize(1);
            long expected = ((Number) embedded("SELECT count(*) FROM lineitem WHERE l_quantity < 10"
                    + " AND l_shipdate >= DATE '1995-01-01'")).longValue();
            RawClient.Result r = c.execute(p.statementId(), new BigDecimal("10"), LocalDate.of(1995, 1, 1));
            assertThat(r.single()).isEqualTo(expected);
            // The same statement again with other values.
            long all = ((Number) embedded("SELECT count(*) FROM lineitem WHERE l_quantity < 100")).longValue();
            assertThat(c.execute(p.statementId(), 100L, LocalDate.of(1900, 1, 1)).single()).isEqualTo(all);

            Message.Prepared byName = c.prepare("SELECT id FROM items WHERE name = ?");
            assertThat(c.execute(byName.statementId(), "pear").single()).isEqualTo(2L);
            c.send(new Message.Execute(byName.statementId(), List.of(), 0, 1, 0));
            assertThat(c.result().error().sqlState()).isEqualTo("22023");
        }
    }

    @Test
    void ddlAndDmlAnswerAnUpdateCount() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            RawClient.Result create = c.query("CREATE TABLE scratch (k BIGINT, v VARCHAR(10))");
            assertThat(create.header().rows()).isFalse();
            assertThat(create.header().columns()).isEmpty();
            assertThat(create.end().updateCount()).isZero();
            assertThat(c.query("INSERT INTO scratch VALUES (1, 'a'), (2, 'b'), (3, NULL)").end().updateCount())
                    .isEqualTo(3);
            assertThat(c.query("SELECT count(v) FROM scratch").single()).isEqualTo(2L);
            assertThat(c.query("DROP TABLE scratch").end().updateCount()).isZero();
        }
    }

    @Test
    void statementErrorsCarryTheEngineSqlStateAndPositionAndTheSessionGoesOn() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            RawClient.Result r = c.query("SELECT nope FROM lineitem");
            assertThat(r.error().sqlState()).isEqualTo("42703");
            assertThat(r.error().line()).isEqualTo(1);
            assertThat(r.error().column()).isPositive();
            c.send(new Message.Prepare("SELEC 1"));
            assertThat(c.expect(Message.Error.class).sqlState()).isEqualTo("42601");
            c.send(new Message.Execute(999, List.of(), 0, 1, 0));
            assertThat(c.result().error().sqlState()).isEqualTo("26000");
            assertThat(c.query("SELECT count(*) FROM items").single()).isEqualTo(5L);
        }
    }

    @Test
    void flowControlSendsNoMoreBatchesThanTheCredit() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            c.send(new Message.Query("SELECT l_orderkey, l_comment FROM lineitem", 0, 1, 0));
            c.expect(Message.ResultHeader.class);
            Message.Batch first = c.expect(Message.Batch.class);
            assertThat(first.batch().rows()).isBetween(1, Protocol.MAX_BATCH_ROWS);
            // Credit is spent: a PING is answered, but no BATCH comes before it.
            c.send(new Message.Ping());
            c.expect(Message.Pong.class);
            c.socket().setSoTimeout(300);
            assertThatNothingArrives(c);
            c.socket().setSoTimeout(15_000);
            c.send(new Message.Fetch(2));
            c.expect(Message.Batch.class);
            c.expect(Message.Batch.class);
            c.send(new Message.Ping());
            c.expect(Message.Pong.class);
            c.send(new Message.Fetch(1_000_000));
            RawClient.Result rest = c.result();
            long total = first.batch().rows() + 2L * 0 + rest.end().rowsSent();
            assertThat(rest.end().rowsSent()).isEqualTo(embedded("SELECT count(*) FROM lineitem"));
            assertThat(rest.end().truncated()).isFalse();
            assertThat(total).isPositive();
        }
    }

    private static void assertThatNothingArrives(RawClient c) throws Exception {
        try {
            Message m = c.read();
            throw new AssertionError("expected nothing, got " + m);
        } catch (java.net.SocketTimeoutException expected) {
            // nothing arrived
        }
    }

    @Test
    void maxRowsCutsTheResultAndSaysSo() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            c.send(new Message.Query("SELECT l_orderkey FROM lineitem", 10_000, 100, 0));
            RawClient.Result r = c.result();
            assertThat(r.rows()).hasSize(10_000);
            assertThat(r.end().rowsSent()).isEqualTo(10_000);
            assertThat(r.end().truncated()).isTrue();
            c.send(new Message.Query("SELECT id FROM items", 5, 100, 0));
            RawClient.Result exact = c.result();
            assertThat(exact.rows()).hasSize(5);
            assertThat(exact.end().truncated()).isFalse();
        }
    }

    @Test
    void closeResultEndsTheResultEarly() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            c.send(new Message.Query("SELECT l_orderkey FROM lineitem", 0, 1, 0));
            c.expect(Message.ResultHeader.class);
            c.expect(Message.Batch.class);
            c.send(new Message.CloseResult());
            Message.ResultEnd end = c.expect(Message.ResultEnd.class);
            assertThat(end.truncated()).isTrue();
            assertThat(c.query("SELECT count(*) FROM items").single()).isEqualTo(5L);
        }
    }

    @Test
    void whileAResultIsOpenOtherRequestsAreRefusedWith55000() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            c.send(new Message.Query("SELECT l_orderkey FROM lineitem", 0, 1, 0));
            c.expect(Message.ResultHeader.class);
            c.expect(Message.Batch.class);
            c.send(new Message.Prepare("SELECT 1"));
            assertThat(c.expect(Message.Error.class).sqlState()).isEqualTo("55000");
            c.send(new Message.Fetch(1_000_000));
            assertThat(c.result().end().truncated()).isFalse();
        }
    }

    @Test
    void closeStatementIsAcknowledgedAndTheStatementLimitHolds() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            int[] ids = new int[4];
            for (int i = 0; i < 4; i++) {
                ids[i] = c.prepare("SELECT count(*) FROM items WHERE id > " + i).statementId();
            }
            c.send(new Message.Prepare("SELECT 1 FROM items"));
            Message.Error limit = c.expect(Message.Error.class);
            assertThat(limit.sqlState()).isEqualTo("54000");
            c.send(new Message.CloseStatement(ids[0]));
            assertThat(c.expect(Message.Closed.class).statementId()).isEqualTo(ids[0]);
            assertThat(c.prepare("SELECT 1 FROM items").statementId()).isNotIn(ids[1], ids[2], ids[3]);
            assertThat(c.execute(ids[3]).single()).isEqualTo(2L);
        }
    }

    @Test
    void metadataListsTablesAndColumnsMatchingThePatterns() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            c.send(new Message.Metadata(Message.Metadata.TABLES, "", ""));
            RawClient.Result tables = c.result();
            assertThat(tables.rows()).extracting(row -> row.get(0)).contains("items", "lineitem", "orders");
            assertThat(tables.rows()).allSatisfy(row -> assertThat(row.get(1)).isEqualTo("TABLE"));

            c.send(new Message.Metadata(Message.Metadata.TABLES, "LINE%", ""));
            assertThat(c.result().rows()).extracting(row -> row.get(0)).containsExactly("lineitem");

            c.send(new Message.Metadata(Message.Metadata.COLUMNS, "items", "%"));
            List<List<Object>> columns = c.result().rows();
            assertThat(columns).extracting(row -> row.get(1))
                    .containsExactly("id", "name", "price", "sold", "ok", "w", "n");
            assertThat(columns.get(2)).containsExactly("items", "price", 3L, "DECIMAL(10,2)", (long) WireType.DECIMAL,
                    10L, 2L, 0L, true);
            assertThat(columns.get(1).subList(3, 5)).containsExactly("VARCHAR(20)", (long) WireType.VARCHAR);

            c.send(new Message.Metadata(Message.Metadata.COLUMNS, "line_tem", "l\\_ship%"));
            assertThat(c.result().rows()).extracting(row -> row.get(1))
                    .containsExactly("l_shipdate", "l_shipinstruct", "l_shipmode");
        }
    }

    @Test
    void aWrongPreambleIsRefusedNamingTheVersionSpoken() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            byte[] preamble = Protocol.preamble();
            preamble[0] = 2;
            c.sendBytes(preamble);
            assertThat(c.expectError("08P01").message()).contains("version 2", "version 1");
            assertThat(c.closedByServer(Duration.ofSeconds(5))).isTrue();
        }
        try (RawClient c = RawClient.connect(server.port())) {
            c.sendBytes("\u0001HTTP/1.1 200".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertThat(c.expectError("08P01").message()).contains("magic");
            assertThat(c.closedByServer(Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void aMalformedPayloadClosesOnlyThatConnection() throws Exception {
        try (RawClient healthy = RawClient.connect(server.port()); RawClient bad = RawClient.connect(server.port())) {
            healthy.startup();
            bad.startup();
            bad.sendBytes(new byte[] {0, 0, 0, 3, Protocol.FETCH, 0, 0});
            assertThat(bad.expectError("08P01").message()).contains("FETCH");
            assertThat(bad.closedByServer(Duration.ofSeconds(5))).isTrue();
            assertThat(healthy.query("SELECT count(*) FROM items").single()).isEqualTo(5L);
        }
    }
}
