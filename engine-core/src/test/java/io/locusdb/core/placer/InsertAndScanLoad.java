package io.locusdb.core.placer;

import io.locusdb.core.LocusDB;
import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Inserts and scans on a table {@code (id BIGINT, v BIGINT)} while its placement changes. One inserter commits ids
 * 1, 2, 3... in batches in order, with {@code v = id * 7 % 1000}, so every snapshot must hold exactly ids 1..m: a
 * scanner checks that count, {@code sum(id)} and {@code sum(v)} agree with that, and that m never goes back. Any
 * other answer (a row lost or doubled by a move, split or merge) or any error is kept as the failure.
 */
public final class InsertAndScanLoad implements AutoCloseable {
    private final String table;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong inserted = new AtomicLong();
    private final AtomicLong scans = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();

    /**
     * @param pauseMillis how long the inserter sleeps between batches and each scanner between scans (an emulated
     *                    guest cannot take them flat out, and a scanner that never pauses holds a thread of a
     *                    one-vCPU node all the time: load the placer would rightly act on before any phase begins)
     */
    public InsertAndScanLoad(LocusDB db, String table, long alreadyInserted, int batch, long pauseMillis,
                             int scanners) {
        this.table = table;
        inserted.set(alreadyInserted);
        threads.add(Thread.ofPlatform().name("load-insert-" + table).start(() -> guard(() -> {
            try (Session s = db.connect()) {
                while (!stop.get()) {
                    long from = inserted.get() + 1;
                    StringBuilder sql = new StringBuilder("INSERT INTO " + table + " VALUES ");
                    for (long id = from; id < from + batch; id++) {
                        sql.append(id == from ? "" : ", ").append('(').append(id).append(", ").append(v(id))
                                .append(')');
                    }
                    s.execute(sql.toString()).close();
                    inserted.addAndGet(batch);
                    if (!pause(pauseMillis)) {
                        return;
                    }
                }
            }
        })));
        for (int i = 0; i < scanners; i++) {
            threads.add(Thread.ofPlatform().name("load-scan-" + table + "-" + i).start(() -> guard(() -> {
                try (Session s = db.connect()) {
                    PreparedQuery q = s.prepare("SELECT count(*), sum(id), sum(v) FROM " + table);
                    long previous = 0;
                    while (!stop.get()) {
                        long atLeast = inserted.get();
                        List<Object> row;
                        try (QueryResult r = q.execute()) {
                            row = r.toList().getFirst();
                        }
                        long m = (Long) row.get(0);
                        check(m >= atLeast && m >= previous, "count " + m + " after " + atLeast
                                + " were committed (previous scan: " + previous + ")");
                        check(m == 0 || ((Number) row.get(1)).longValue() == m * (m + 1) / 2,
                                "sum(id) " + row.get(1) + " for " + m + " rows");
                        check(m == 0 || ((Number) row.get(2)).longValue() == sumV(m),
                                "sum(v) " + row.get(2) + " for " + m + " rows");
                        previous = m;
                        scans.incrementAndGet();
                        if (!pause(pauseMillis)) {
                            return;
                        }
                    }
                }
            })));
        }
    }

    /** Sleeps {@code millis} (none when 0); false when interrupted (the interrupt is kept). */
    private static boolean pause(long millis) {
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    public static long v(long id) {
        return id * 7 % 1000;
    }

    static long sumV(long m) {
        long sum = 0;
        for (long id = 1; id <= m; id++) {
            sum += v(id);
        }
        return sum;
    }

    private void guard(Runnable body) {
        try {
            body.run();
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            stop.set(true);
        }
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new AssertionError(message);
        }
    }

    /** Waits until {@code more} scans finished after this call (or the load failed, or a minute passed). */
    public void awaitMoreScans(long more) throws InterruptedException {
        long target = scans.get() + more;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (scans.get() < target && failure.get() == null && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    public long inserted() {
        return inserted.get();
    }

    public long scans() {
        return scans.get();
    }

    public Throwable failure() {
        return failure.get();
    }

    public String table() {
        return table;
    }

    /** Stops and joins every thread; returns the first failure, or null. */
    public Throwable stop() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        return failure.get();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
