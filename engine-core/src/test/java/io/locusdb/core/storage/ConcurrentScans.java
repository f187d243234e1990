package io.locusdb.core.storage;

import io.locusdb.core.storage.table.Table;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reader threads that count {@code column ≤ max} over and over while a test changes the table's placement; any
 * count other than the expected one, or any exception, is kept as the failure.
 */
public final class ConcurrentScans implements AutoCloseable {
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong scans = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread[] readers;

    public ConcurrentScans(Table table, String column, long max, int threads) {
        long expected = TestScans.countAtMost(table, column, max);
        readers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            readers[t] = Thread.ofPlatform().start(() -> {
                try {
                    while (!stop.get()) {
                        long count = TestScans.countAtMost(table, column, max);
                        if (count != expected) {
                            throw new AssertionError("scan counted " + count + ", expected " + expected);
                        }
                        scans.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
        }
    }

    public long scans() {
        return scans.get();
    }

    /** Waits until {@code more} further scans completed (or a reader failed). */
    public void awaitMoreScans(long more) throws InterruptedException {
        long target = scans.get() + more;
        while (scans.get() < target && failure.get() == null) {
            Thread.sleep(5);
        }
    }

    /** Stops and joins the readers; returns the first failure, or null. */
    public Throwable stop() throws InterruptedException {
        stop.set(true);
        for (Thread reader : readers) {
            reader.join();
        }
        return failure.get();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
