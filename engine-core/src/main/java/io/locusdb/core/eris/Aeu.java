package io.locusdb.core.eris;

import io.locusdb.core.storage.index.LongRadixTree;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * An autonomous execution unit (ERIS §3.1): one thread that alone owns one key range of the data object, so its
 * partition needs no latch. Its loop drains the incoming buffers, runs balancing commands first, then the data
 * commands grouped by kind (lookups and upserts as batches, every scan of the round in one shared pass over the
 * partition), forwards commands for keys it no longer owns to their owner, defers those for keys it is about to
 * receive, and copies its outgoing buffers into the targets' incoming buffers.
 */
final class Aeu implements Runnable {
    private static final long IDLE_PARK_NANOS = 50_000;
    final int id;
    final int node;
    final IncomingBuffers incoming;
    private final ErisRuntime runtime;
    /** The partition: this AEU's keys and values in a prefix tree, touched by no other thread. */
    private final LongRadixTree data = new LongRadixTree();
    private long lo;
    private long hi;
    /** The range before the rebalance in progress: keys outside it wait for their transfer. */
    private long oldLo;
    private long oldHi;
    private int transfersExpected;
    private int transfersReceived;
    private Runnable rebalanceDone;
    private final ArrayDeque<Command> deferred = new ArrayDeque<>();
    private final List<Command> round = new ArrayList<>();
    private final Object[][] outgoing;
    private final int[] outgoingCount;
    private volatile Thread thread;
    private volatile boolean stopping;
    /** Data commands this AEU ran, per access-histogram bin of its range (the balancer reads them). */
    final AtomicLongArray accesses;
    private volatile long executed;
    private volatile long forwarded;

    Aeu(int id, int node, int aeus, int incomingCapacity, int bins, ErisRuntime runtime, long lo, long hi) {
        this.id = id;
        this.node = node;
        this.runtime = runtime;
        this.incoming = new IncomingBuffers(incomingCapacity);
        this.outgoing = new Object[aeus][16];
        this.outgoingCount = new int[aeus];
        this.accesses = new AtomicLongArray(bins);
        this.lo = lo;
        this.hi = hi;
        this.oldLo = lo;
        this.oldHi = hi;
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        runtime.pinned(this);
        while (!stopping || incoming.pending() > 0 || hasOutgoing() || !deferred.isEmpty()) {
            if (!step()) {
                LockSupport.parkNanos(IDLE_PARK_NANOS);
            }
        }
    }

    void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    void stop() {
        stopping = true;
        wake();
    }

    /** One round of the loop; false when there was nothing to do. */
    boolean step() {
        round.clear();
        int deferredBefore = deferred.size();
        round.addAll(deferred);
        deferred.clear();
        incoming.drain(c -> round.add((Command) c));
        boolean worked = round.size() > deferredBefore;
        // Balancing first: data commands of this round then see the range it sets.
        for (Command c : round) {
            switch (c) {
                case Command.Rebalance r -> rebalance(r);
                case Command.Transfer t -> link(t);
                default -> {
                }
            }
        }
        List<Command.Scan> scans = null;
        for (Command c : round) {
            switch (c) {
                case Command.Lookup l -> {
                    if (mine(l, l.key())) {
                        long v = data.get(l.key(), Command.MISSING);
                        count(l.key());
                        l.reply().done(l, v);
                    }
                }
                case Command.Upsert u -> {
                    if (mine(u, u.key())) {
                        long v = data.add(u.key(), u.delta());
                        count(u.key());
                        u.reply().done(u, v);
                    }
                }
                case Command.Scan s -> {
                    if (scans == null) {
                        scans = new ArrayList<>();
                    }
                    scans.add(s);
                }
                default -> {
                }
            }
        }
        if (scans != null) {
            scan(scans);
        }
        finishRebalance();
        flush();
        return worked || hasOutgoing();
    }

    /**
     * Whether this AEU runs a command on {@code key} now: in its range and not waiting for its transfer. Otherwise
     * the command is forwarded to the key's owner, or deferred when the routing table already names this AEU.
     */
    private boolean mine(Command c, long key) {
        if (key >= lo && key <= hi) {
            if (transfersReceived < transfersExpected && (key < oldLo || key > oldHi)) {
                deferred.add(c);
                return false;
            }
            return true;
        }
        int owner = runtime.table().ownerOf(key);
        if (owner == id) {
            deferred.add(c);
        } else {
            forward(c, owner);
        }
        return false;
    }

    /**
     * Every scan of the round in one pass over the partition: each entry in the union of their ranges adds to each
     * scan whose range holds it. Parts of a scan's range this AEU does not own go on as new pieces to their owners.
     */
    private void scan(List<Command.Scan> scans) {
        List<Command.Scan> here = new ArrayList<>(scans.size());
        for (Command.Scan s : scans) {
            long a = Math.max(s.lo(), lo);
            long b = Math.min(s.hi(), hi);
            if (transfersReceived < transfersExpected && a <= b && (a < oldLo || b > oldHi)) {
                deferred.add(s);
                continue;
            }
            int pieces = 0;
            if (s.lo() < lo) {
                pieces += split(s.result(), s.lo(), Math.min(s.hi(), lo - 1));
            }
            if (s.hi() > hi) {
                pieces += split(s.result(), Math.max(s.lo(), hi + 1), s.hi());
            }
            if (a <= b) {
                here.add(new Command.Scan(a, b, s.result()));
            } else {
                s.result().add(0, 0);
            }
        }
        if (here.isEmpty()) {
            return;
        }
        if (!runtime.shareScans()) {
            long[] sumAndRows = new long[2];
            for (Command.Scan s : here) {
                sumAndRows[0] = 0;
                sumAndRows[1] = 0;
                data.forEach(s.lo(), s.hi(), (k, v) -> {
                    sumAndRows[0] += v;
                    sumAndRows[1]++;
                });
                s.result().add(sumAndRows[0], sumAndRows[1]);
            }
            executed += here.size();
            return;
        }
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        for (Command.Scan s : here) {
            from = Math.min(from, s.lo());
            to = Math.max(to, s.hi());
        }
        long[] sums = new long[here.size()];
        long[] rows = new long[here.size()];
        long[] los = new long[here.size()];
        long[] his = new long[here.size()];
        for (int i = 0; i < los.length; i++) {
            los[i] = here.get(i).lo();
            his[i] = here.get(i).hi();
        }
        data.forEach(from, to, (k, v) -> {
            for (int i = 0; i < sums.length; i++) {
                if (k >= los[i] && k <= his[i]) {
                    sums[i] += v;
                    rows[i]++;
                }
            }
        });
        for (int i = 0; i < sums.length; i++) {
            here.get(i).result().add(sums[i], rows[i]);
        }
        executed += here.size();
    }

