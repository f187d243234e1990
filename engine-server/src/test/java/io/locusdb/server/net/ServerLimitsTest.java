package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.protocol.Message;
import io.locusdb.protocol.Protocol;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The limits of docs/protocol.md: frame size, sessions, idle and startup timeouts; and clients that vanish. */
class ServerLimitsTest {
    static LocusServer server;
    static final String LONG_NAME = "n".repeat(20_000);

    @BeforeAll
    static void start() {
        server = TestServers.start(Map.of("max-sessions", "3", "idle-timeout", "400ms", "startup-timeout", "400ms",
                "max-frame-bytes", "64k"), "LOAD TPCH SCALE 0.01 PARTS 2", "CREATE TABLE wide (id BIGINT, s VARCHAR)",
                "INSERT INTO wide VALUES (1, '" + "w".repeat(30_000) + "')", "CREATE TABLE longnames (" + LONG_NAME
                        + "a BIGINT, " + LONG_NAME + "b BIGINT, " + LONG_NAME + "c BIGINT, " + LONG_NAME + "d BIGINT)");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aFrameOverTheLimitIsRefusedWith54000BeforeItsBodyAndOnlyThatConnectionCloses() throws Exception {
        try (RawClient healthy = RawClient.connect(server.port()); RawClient big = RawClient.connect(server.port())) {
            healthy.startup();
            big.startup();
            // Only the header of a 1 GiB frame: the server must not wait for the body.
            big.sendBytes(new byte[] {0x40, 0, 0, 0, Protocol.PREPARE});
            Message.Error e = big.expectError("54000");
            assertThat(e.message()).isEqualTo("frame of 1073741824 bytes exceeds the limit of 65536");
            assertThat(big.closedByServer(Duration.ofSeconds(5))).isTrue();
            assertThat(healthy.query("SELECT count(*) FROM nation").single()).isEqualTo(25L);
        }
    }

    @Test
    void resultFramesStayUnderTheFrameLimit() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            // ~4096 comments of up to 44 characters would need a frame of ~200 KB: the server splits it.
            RawClient.Result r = c.query("SELECT l_comment, l_orderkey FROM lineitem");
            assertThat(r.batches()).hasSizeGreaterThan(60_000 / 4096);
            assertThat(r.end().rowsSent()).isEqualTo(r.rows().size());
        }
    }

    @Test
    void veryWideRowsStreamInFramesUnderTheLimitAndARowOverItIsAStatementError() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            RawClient.Result r = c.query("SELECT l_orderkey, l_comment || '" + "x".repeat(5000) + "' FROM lineitem"
                    + " WHERE l_orderkey < 2000");
            assertThat(r.rows()).hasSize((int) r.end().rowsSent()).allSatisfy(row ->
                    assertThat((String) row.get(1)).endsWith("x".repeat(5000)));
            assertThat(r.batches()).hasSizeGreaterThan(r.rows().size() / 13);
            // 90,000 characters in one row cannot fit a 64 KiB frame: the statement fails, the session goes on.
            RawClient.Result tooWide = c.query("SELECT s || s || s FROM wide");
            assertThat(tooWide.error().sqlState()).isEqualTo("54000");
            assertThat(tooWide.error().message()).isEqualTo("a row of 90010 bytes exceeds the maximum frame size"
                    + " 65536");
            assertThat(c.query("SELECT count(*) FROM wide").single()).isEqualTo(1L);
        }
    }

    @Test
    void errorTextsAreCutAndAHeaderOverTheFrameLimitIsAStatementError() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            // The error echoes the 30,000-character name; the client gets at most 8 KiB of it.
            Message.Error e = c.query("SELECT * FROM missing" + "m".repeat(30_000)).error();
            assertThat(e).isNotNull();
            assertThat(e.message().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                    .isLessThanOrEqualTo(Outbound.MAX_MESSAGE_BYTES);
            assertThat(e.message()).endsWith("... (truncated)");
            // Four 20,000-character column names make an 80 KB RESULT_HEADER (or PREPARED): 54000, session goes on.
            RawClient.Result r = c.query("SELECT * FROM longnames");
            assertThat(r.header()).isNull();
            assertThat(r.error().sqlState()).isEqualTo("54000");
            assertThat(r.error().message()).startsWith("the result's header (4 column descriptions) of ")
                    .endsWith(" bytes exceeds the maximum frame size 65536");
            c.send(new Message.Prepare("SELECT * FROM longnames"));
            assertThat(c.expectError("54000").message()).startsWith("the statement's description (4 columns) of ");
            assertThat(c.query("SELECT count(*) FROM longnames").single()).isEqualTo(0L);
        }
    }

    @Test
    void anInternalErrorTellsTheClientOnlyAnIncidentId() {
        Message.Error e = ErrorMapping.toError(new IllegalStateException("secret detail at /srv/locus/x.java"));
        assertThat(e.sqlState()).isEqualTo("XX000");
        assertThat(e.message()).matches("internal error \\(incident [0-9a-f]{8}\\); the server log has the details")
                .doesNotContain("secret").doesNotContain("IllegalState");
    }

    @Test
    void theSessionLimitRefusesTheNextSessionWith53300() throws Exception {
        awaitSessions(0);
        try (RawClient a = RawClient.connect(server.port()); RawClient b = RawClient.connect(server.port());
             RawClient c = RawClient.connect(server.port()); RawClient d = RawClient.connect(server.port())) {
            a.startup();
            b.startup();
            c.startup();
            d.preamble().send(new Message.Startup("x", "", "", "", "test"));
            assertThat(d.expectError("53300").message()).contains("3");
            assertThat(d.closedByServer(Duration.ofSeconds(5))).isTrue();
            assertThat(a.query("SELECT count(*) FROM region").single()).isEqualTo(5L);
        }
        awaitSessions(0);
        try (RawClient again = RawClient.connect(server.port())) {
            again.startup();
        }
    }

    @Test
    void anIdleSessionIsClosedWith57P05ButARunningStatementIsNotIdle() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            // A result paused for credit longer than the idle timeout: the session is not idle.
            c.send(new Message.Query("SELECT l_orderkey FROM lineitem", 0, 1, 0));
            c.expect(Message.ResultHeader.class);
            c.expect(Message.Batch.class);
            Thread.sleep(700);
            c.send(new Message.Fetch(1_000_000));
            assertThat(c.result().end().truncated()).isFalse();
            long start = System.nanoTime();
            Message.Error e = c.expectError("57P05");
            assertThat(e.message()).contains("idle timeout");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(300),
                    Duration.ofSeconds(5));
            assertThat(c.closedByServer(Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void aConnectionWithoutStartupIsClosedAfterTheStartupTimeout() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.preamble();
            assertThat(c.closedByServer(Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void aClientVanishingMidResultCancelsTheQueryAndFreesTheSession() throws Exception {
        awaitSessions(0);
        RawClient c = RawClient.connect(server.port());
        c.startup();
        c.send(new Message.Query("SELECT l_orderkey, l_comment FROM lineitem", 0, 1, 0));
        c.expect(Message.ResultHeader.class);
        c.expect(Message.Batch.class);
        assertThat(server.metrics().queriesInflight()).isEqualTo(1);
        c.close();
        awaitSessions(0);
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (server.metrics().queriesInflight() != 0 && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(server.metrics().queriesInflight()).isZero();
        try (RawClient next = RawClient.connect(server.port())) {
            next.startup();
            assertThat(next.query("SELECT count(*) FROM nation").single()).isEqualTo(25L);
        }
    }

    static void awaitSessions(int expected) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (server.metrics().sessions() != expected && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(server.metrics().sessions()).isEqualTo(expected);
    }
}
