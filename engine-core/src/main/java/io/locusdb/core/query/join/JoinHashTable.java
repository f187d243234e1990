package io.locusdb.core.query.join;

import io.locusdb.core.exec.MemoryBudget;
import io.locusdb.core.query.ColumnVector;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The build side of a hash join: the build rows (held by the caller as column vectors), chained by hash of their
 * key columns. Built once, then read by any number of probing tasks at the same time; which build rows found a
 * match is recorded for outer joins that keep unmatched build rows. Its arrays are charged to the query's memory
 * budget, so a build side too large for it fails the query with 53200 instead of the server.
 */
public final class JoinHashTable {
    private final ColumnVector[] buildColumns;
    private final ColumnVector[] keys;
    private final int rows;
    private final int[] heads;
    private final int[] next;
    private final long[] hashes;
    private final int mask;
    private final AtomicLongArray matched;
    private final long bytes;
    private final MemoryBudget budget;

    /**
     * @param buildColumns every column of the build side (the output takes them from here)
     * @param keyIndexes   which of them are the join keys
     * @param trackMatches whether to record matched build rows (outer joins keeping the build side)
     */
    public JoinHashTable(ColumnVector[] buildColumns, int rows, int[] keyIndexes, boolean trackMatches,
                         MemoryBudget budget) {
        this.buildColumns = buildColumns;
        this.rows = rows;
        this.keys = new ColumnVector[keyIndexes.length];
        for (int k = 0; k < keyIndexes.length; k++) {
            keys[k] = buildColumns[keyIndexes[k]];
        }
        int capacity = Integer.highestOneBit(Math.max(16, rows * 2 - 1)) << 1;
        this.bytes = 4L * capacity + 12L * rows + (trackMatches ? rows / 8 + 8 : 0);
        this.budget = budget;
        if (budget != null) {
            budget.reserve(bytes);
        }
        this.heads = new int[capacity];
        Arrays.fill(heads, -1);
        this.mask = capacity - 1;
        this.next = new int[rows];
        this.hashes = new long[rows];
        this.matched = trackMatches ? new AtomicLongArray((rows + 63) >>> 6) : null;
        // Inserted from the last row down, so that each chain lists its rows in build order.
        for (int r = rows - 1; r >= 0; r--) {
            if (JoinKeys.anyNull(keys, r)) {
                next[r] = -1;
                continue;
            }
            long h = JoinKeys.hash(keys, r);
            hashes[r] = h;
            int slot = (int) (h & mask);
            next[r] = heads[slot];
            heads[slot] = r;
        }
    }

    public ColumnVector[] columns() {
        return buildColumns;
    }

    public int rows() {
        return rows;
    }

    /** The first build row whose key may equal row {@code row} of {@code probeKeys}, or -1; then {@link #next}. */
    int first(ColumnVector[] probeKeys, int row, long hash) {
        int r = heads[(int) (hash & mask)];
        while (r >= 0 && !(hashes[r] == hash && JoinKeys.equal(keys, r, probeKeys, row))) {
            r = next[r];
        }
        return r;
    }

    /** The build row after {@code r} in its chain whose key equals the probe row's, or -1. */
    int next(int r, ColumnVector[] probeKeys, int row, long hash) {
        r = next[r];
        while (r >= 0 && !(hashes[r] == hash && JoinKeys.equal(keys, r, probeKeys, row))) {
            r = next[r];
        }
        return r;
    }

    void markMatched(int r) {
        int word = r >>> 6;
        long bit = 1L << r;
        long old = matched.get(word);
        while ((old & bit) == 0 && !matched.compareAndSet(word, old, old | bit)) {
            old = matched.get(word);
        }
    }

    boolean isMatched(int r) {
        return (matched.get(r >>> 6) & (1L << r)) != 0;
    }

    /** Gives the table's memory back to the query's budget. */
    public void release() {
        if (budget != null) {
            budget.release(bytes);
        }
    }
}
