package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.protocol.Message;
import java.time.Duration;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** CANCEL on the same connection, CANCEL_REQUEST from a second one, and statement timeouts: all end in 57014. */
class ServerCancelTest {
    /** Many groups across all parts: slow enough at SF 0.05 to be cancelled while it aggregates. */
    static final String SLOW = "SELECT l_orderkey, l_partkey, l_suppkey, count(*), sum(l_extendedprice),"
            + " avg(l_discount) FROM lineitem GROUP BY l_orderkey, l_partkey, l_suppkey";
    static final String SCAN = "SELECT l_orderkey, l_comment FROM lineitem";
    /**
     * Several seconds at SF 0.05 on two cores: 24 many-group aggregations of lineitem, one after another. One alone
     * (SLOW) ran warm in less than the pause before the cancel on a fast host, so it ended before it was cancelled.
     * Each differs by its filter: 24 equal ones would be computed once (a subplan that occurs twice is shared).
     */
    static final String SLOWER = "SELECT count(*) FROM (" + String.join(" UNION ALL ", IntStream.range(0, 24)
            .mapToObj(i -> SLOW.replace(" GROUP BY", " WHERE l_orderkey <> " + (-1 - i) + " GROUP BY")).toList())
            + ") t";
    static LocusServer server;

    @BeforeAll
    static void start() {
        server = TestServers.start(Map.of(), "LOAD TPCH SCALE 0.05 PARTS 2");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void cancelStopsAResultPausedForCredit() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            c.send(new Message.Query(SCAN, 0, 1, 0));
            c.expect(Message.ResultHeader.class);
            c.expect(Message.Batch.class);
            c.send(new Message.Cancel());
            assertThat(c.expectError("57014").message()).contains("cancelled");
            assertThat(c.query("SELECT count(*) FROM nation").single()).isEqualTo(25L);
            // Cancelling when nothing runs does nothing.
            c.send(new Message.Cancel()).send(new Message.Ping());
            c.expect(Message.Pong.class);
        }
        awaitNoQueryInflight();
    }

    @Test
    void cancelStopsAnAggregationWhileItRuns() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            long full = timed(() -> c.query(SLOWER).end());
            c.send(new Message.Query(SLOWER, 0, 1000, 0));
            Thread.sleep(Math.min(100, full / 4));
            long start = System.nanoTime();
            c.send(new Message.Cancel());
            assertThat(c.expectError("57014")).isNotNull();
            long cancelMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(cancelMillis).as("cancel took %d ms; the whole query takes %d ms", cancelMillis, full)
                    .isLessThan(Math.max(full, 1000));
            assertThat(c.query("SELECT count(*) FROM region").single()).isEqualTo(5L);
        }
        awaitNoQueryInflight();
    }

    @Test
    void aCancelRequestFromASecondConnectionCancelsWithTheRightKeyOnly() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            Message.Ready ready = c.startup();
            c.send(new Message.Query(SCAN, 0, 1, 0));
            c.expect(Message.ResultHeader.class);
            c.expect(Message.Batch.class);
            try (RawClient wrong = RawClient.connect(server.port())) {
                wrong.preamble().send(new Message.CancelRequest(ready.sessionId(), ready.cancelKey() + 1));
                assertThat(wrong.closedByServer(Duration.ofSeconds(5))).isTrue();
            }
            c.send(new Message.Fetch(1));
            c.expect(Message.Batch.class);
            try (RawClient other = RawClient.connect(server.port())) {
                other.preamble().send(new Message.CancelRequest(ready.sessionId(), ready.cancelKey()));
                assertThat(other.closedByServer(Duration.ofSeconds(5))).as("closed without reply").isTrue();
            }
            assertThat(c.expectError("57014")).isNotNull();
            assertThat(c.query("SELECT count(*) FROM nation").single()).isEqualTo(25L);
        }
        awaitNoQueryInflight();
    }

    @Test
    void aStatementRunningLongerThanItsTimeoutEndsWith57014() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            c.send(new Message.Query(SCAN, 0, 1, 300));
            c.expect(Message.ResultHeader.class);
            c.expect(Message.Batch.class);
            long start = System.nanoTime();
            Message.Error e = c.expectError("57014");
            assertThat(e.message()).isEqualTo("query timed out after 300 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            c.send(new Message.Query(SLOW, 0, 1000, 1));
            assertThat(c.result().error().message()).isEqualTo("query timed out after 1 ms");
            // A timeout that is not reached changes nothing.
            c.send(new Message.Query("SELECT count(*) FROM nation", 0, 1, 60_000));
            assertThat(c.result().single()).isEqualTo(25L);
        }
        awaitNoQueryInflight();
    }

    private static long timed(ThrowingRunnable run) throws Exception {
        long start = System.nanoTime();
        run.run();
        return (System.nanoTime() - start) / 1_000_000;
    }

    private interface ThrowingRunnable {
        Object run() throws Exception;
    }

    static void awaitNoQueryInflight() throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (server.metrics().queriesInflight() != 0 && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(server.metrics().queriesInflight()).isZero();
    }
}
