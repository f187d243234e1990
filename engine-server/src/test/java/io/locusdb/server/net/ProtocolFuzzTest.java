package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.protocol.Message;
import io.locusdb.protocol.MessageCodec;
import io.locusdb.protocol.Protocol;
import io.locusdb.protocol.WireWriter;
import io.micrometer.core.instrument.Counter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Random and mutated frames, each case on its own connection: the server must answer every one with an ERROR
 * and/or a close within a few seconds, never report an internal error, and keep answering a healthy session
 * correctly the whole time. Reproducible: {@code -Dfuzz.seed=N}, {@code -Dfuzz.cases=N}.
 */
class ProtocolFuzzTest {
    static final int CASES = Integer.getInteger("fuzz.cases", 10_000);
    static final long SEED = Long.getLong("fuzz.seed", 20_240_601L);
    static final int CLIENTS = 4;
    static final Duration CASE_LIMIT = Duration.ofSeconds(10);
    static final Duration TOTAL_LIMIT = Duration.ofSeconds(150);

    /** Valid frames to mutate (after the preamble and a STARTUP). */
    static final List<byte[]> SEEDS = List.of(
            frame(new Message.Startup("fuzz", "", "", "", "fuzzer")),
            frame(new Message.Prepare("SELECT count(*), sum(n) FROM items WHERE id < ?")),
            frame(new Message.Execute(1, List.of(4L), 0, 1, 0)),
            frame(new Message.Execute(1, Arrays.asList(null, new BigDecimal("-1.5"), LocalDate.of(2024, 1, 1), "x",
                    true, 2.5), 3, 1, 1000)),
            frame(new Message.Query("SELECT id, name, price, sold FROM items", 0, 2, 0)),
            frame(new Message.Fetch(3)),
            frame(new Message.Metadata(Message.Metadata.COLUMNS, "it%", "")),
            frame(new Message.CloseStatement(1)),
            frame(new Message.Cancel()),
            frame(new Message.CloseResult()),
            frame(new Message.Ping()),
            frame(new Message.CancelRequest(1, 2)));

