package io.locusdb.core.eris;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * ERIS's adaption loop (§3.3): each period it takes the AEUs' access histograms of that period, and when the
 * imbalance (the standard deviation of the AEUs' loads over their mean) exceeds the threshold, it computes the
 * target partitioning with its {@link BalancingPolicy} and executes it as balancing commands
 * ({@link ErisRuntime#rebalance}: link within a node, copy across). {@link #balanceOnce} is one period, for tests
 * and benchmarks that drive it; {@link #start} runs it on a thread.
 */
public final class ErisBalancer implements AutoCloseable {
    /** One balancing: when, by which policy, the imbalance that triggered it and the bounds before and after. */
    public record Event(long nanos, String policy, double imbalance, long[] lowsBefore, long[] lowsAfter,
                        long entriesLinked, long entriesCopied, long micros) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s: imbalance %.2f, bounds %s -> %s, %d entries linked,"
                    + " %d copied, %d us", policy, imbalance, Arrays.toString(lowsBefore),
                    Arrays.toString(lowsAfter), entriesLinked, entriesCopied, micros);
        }
    }

    private final ErisRuntime eris;
    private final BalancingPolicy policy;
    private final double threshold;
    private final long minimumAccesses;
    private final List<Event> events = new CopyOnWriteArrayList<>();
    private final List<Consumer<Event>> listeners = new CopyOnWriteArrayList<>();
    private long[][] previous;
    private volatile Thread thread;

    /**
     * @param threshold       imbalance (standard deviation over mean of the AEUs' loads) above which it balances
     * @param minimumAccesses a period with fewer accesses in all says nothing and is skipped
     */
    public ErisBalancer(ErisRuntime eris, BalancingPolicy policy, double threshold, long minimumAccesses) {
        this.eris = eris;
        this.policy = policy;
        this.threshold = threshold;
        this.minimumAccesses = minimumAccesses;
        this.previous = eris.accessHistograms();
    }

    /** Called with every balancing event (logs, metrics, the placer's event table). */
    public void onEvent(Consumer<Event> listener) {
        listeners.add(listener);
    }

    public List<Event> events() {
        return List.copyOf(events);
    }

    /** One period: true when it rebalanced. */
    public boolean balanceOnce() throws InterruptedException {
        long[][] now = eris.accessHistograms();
        long[][] period = new long[now.length][];
        long total = 0;
        for (int i = 0; i < now.length; i++) {
            period[i] = new long[now[i].length];
            for (int b = 0; b < now[i].length; b++) {
                // A counter below its previous reading was reset by a rebalance: count from zero.
                long before = previous[i].length == now[i].length ? previous[i][b] : 0;
                period[i][b] = now[i][b] >= before ? now[i][b] - before : now[i][b];
                total += period[i][b];
            }
        }
        previous = now;
        double imbalance = BalancingPolicy.imbalance(period);
        if (total < minimumAccesses || imbalance <= threshold) {
            return false;
        }
        RangeTable table = eris.table();
        long[] lows = policy.targetLows(table, period, eris.domainLow(), eris.domainHigh());
        if (lows == null || Arrays.equals(lows, table.lows())) {
            return false;
        }
        long[] transfersBefore = eris.transfers();
        long start = System.nanoTime();
        eris.rebalance(lows);
        long[] transfersAfter = eris.transfers();
        Event event = new Event(start, policy.name(), imbalance, table.lows(), lows,
                transfersAfter[0] - transfersBefore[0], transfersAfter[1] - transfersBefore[1],
                (System.nanoTime() - start) / 1000);
        events.add(event);
        listeners.forEach(l -> l.accept(event));
        previous = eris.accessHistograms();
        return true;
    }

    /** Runs a period every {@code periodMillis} on its own thread until closed. */
    public void start(long periodMillis) {
        thread = Thread.ofPlatform().daemon().name("eris-balancer").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(periodMillis);
                    balanceOnce();
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    @Override
    public void close() {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The events as lines, for benchmarks. */
    public List<String> describe() {
        List<String> lines = new ArrayList<>();
        events.forEach(e -> lines.add(e.toString()));
        return lines;
    }
}