    /** Sends {@code [a, b]} of a scan to its current owners as new pieces; returns how many. */
    private int split(Command.ScanResult result, long a, long b) {
        RangeTable table = runtime.table();
        List<Command.Scan> pieces = new ArrayList<>();
        List<Integer> owners = new ArrayList<>();
        for (int i = 0; i < table.ranges(); i++) {
            long x = Math.max(a, table.low(i));
            long y = Math.min(b, table.high(i));
            if (x <= y) {
                pieces.add(new Command.Scan(x, y, result));
                owners.add(table.owners()[i]);
            }
        }
        result.expect(pieces.size());
        for (int i = 0; i < pieces.size(); i++) {
            if (owners.get(i) == id) {
                deferred.add(pieces.get(i));
            } else {
                forward(pieces.get(i), owners.get(i));
            }
        }
        return pieces.size();
    }

    private void count(long key) {
        executed++;
        int bin = bin(key);
        // Only this thread writes; the balancer reads.
        accesses.lazySet(bin, accesses.get(bin) + 1);
    }

    /** The access-histogram bin of {@code key}: bins split this AEU's range within the key domain evenly. */
    private int bin(long key) {
        long from = Math.max(lo, runtime.domainLow());
        long to = Math.min(hi, runtime.domainHigh());
        if (to <= from) {
            return 0;
        }
        double share = ((double) key - from) / ((double) to - from + 1);
        return (int) Math.min(accesses.length() - 1, Math.max(0, share * accesses.length()));
    }

    /** Takes on a new range: hands the keys it gives up to their new owners and waits for those it receives. */
    private void rebalance(Command.Rebalance r) {
        oldLo = lo;
        oldHi = hi;
        lo = r.lo();
        hi = r.hi();
        for (int b = 0; b < accesses.length(); b++) {
            accesses.lazySet(b, 0);
        }
        for (long[] giving : r.giving()) {
            long a = giving[0];
            long b = giving[1];
            int target = (int) giving[2];
            boolean copied = runtime.nodeOf(target) != node;
            // Link on one node: the target takes the entries' leaves as they are. Copy across nodes: the target
            // makes new ones, allocated by its own thread and so in its node's memory.
            LongRadixTree entries = data.removeRange(a, b);
            // Counted before it is sent: a linked tree is emptied by its new owner.
            runtime.transferred(copied, entries.size());
            forward(new Command.Transfer(a, b, entries, copied), target);
        }
        transfersExpected += r.receiving();
        rebalanceDone = r.done();
    }

    private void link(Command.Transfer t) {
        data.putAll(t.entries(), !t.copied());
        transfersReceived++;
    }

    private void finishRebalance() {
        if (rebalanceDone != null && transfersReceived >= transfersExpected) {
            transfersExpected = 0;
            transfersReceived = 0;
            oldLo = lo;
            oldHi = hi;
            Runnable done = rebalanceDone;
            rebalanceDone = null;
            flush();
            done.run();
        }
    }

    private void forward(Command c, int target) {
        if (!(c instanceof Command.Transfer)) {
            forwarded++;
        }
        int n = outgoingCount[target];
        if (n == outgoing[target].length) {
            outgoing[target] = Arrays.copyOf(outgoing[target], n * 2);
        }
        outgoing[target][n] = c;
        outgoingCount[target] = n + 1;
    }

    /** Copies each outgoing buffer into its target's incoming buffer, in runs the target has room for. */
    private void flush() {
        for (int t = 0; t < outgoing.length; t++) {
            int n = outgoingCount[t];
            if (n == 0) {
                continue;
            }
            Aeu target = runtime.aeu(t);
            int sent = 0;
            while (sent < n) {
                int run = Math.min(n - sent, target.incoming.capacity());
                if (!target.incoming.offer(outgoing[t], sent, run)) {
                    break;
                }
                sent += run;
            }
            if (sent > 0) {
                System.arraycopy(outgoing[t], sent, outgoing[t], 0, n - sent);
                Arrays.fill(outgoing[t], n - sent, n, null);
                outgoingCount[t] = n - sent;
                target.wake();
            }
        }
    }

    private boolean hasOutgoing() {
        for (int n : outgoingCount) {
            if (n > 0) {
                return true;
            }
        }
        return false;
    }

    long executed() {
        return executed;
    }

    long forwarded() {
        return forwarded;
    }

    /** A copy of the entries held now; call only from this AEU's thread or once it has stopped. */
    SortedMap<Long, Long> entries() {
        SortedMap<Long, Long> copy = new TreeMap<>();
        data.forEach(copy::put);
        return copy;
    }

    long lo() {
        return lo;
    }

    long hi() {
        return hi;
    }
}
