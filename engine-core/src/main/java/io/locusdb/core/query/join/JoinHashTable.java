package io.locusdb.core.query.join;

import io.locusdb.core.exec.MemoryBudget;
import io.locusdb.core.query.ColumnVector;
import io.locusdb.core.storage.type.TypeKind;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The build side of a hash join: the build rows (held by the caller as column vectors), chained by hash of their
 * key columns. Built once, then read by any number of probing tasks at the same time; which build rows found a
 * match is recorded for outer joins that keep unmatched build rows. Its arrays are charged to the query's memory
 * budget, so a build side too large for it fails the query with 53200 instead of the server.
 */
public final class JoinHashTable {
    /** Where the index of a single-LONG-key table lives: zeroed memory of at least the bytes asked for. */
    @FunctionalInterface
    public interface IndexMemory {
        MemorySegment allocate(long bytes);

        /** On the heap of the JVM (tests, and tables nobody reads from another node). */
        IndexMemory HEAP = bytes -> MemorySegment.ofArray(new long[(int) ((bytes + 7) / 8)]);
    }

    private final ColumnVector[] buildColumns;
    /** One LONG key (the common case: ids, dates); null for other keys, which use {@link #heads}. */
    private final LongKeyIndex index;
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
        this(buildColumns, rows, keyIndexes, trackMatches, budget, IndexMemory.HEAP);
    }

    /** As above, the index of a single-LONG-key table in {@code memory}. */
    public JoinHashTable(ColumnVector[] buildColumns, int rows, int[] keyIndexes, boolean trackMatches,
                         MemoryBudget budget, IndexMemory memory) {
        this.buildColumns = buildColumns;
        this.rows = rows;
        this.keys = new ColumnVector[keyIndexes.length];
        for (int k = 0; k < keyIndexes.length; k++) {
            keys[k] = buildColumns[keyIndexes[k]];
        }
        boolean singleLong = keys.length == 1 && keys[0].physical() == TypeKind.Physical.LONG;
        int capacity = Integer.highestOneBit(Math.max(16, rows * 2 - 1)) << 1;
        this.bytes = (singleLong ? LongKeyIndex.Shape.of(rows).bytes() : 4L * capacity + 12L * rows)
                + (trackMatches ? rows / 8 + 8 : 0);
        this.budget = budget;
        if (budget != null) {
            budget.reserve(bytes);
        }
        this.matched = trackMatches ? new AtomicLongArray((rows + 63) >>> 6) : null;
        if (singleLong) {
            this.index = LongKeyIndex.build(keys[0].longs(), keys[0].nulls(), rows,
                    allocate(memory, LongKeyIndex.Shape.of(rows).bytes()));
            this.heads = null;
            this.next = null;
            this.hashes = null;
            this.mask = 0;
            return;
        }
        this.index = null;
        this.mask = capacity - 1;
        this.next = new int[rows];
        this.heads = new int[capacity];
        Arrays.fill(heads, -1);
        this.hashes = new long[rows];
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

    private MemorySegment allocate(IndexMemory memory, long size) {
        try {
            return memory.allocate(size);
        } catch (RuntimeException | Error e) {
            if (budget != null) {
                budget.release(bytes);
            }
            throw e;
        }
    }

    /** A copy of {@code original} whose index lives in {@code memory}; build rows and match marks are shared. */
    private JoinHashTable(JoinHashTable original, IndexMemory memory) {
        this.buildColumns = original.buildColumns;
        this.rows = original.rows;
        this.keys = original.keys;
        this.matched = original.matched;
        this.budget = original.budget;
        this.bytes = LongKeyIndex.Shape.of(rows).bytes();
        if (budget != null) {
            budget.reserve(bytes);
        }
        this.index = original.index.copyInto(allocate(memory, bytes), rows);
        this.heads = null;
        this.next = null;
        this.hashes = null;
        this.mask = 0;
    }

    /**
     * A copy whose index lives in {@code memory} (e.g. another node's), for the tasks there to read locally; the
     * build rows stay shared, and so do the marks of matched rows. Only single-LONG-key tables have an index to
     * copy; any other table answers itself.
     */
    public JoinHashTable copyInto(IndexMemory memory) {
        return index == null ? this : new JoinHashTable(this, memory);
    }

    /** Bytes of the table's own structures (the build rows not counted). */
    public long bytes() {
        return bytes;
    }

    /** Whether the table is keyed by one LONG column: probe with {@link #firstLong} and {@link #nextLong}. */
    boolean singleLong() {
        return index != null;
    }

    /** The first build row whose key is {@code key}, or -1. */
    int firstLong(long key) {
        return index.first(key);
    }

    /** The build row after {@code r} with the same key, or -1. */
    int nextLong(int r) {
        return index.next(r);
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