    @Test
    void mutatedFramesNeverCrashOrHangTheServerNorDisturbAHealthySession() throws Exception {
        try (LocusServer server = TestServers.start(Map.of("startup-timeout", "3s", "idle-timeout", "20s"),
                TestServers.ITEMS)) {
            AtomicBoolean fuzzing = new AtomicBoolean(true);
            AtomicLong healthyAnswers = new AtomicLong();
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            Thread healthy = Thread.ofPlatform().name("healthy-session").start(() ->
                    healthySession(server.port(), fuzzing, healthyAnswers, problems));

            AtomicInteger errorsSeen = new AtomicInteger();
            long start = System.nanoTime();
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < CLIENTS; t++) {
                int thread = t;
                done.add(clients.submit(() -> {
                    Random random = new Random(SEED + thread);
                    for (int i = thread; i < CASES; i += CLIENTS) {
                        if (Duration.ofNanos(System.nanoTime() - start).compareTo(TOTAL_LIMIT) > 0) {
                            problems.add("fuzzing ran over " + TOTAL_LIMIT);
                            return;
                        }
                        byte[] input = fuzzCase(random);
                        try {
                            if (runCase(server.port(), input)) {
                                errorsSeen.incrementAndGet();
                            }
                        } catch (IOException | RuntimeException e) {
                            problems.add("case " + i + " (" + input.length + " bytes " + hex(input) + "): " + e);
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            clients.shutdown();
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            fuzzing.set(false);
            healthy.join(30_000);
            System.out.printf("fuzz: %d cases in %d ms on %d connections, %d answered with ERROR; healthy session"
                    + " answered %d queries%n", CASES, took.toMillis(), CASES, errorsSeen.get(), healthyAnswers.get());

            assertThat(problems).isEmpty();
            assertThat(healthyAnswers.get()).isPositive();
            assertThat(errorsSeen.get()).isGreaterThan(CASES / 2);
            Counter internal = server.metrics().registry().find("locus.errors").tag("code", "XX000").counter();
            assertThat(internal == null ? 0 : internal.count()).as("internal errors").isZero();
            long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while ((server.metrics().sessions() != 0 || server.metrics().queriesInflight() != 0)
                    && System.nanoTime() < end) {
                Thread.sleep(20);
            }
            assertThat(server.metrics().sessions()).isZero();
            assertThat(server.metrics().queriesInflight()).isZero();
        }
    }

    /** Sends the case, half-closes, and reads to the end: true if an ERROR frame came back. */
    static boolean runCase(int port, byte[] input) throws IOException {
        try (Socket s = new Socket()) {
            s.setSoLinger(true, 0); // no TIME_WAIT pile-up over thousands of connections
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout((int) CASE_LIMIT.toMillis());
            try {
                s.getOutputStream().write(input);
                s.shutdownOutput();
            } catch (IOException e) {
                // The server may close before it has read everything (it refused the input): fine.
            }
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            InputStream in = s.getInputStream();
            byte[] buffer = new byte[8192];
            long deadline = System.nanoTime() + CASE_LIMIT.toNanos();
            try {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    received.write(buffer, 0, n);
                    if (System.nanoTime() > deadline) {
                        throw new IOException("the server kept the connection open for over " + CASE_LIMIT);
                    }
                }
            } catch (java.net.SocketTimeoutException e) {
                throw new IOException("no close within " + CASE_LIMIT);
            } catch (java.net.SocketException e) {
                // reset after the answer: also an end
            }
            return containsError(received.toByteArray());
        }
    }

    private static boolean containsError(byte[] bytes) {
        int at = 0;
        while (at + 5 <= bytes.length) {
            int length = ((bytes[at] & 0xFF) << 24) | ((bytes[at + 1] & 0xFF) << 16) | ((bytes[at + 2] & 0xFF) << 8)
                    | (bytes[at + 3] & 0xFF);
            if ((bytes[at + 4] & 0xFF) == Protocol.ERROR) {
                return true;
            }
            if (length < 1) {
                return false;
            }
            at += 4 + length;
        }
        return false;
    }

    static byte[] fuzzCase(Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int kind = random.nextInt(100);
        if (kind < 5) {
            out.writeBytes(garbage(random, random.nextInt(64)));
            return out.toByteArray();
        }
        byte[] preamble = Protocol.preamble();
        if (kind < 12) {
            out.writeBytes(mutate(random, preamble));
        } else {
            out.writeBytes(preamble);
        }
        boolean startupFirst = random.nextInt(10) < 8;
        if (startupFirst) {
            out.writeBytes(random.nextInt(6) == 0 ? mutate(random, SEEDS.getFirst()) : SEEDS.getFirst());
        }
        int frames = 1 + random.nextInt(4);
        for (int f = 0; f < frames; f++) {
            byte[] seed = SEEDS.get(random.nextInt(SEEDS.size()));
            int how = random.nextInt(10);
            if (how < 6) {
                out.writeBytes(mutate(random, seed));
            } else if (how < 8) {
                out.writeBytes(randomFrame(random));
            } else {
                out.writeBytes(seed);
            }
        }
        return out.toByteArray();
    }

    static byte[] mutate(Random random, byte[] original) {
        byte[] b = original.clone();
        return switch (random.nextInt(7)) {
            case 0 -> { // flip bits
                int flips = 1 + random.nextInt(4);
                for (int i = 0; i < flips; i++) {
                    b[random.nextInt(b.length)] ^= (byte) (1 << random.nextInt(8));
                }
                yield b;
            }
            case 1 -> Arrays.copyOf(b, random.nextInt(b.length)); // truncate
            case 2 -> { // wrong length
                int length = switch (random.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> random.nextInt(b.length + 8);
                    case 2 -> Integer.MAX_VALUE - random.nextInt(8);
                    default -> random.nextInt();
                };
                if (b.length >= 4) {
                    b[0] = (byte) (length >>> 24);
                    b[1] = (byte) (length >>> 16);
                    b[2] = (byte) (length >>> 8);
                    b[3] = (byte) length;
                }
                yield b;
            }
            case 3 -> { // random type
                if (b.length > 4) {
                    b[4] = (byte) random.nextInt(256);
                }
                yield b;
            }
            case 4 -> { // random bytes in the payload, length kept
                for (int i = 5; i < b.length; i++) {
                    if (random.nextInt(4) == 0) {
                        b[i] = (byte) random.nextInt(256);
                    }
                }
                yield b;
            }
            case 5 -> { // extra bytes inside the frame (the length no longer matches)
                byte[] longer = Arrays.copyOf(b, b.length + 1 + random.nextInt(16));
                for (int i = b.length; i < longer.length; i++) {
                    longer[i] = (byte) random.nextInt(256);
                }
                yield longer;
            }
            default -> { // a byte replaced by an extreme value
                if (b.length > 5) {
                    b[5 + random.nextInt(b.length - 5)] = (byte) (random.nextBoolean() ? 0xFF : 0x7F);
                }
                yield b;
            }
        };
    }

    static byte[] randomFrame(Random random) {
        byte[] payload = garbage(random, random.nextInt(40));
        WireWriter w = new WireWriter();
        w.beginFrame(random.nextBoolean() ? random.nextInt(256) : 1 + random.nextInt(0x0C));
        w.putBytes(payload, 0, payload.length);
        w.endFrame();
        return w.toByteArray();
    }

    static byte[] garbage(Random random, int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        return b;
    }

    static byte[] frame(Message m) {
        WireWriter w = new WireWriter();
        MessageCodec.write(w, m);
        return w.toByteArray();
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < Math.min(b.length, 48); i++) {
            s.append(String.format("%02x", b[i]));
        }
        return s + (b.length > 48 ? "…" : "");
    }

    /** Runs checked queries until told to stop; any wrong answer or error is a problem. */
    static void healthySession(int port, AtomicBoolean running, AtomicLong answers, ConcurrentLinkedQueue<String> problems) {
        try (RawClient c = RawClient.connect(port)) {
            c.startup();
            int statement = c.prepare("SELECT count(*), sum(n) FROM items WHERE id <= ?").statementId();
            while (running.get()) {
                List<Object> all = c.query("SELECT count(*), sum(n) FROM items").rows().getFirst();
                if (!all.equals(List.of(5L, 2147483647L - 10))) {
                    problems.add("healthy session got " + all);
                }
                List<Object> two = c.execute(statement, 2L).rows().getFirst();
                if (!two.equals(List.of(2L, 30L))) {
                    problems.add("healthy session got " + two);
                }
                answers.incrementAndGet();
                Thread.sleep(5);
            }
        } catch (Exception | AssertionError e) {
            problems.add("healthy session failed: " + e);
        }
    }
}
