package io.locusdb.core.eris;

import io.locusdb.core.storage.index.LongRadixTree;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A data command (ERIS §3.2): what to do, on which key or key range, and whom to tell when it is done. Commands
 * travel between threads through {@link IncomingBuffers}; the AEU that owns the key runs it, others forward it.
 */
public sealed interface Command {
    /** Runs once, on the AEU that executed the command. */
    interface Reply {
        void done(Command command, long result);
    }

    /** The value under {@code key}, or {@link #MISSING}. */
    record Lookup(long key, Reply reply) implements Command {
    }

    /** Adds {@code delta} to the value under {@code key} (creating it at {@code delta}); replies with the new value. */
    record Upsert(long key, long delta, Reply reply) implements Command {
    }

    /**
     * The sum of the values with keys in {@code [lo, hi]}, over every AEU whose range meets it: one command per such
     * AEU ({@code part}), all scans of a partition waiting in one round served by one pass over it.
     */
    record Scan(long lo, long hi, ScanResult result) implements Command {
    }

    /**
     * Collects a scan's pieces: the sum of what every AEU found and how many pieces are still out (an AEU that
     * no longer owns part of its piece forwards that part as a new piece).
     */
    final class ScanResult {
        private final AtomicLong sum = new AtomicLong();
        private final AtomicLong rows = new AtomicLong();
        private final AtomicInteger outstanding =
                new AtomicInteger();
        private final CompletableFuture<long[]> done = new CompletableFuture<>();

        void expect(int pieces) {
            outstanding.addAndGet(pieces);
        }

        void add(long values, long count) {
            sum.addAndGet(values);
            rows.addAndGet(count);
            if (outstanding.decrementAndGet() == 0) {
                done.complete(new long[] {sum.get(), rows.get()});
            }
        }

        /** Completes with {sum of values, rows} once every piece has answered. */
        public CompletableFuture<long[]> result() {
            return done;
        }
    }

    /**
     * From the balancer: the AEU's new range and the ranges it hands over (with their new owners) or receives; the
     * routing table already names the new owners when AEUs get this.
     */
    record Rebalance(long lo, long hi, List<long[]> giving, int receiving, Runnable done) implements Command {
    }

    /** Entries of a range handed from one AEU to another: linked on one node, copied across nodes. */
    record Transfer(long lo, long hi, LongRadixTree entries, boolean copied) implements Command {
    }

    long MISSING = Long.MIN_VALUE;
}
