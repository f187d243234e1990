package io.locusdb.server.cli;

import io.locusdb.core.storage.load.LoadProgress;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** A one-line progress bar on stderr, redrawn at most every 200 ms; silent when stderr is not a terminal. */
final class ProgressBar implements LoadProgress {
    private final PrintStream out;
    private final boolean enabled;
    private final Map<String, AtomicLong> done = new ConcurrentHashMap<>();
    private final Map<String, Long> expected = new ConcurrentHashMap<>();
    private volatile long lastDraw;

    ProgressBar(PrintStream out) {
        this.out = out;
        this.enabled = System.console() != null;
    }

    @Override
    public void rowsDone(String table, long rows, long expectedTotal) {
        done.computeIfAbsent(table, t -> new AtomicLong()).addAndGet(rows);
        if (expectedTotal > 0) {
            expected.put(table, expectedTotal);
        }
        long now = System.nanoTime();
        if (enabled && now - lastDraw > 200_000_000L) {
            lastDraw = now;
            draw(table);
        }
    }

    private synchronized void draw(String table) {
        long d = done.get(table).get();
        long e = expected.getOrDefault(table, 0L);
        int width = 30;
        int filled = e > 0 ? (int) Math.min(width, d * width / e) : 0;
        out.printf(Locale.ROOT, "\r%-10s [%s%s] %,d rows%s", table, "#".repeat(filled), " ".repeat(width - filled),
                d, e > 0 ? String.format(Locale.ROOT, " of ~%,d", e) : "");
        out.flush();
    }

    void finish() {
        if (enabled) {
            out.print("\r" + " ".repeat(70) + "\r");
            out.flush();
        }
    }
}
