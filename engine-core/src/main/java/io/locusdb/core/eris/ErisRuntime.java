package io.locusdb.core.eris;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * ERIS on one key-value data object: one {@link Aeu} per worker, each owning one range of the keys (range
 * partitioning keeps scans and balancing in key order), a {@link RangeTable} that routes commands and that only
 * {@link #rebalance} changes, and the routing from any thread into the AEUs' incoming buffers. Callers submit
 * commands and get their replies on the AEU that ran them.
 */
public final class ErisRuntime implements AutoCloseable {
    private final Aeu[] aeus;
    private final int[] nodes;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<RangeTable> table;
    private final long domainLow;
    private final long domainHigh;
    private final IntConsumer pin;
    private volatile boolean shareScans = true;
    private final AtomicLong linked = new AtomicLong();
    private final AtomicLong copied = new AtomicLong();
    private final Object balancing = new Object();

    /**
     * @param nodes    the node of each AEU (its length is the number of AEUs)
     * @param keys     the key domain {@code [0, keys)}, split evenly at the start
     * @param capacity commands per incoming buffer
     * @param pin      called on each AEU's thread with its index before it starts (pins it to its context)
     */
    public ErisRuntime(int[] nodes, long keys, int capacity, IntConsumer pin) {
        if (nodes.length < 1 || keys < nodes.length) {
            throw new IllegalArgumentException(nodes.length + " AEUs over " + keys + " keys");
        }
        this.nodes = nodes.clone();
        this.domainLow = 0;
        this.domainHigh = keys - 1;
        this.pin = pin;
        this.table = new AtomicReference<>(RangeTable.even(nodes.length, keys));
        this.aeus = new Aeu[nodes.length];
        for (int i = 0; i < aeus.length; i++) {
            aeus[i] = new Aeu(i, nodes[i], nodes.length, capacity, 16, this, table.get().low(i), table.get().high(i));
        }
        for (Aeu aeu : aeus) {
            threads.add(Thread.ofPlatform().daemon().name("aeu-" + aeu.id).start(aeu));
        }
    }

    public RangeTable table() {
        return table.get();
    }

    Aeu aeu(int i) {
        return aeus[i];
    }

    public int aeus() {
        return aeus.length;
    }

    int nodeOf(int aeu) {
        return nodes[aeu];
    }

    long domainLow() {
        return domainLow;
    }

    long domainHigh() {
        return domainHigh;
    }

    void pinned(Aeu aeu) {
        pin.accept(aeu.id);
    }

    /** Scan sharing on (one pass per partition serves every scan waiting there) or off (one pass per scan). */
    public void shareScans(boolean on) {
        shareScans = on;
    }

    boolean shareScans() {
        return shareScans;
    }

    /** Routes a lookup or upsert to the AEU owning its key (a full incoming buffer is retried until it drains). */
    public void submit(Command command) {
        switch (command) {
            case Command.Lookup l -> send(table.get().ownerOf(l.key()), command);
            case Command.Upsert u -> send(table.get().ownerOf(u.key()), command);
            case Command.Scan s -> {
                RangeTable t = table.get();
                List<Integer> owners = new ArrayList<>();
                List<Command.Scan> pieces = new ArrayList<>();
                for (int i = 0; i < t.ranges(); i++) {
                    long a = Math.max(s.lo(), t.low(i));
                    long b = Math.min(s.hi(), t.high(i));
                    if (a <= b) {
                        owners.add(t.owners()[i]);
                        pieces.add(new Command.Scan(a, b, s.result()));
                    }
                }
                if (pieces.isEmpty()) {
                    s.result().expect(1);
                    s.result().add(0, 0);
                    return;
                }
                s.result().expect(pieces.size());
                for (int i = 0; i < pieces.size(); i++) {
                    send(owners.get(i), pieces.get(i));
                }
            }
            default -> throw new IllegalArgumentException("balancing commands come from rebalance(), not submit()");
        }
    }

    private void send(int owner, Command command) {
        Aeu target = aeus[owner];
        while (!target.incoming.offer(command)) {
            target.wake();
            Thread.onSpinWait();
            Thread.yield();
        }
        target.wake();
    }

    /**
     * Moves the range bounds to {@code lows} (one per AEU, ascending, the first Long.MIN_VALUE): installs the new
     * routing table, tells every AEU its new range and what to hand over, and returns once every transfer is
     * linked or copied. Commands keep flowing meanwhile; those that reach an AEU for a range it gave up are
     * forwarded, those for a range still on its way wait at the new owner.
     */
    public void rebalance(long[] lows) throws InterruptedException {
        synchronized (balancing) {
            RangeTable before = table.get();
            RangeTable after = new RangeTable(lows, before.owners());
            CountDownLatch done = new CountDownLatch(aeus.length);
            List<Command.Rebalance> commands = new ArrayList<>();
            for (int i = 0; i < aeus.length; i++) {
                List<long[]> giving = new ArrayList<>();
                int receiving = 0;
                for (int j = 0; j < aeus.length; j++) {
                    if (j == i) {
                        continue;
                    }
                    long a = Math.max(before.low(i), after.low(j));
                    long b = Math.min(before.high(i), after.high(j));
                    if (a <= b) {
                        giving.add(new long[] {a, b, j});
                    }
                    if (Math.max(before.low(j), after.low(i)) <= Math.min(before.high(j), after.high(i))) {
                        receiving++;
                    }
                }
                commands.add(new Command.Rebalance(after.low(i), after.high(i), giving, receiving, done::countDown));
            }
            table.set(after);
            for (int i = 0; i < aeus.length; i++) {
                send(i, commands.get(i));
            }
            if (!done.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("a rebalance did not finish within 60 s");
            }
        }
    }

    /** Counts a transfer of {@code entries}: copied across nodes or linked within one. */
    void transferred(boolean acrossNodes, long entries) {
        (acrossNodes ? copied : linked).addAndGet(entries);
    }

    /** Entries moved by link (same node) and by copy (across nodes) so far. */
    public long[] transfers() {
        return new long[] {linked.get(), copied.get()};
    }

    /** Per AEU, the data commands it ran since its last rebalance, by histogram bin of its range. */
    public long[][] accessHistograms() {
        long[][] out = new long[aeus.length][];
        for (int i = 0; i < aeus.length; i++) {
            out[i] = new long[aeus[i].accesses.length()];
            for (int b = 0; b < out[i].length; b++) {
                out[i][b] = aeus[i].accesses.get(b);
            }
        }
        return out;
    }

    /** Commands each AEU forwarded (they reached it for a key it did not own). */
    public long forwarded() {
        long n = 0;
        for (Aeu a : aeus) {
            n += a.forwarded();
        }
        return n;
    }

    /** Stops the AEUs once their buffers are empty; returns every entry, for checks. */
    public Map<Long, Long> closeAndCollect() {
        close();
        Map<Long, Long> all = new TreeMap<>();
        for (Aeu a : aeus) {
            all.putAll(a.entries());
        }
        return all;
    }

    @Override
    public void close() {
        for (Aeu a : aeus) {
            a.stop();
        }
        for (Thread t : threads) {
            try {
                t.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
