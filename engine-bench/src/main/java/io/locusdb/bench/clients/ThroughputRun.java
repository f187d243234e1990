package io.locusdb.bench.clients;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/**
 * Many JDBC clients running the mix against one server for a bounded time, each on its own connection and thread:
 * every answer is checked, every latency recorded (per query, microseconds, HdrHistogram).
 */
public final class ThroughputRun {
    /** Latencies are recorded up to this many microseconds (10 minutes); longer ones are clamped. */
    private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(10);
    private static final int MAX_KEPT_FAILURES = 20;

    /** Opens one client's connection: to a server by URL, or another connection to an in-process database. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection open() throws SQLException;
    }

    private final ConnectionSource connections;
    private final List<MixQuery> mix;
    private final boolean platformThreads;

    public ThroughputRun(String url, Properties credentials, List<MixQuery> mix) {
        this(() -> DriverManager.getConnection(url, credentials), mix, false);
    }

    /**
     * @param platformThreads a platform thread per client instead of a virtual one: a driver that blocks in native
     *                        code (DuckDB's) holds its carrier thread, and with as many carriers as cores the other
     *                        clients would never run
     */
    public ThroughputRun(ConnectionSource connections, List<MixQuery> mix, boolean platformThreads) {
        this.connections = connections;
        this.mix = List.copyOf(mix);
        this.platformThreads = platformThreads;
    }

    /**
     * Runs {@code clients} clients: all connect and prepare first, then run for {@code warmup} unrecorded and
     * {@code measure} recorded. Never runs past warmup + measure + the time of one query per client.
     */
    public ThroughputReport run(int clients, Duration warmup, Duration measure, long seed) throws InterruptedException {
        return run(clients, warmup, measure, seed, () -> { });
    }

    /** As {@link #run(int, Duration, Duration, long)}; {@code started} runs as the connected clients are let go. */
    public ThroughputReport run(int clients, Duration warmup, Duration measure, long seed, Runnable started)
            throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(clients);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger connectFailures = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<ClientStats> stats = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long[] window = new long[2];
        for (int c = 0; c < clients; c++) {
            ClientStats s = new ClientStats(mix.size());
            stats.add(s);
            long clientSeed = seed + c;
            Thread.Builder builder = platformThreads ? Thread.ofPlatform().daemon() : Thread.ofVirtual();
            threads.add(builder.name("client-" + c).start(() -> {
                try (Connection connection = connections.open()) {
                    PreparedStatement[] statements = new PreparedStatement[mix.size()];
                    for (int q = 0; q < mix.size(); q++) {
                        statements[q] = mix.get(q).prepare(connection);
                    }
                    ready.countDown();
                    start.await();
                    loop(statements, new SplittableRandom(clientSeed), s, window, failures);
                } catch (SQLException e) {
                    connectFailures.incrementAndGet();
                    keep(failures, "connect/prepare: " + e);
                    ready.countDown();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        if (!ready.await(5, TimeUnit.MINUTES)) {
            keep(failures, "clients did not connect within 5 minutes");
        }
        long now = System.nanoTime();
        window[0] = now + warmup.toNanos();
        window[1] = window[0] + measure.toNanos();
        started.run();
        start.countDown();
        long deadline = window[1] + TimeUnit.MINUTES.toNanos(2);
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !t.join(Duration.ofNanos(left))) {
                keep(failures, t.getName() + " still running 2 minutes after the end");
            }
        }
        return ThroughputReport.of(clients, measure, mix, stats, connectFailures.get(), List.copyOf(failures));
    }

    private void loop(PreparedStatement[] statements, SplittableRandom random, ClientStats s, long[] window,
                      ConcurrentLinkedQueue<String> failures) {
        while (true) {
            long begin = System.nanoTime();
            if (begin >= window[1]) {
                return;
            }
            int q = random.nextInt(statements.length);
            boolean recorded = begin >= window[0];
            try {
                long rows = mix.get(q).runAndCheck(statements[q], random);
                long end = System.nanoTime();
                if (recorded && end <= window[1]) {
                    s.latencies[q].recordValue(Math.min(MAX_MICROS, Math.max(1, (end - begin) / 1000)));
                    s.rows += rows;
                    s.queries++;
                }
            } catch (MixQuery.WrongAnswerException e) {
                s.wrongAnswers++;
                keep(failures, "wrong answer: " + e.getMessage());
            } catch (SQLException | RuntimeException e) {
                s.errors++;
                keep(failures, mix.get(q).name() + ": " + e);
            }
        }
    }

    private static void keep(ConcurrentLinkedQueue<String> failures, String failure) {
        if (failures.size() < MAX_KEPT_FAILURES) {
            failures.add(failure);
        }
    }

    /** One client's books; only its own thread writes them. */
    static final class ClientStats {
        final Histogram[] latencies;
        long rows;
        long queries;
        long errors;
        long wrongAnswers;

        ClientStats(int queries) {
            latencies = new Histogram[queries];
            for (int q = 0; q < queries; q++) {
                latencies[q] = new Histogram(MAX_MICROS, 3);
            }
        }
    }

    /** Merges per-client histograms by query name (entries of one name, such as a template's draws, together). */
    static Map<String, Histogram> byQuery(List<MixQuery> mix, List<ClientStats> stats) {
        Map<String, Histogram> merged = new LinkedHashMap<>();
        for (int q = 0; q < mix.size(); q++) {
            Histogram h = merged.computeIfAbsent(mix.get(q).name(), name -> new Histogram(MAX_MICROS, 3));
            for (ClientStats s : stats) {
                h.add(s.latencies[q]);
            }
        }
        return merged;
    }
}
