package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.protocol.Message;
import io.locusdb.protocol.MessageCodec;
import io.locusdb.protocol.WireWriter;
import io.netty.channel.Channel;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Clients that do not read: the server stops reading from them instead of buffering answers without bound, resumes
 * when they read again, and a fatal error still closes such a connection within seconds.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServerBackpressureTest {
    /** Netty's high water mark per connection (LocusServer) is 1 MiB; a read's worth of answers may come on top. */
    static final long PENDING_BOUND = 8L << 20;
    static LocusServer server;

    @BeforeAll
    static void start() {
        server = TestServers.start(Map.of("max-frame-bytes", "64k"), "LOAD TPCH SCALE 0.01 PARTS 2");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void pipelinedPingsFromAClientThatDoesNotReadStayBoundedOnTheServerAndAreAllAnsweredLater() throws Exception {
        int pings = 2_000_000;
        try (RawClient flood = RawClient.connect(server.port(), 4096);
             RawClient healthy = RawClient.connect(server.port())) {
            flood.startup();
            healthy.startup();
            byte[] chunk = pings(10_000);
            AtomicLong sent = new AtomicLong();
            Thread writer = Thread.ofPlatform().daemon().name("ping-flood").start(() -> {
                try {
                    OutputStream o = flood.socket().getOutputStream();
                    for (long n = 0; n < pings; n += 10_000) {
                        o.write(chunk);
                        sent.addAndGet(10_000);
                    }
                    o.flush();
                } catch (IOException e) {
                    // the socket was closed under the writer at the end of the test
                }
            });
            // While the flood client reads nothing: the server's buffered answers stay bounded.
            long maxPending = 0;
            long lastSent = -1;
            long stalledSince = System.nanoTime();
            long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < end && writer.isAlive()) {
                maxPending = Math.max(maxPending, server.pendingOutboundBytes());
                long now = sent.get();
                if (now != lastSent) {
                    lastSent = now;
                    stalledSince = System.nanoTime();
                } else if (System.nanoTime() - stalledSince > Duration.ofSeconds(1).toNanos()) {
                    break; // the server stopped reading and the socket buffers are full
                }
                Thread.sleep(5);
            }
            for (int i = 0; i < 50; i++) {
                maxPending = Math.max(maxPending, server.pendingOutboundBytes());
                Thread.sleep(5);
            }
            assertThat(maxPending).as("bytes the server buffered for a client that does not read")
                    .isLessThan(PENDING_BOUND);
            // Other sessions are not affected.
            assertThat(healthy.query("SELECT count(*) FROM nation").single()).isEqualTo(25L);
            // Once the client reads, the server reads again: every PING gets its PONG (5 bytes each).
            long pongBytes = 0;
            byte[] sink = new byte[1 << 16];
            InputStream in = flood.in();
            while (pongBytes < 5L * pings) {
                int n = in.read(sink);
                assertThat(n).as("end of stream after %d bytes", pongBytes).isPositive();
                pongBytes += n;
            }
            writer.join(10_000);
            assertThat(sent.get()).isGreaterThanOrEqualTo(pings);
            assertThat(pongBytes).isEqualTo(5L * pings);
            flood.send(new Message.Ping());
            flood.expect(Message.Pong.class);
        }
    }

    @Test
    void requestsPipelinedFarBeyondTheQueueLimitAreAllAnsweredInOrderAndReadingAlwaysResumes() throws Exception {
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            for (int round = 0; round < 3; round++) {
                // 2 x 500 requests in one go: the connection stops and resumes reading many times on the way.
                WireWriter w = new WireWriter(1 << 16);
                int first = 1 + round * 500;
                for (int id = first; id < first + 500; id++) {
                    MessageCodec.write(w, new Message.Prepare("SELECT n_name FROM nation WHERE n_nationkey = " + id));
                    MessageCodec.write(w, new Message.CloseStatement(id));
                }
                c.sendBytes(w.toByteArray());
                for (int id = first; id < first + 500; id++) {
                    assertThat(c.expect(Message.Prepared.class).statementId()).isEqualTo(id);
                    assertThat(c.expect(Message.Closed.class).statementId()).isEqualTo(id);
                }
            }
            assertThat(c.query("SELECT count(*) FROM region").single()).isEqualTo(5L);
        }
    }

    @Test
    void aFatalErrorClosesAConnectionWhosePeerReadsNothingAndStopsItsResultAtOnce() throws Exception {
        awaitIdle();
        try (RawClient c = RawClient.connect(server.port(), 4096)) {
            c.startup();
            // ~60 MB of rows with all the credit they need; the client reads none of them.
            c.send(new Message.Query("SELECT l_orderkey, l_comment || '" + "x".repeat(1000) + "' FROM lineitem", 0,
                    1_000_000, 0));
            Channel channel = awaitStuckConnection();
            assertThat(server.metrics().queriesInflight()).isEqualTo(1);
            // What a malformed frame does on the event loop: the ERROR waits behind a batch the peer never takes; the
            // connection closes anyway.
            long start = System.nanoTime();
            channel.eventLoop().execute(() -> channel.pipeline().get(SessionHandler.class)
                    .fatal("08P01", "malformed FETCH: test"));
            assertThat(channel.closeFuture().await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
            awaitIdle();
        }
    }

    /** A connection whose socket takes no more bytes: Netty holds a frame for it for half a second. */
    private static Channel awaitStuckConnection() throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        long stuckSince = 0;
        while (System.nanoTime() < end) {
            Channel stuck = null;
            for (Channel ch : server.connections()) {
                if (ch.unsafe().outboundBuffer() != null && ch.unsafe().outboundBuffer().totalPendingWriteBytes() > 0) {
                    stuck = ch;
                }
            }
            if (stuck == null) {
                stuckSince = 0;
            } else if (stuckSince == 0) {
                stuckSince = System.nanoTime();
            } else if (System.nanoTime() - stuckSince > Duration.ofMillis(500).toNanos()) {
                return stuck;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no connection got stuck");
    }

    private static void awaitIdle() throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while ((server.metrics().sessions() != 0 || server.metrics().queriesInflight() != 0)
                && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(server.metrics().sessions()).isZero();
        assertThat(server.metrics().queriesInflight()).isZero();
    }

    private static byte[] pings(int count) {
        WireWriter w = new WireWriter(count * 5);
        for (int i = 0; i < count; i++) {
            MessageCodec.write(w, new Message.Ping());
        }
        return w.toByteArray();
    }
}
