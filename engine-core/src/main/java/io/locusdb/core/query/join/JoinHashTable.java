package io.locusdb.core.query.join;

import io.locusdb.core.exec.MemoryBudget;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.type.TypeKind;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

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

    /** Runs the build of every hash partition of a table, possibly in parallel, and returns when all are done. */
    @FunctionalInterface
    public interface PartitionBuilds {
        void run(int partitions, IntConsumer build);

        /** One after the other, on the caller's thread. */
        PartitionBuilds SEQUENTIAL = (partitions, build) -> {
            for (int p = 0; p < partitions; p++) {
                build.accept(p);
            }
        };
    }

    private final ColumnVector[] buildColumns;
    /**
     * One LONG key (the common case: ids, dates): an index per hash partition of the keys (one when the table is
     * not partitioned), sharing one {@link #chain}; null for other keys, which use {@link #heads}.
     */
    private final LongKeyIndex[] indexes;
    private final int partitionShift;
    private final ColumnVector[] keys;
    /**
     * Per key column, its distinct non-NULL build values sorted, computed by the first part that asks for its ID
     * filter: every part's filter walks the same list. Shared with the copies of the table; guarded by itself.
     */
    private final long[][] sortedKeys;
    private final int rows;
    private final int[] heads;
    private final int[] next;
    private final long[] hashes;
    private final int mask;
    private final AtomicLongArray matched;
    private final long bytes;
    private final MemoryBudget budget;
    private boolean charged;

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
        this(buildColumns, rows, keyIndexes, trackMatches, budget, 1, p -> memory, PartitionBuilds.SEQUENTIAL);
    }

    /**
     * A table whose single-LONG-key index is split by hash into {@code partitions} (a power of two), partition
     * {@code p} in {@code memoryOf.apply(p)}, the partitions built by {@code builds} (e.g. one task each, on the
     * node whose memory holds it). Tables with other keys are built whole, on the caller's thread.
     */
    public static JoinHashTable partitioned(ColumnVector[] buildColumns, int rows, int[] keyIndexes,
                                            boolean trackMatches, MemoryBudget budget, int partitions,
                                            IntFunction<IndexMemory> memoryOf, PartitionBuilds builds) {
        if (Integer.bitCount(partitions) != 1) {
            throw new IllegalArgumentException("partitions must be a power of two, got " + partitions);
        }
        return new JoinHashTable(buildColumns, rows, keyIndexes, trackMatches, budget, partitions, memoryOf,
                builds);
    }

    private JoinHashTable(ColumnVector[] buildColumns, int rows, int[] keyIndexes, boolean trackMatches,
                          MemoryBudget budget, int partitions, IntFunction<IndexMemory> memoryOf,
                          PartitionBuilds builds) {
        this.buildColumns = buildColumns;
        this.rows = rows;
        this.keys = new ColumnVector[keyIndexes.length];
        for (int k = 0; k < keyIndexes.length; k++) {
            keys[k] = buildColumns[keyIndexes[k]];
        }
        this.sortedKeys = new long[keyIndexes.length][];
        this.budget = budget;
        this.matched = trackMatches ? new AtomicLongArray((rows + 63) >>> 6) : null;
        long matchBytes = trackMatches ? rows / 8 + 8 : 0;
        if (keys.length == 1 && keys[0].physical() == TypeKind.Physical.LONG) {
            int bits = Integer.numberOfTrailingZeros(partitions);
            this.partitionShift = 64 - bits;
            long[] values = keys[0].longs();
            boolean[] nulls = keys[0].nulls();
            int[] starts = new int[partitions + 1];
            long[] gathered = bits == 0 ? null : new long[rows];
            int[] order = bits == 0 ? null : partitionOrder(values, nulls, rows, bits, starts, gathered);
            if (bits == 0) {
                starts[1] = rows;
            }
            long total = LongKeyIndex.chainBytes(rows) + matchBytes;
            boolean filter = LongKeyIndex.Shape.needsFilter(starts[partitions]);
            for (int p = 0; p < partitions; p++) {
                total += LongKeyIndex.Shape.of(starts[p + 1] - starts[p], filter).bytes();
            }
            this.bytes = total;
            reserve();
            MemorySegment chain = allocate(memoryOf.apply(0), LongKeyIndex.chainBytes(rows));
            MemorySegment[] segments = partitionSegments(memoryOf, partitions, starts, filter);
            this.indexes = new LongKeyIndex[partitions];
            builds.run(partitions, p -> {
                MemorySegment segment = segments[p];
                indexes[p] = order == null
                        ? LongKeyIndex.build(values, nulls, null, starts[p], starts[p + 1], segment, chain, filter)
                        : LongKeyIndex.buildGathered(gathered, order, starts[p], starts[p + 1], segment, chain, filter);
            });
            this.heads = null;
            this.next = null;
            this.hashes = null;
            this.mask = 0;
            return;
        }
        this.indexes = null;
        this.partitionShift = 0;
        int capacity = Integer.highestOneBit(Math.max(16, rows * 2 - 1)) << 1;
        this.bytes = 4L * capacity + 12L * rows + matchBytes;
        reserve();
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

    /**
     * Memory for each partition's index: partitions in the same memory (the same {@link IndexMemory} object) share
     * one allocation, sliced, so that many small partitions still get the huge pages a large index gets.
     */
    private MemorySegment[] partitionSegments(IntFunction<IndexMemory> memoryOf, int partitions, int[] starts,
                                              boolean filter) {
        MemorySegment[] segments = new MemorySegment[partitions];
        Map<IndexMemory, List<Integer>> byMemory = new IdentityHashMap<>();
        for (int p = 0; p < partitions; p++) {
            byMemory.computeIfAbsent(memoryOf.apply(p), m -> new ArrayList<>()).add(p);
        }
        for (Map.Entry<IndexMemory, List<Integer>> e : byMemory.entrySet()) {
            long total = 0;
            for (int p : e.getValue()) {
                total += LongKeyIndex.Shape.of(starts[p + 1] - starts[p], filter).bytes();
            }
            MemorySegment shared = allocate(e.getKey(), total);
            long offset = 0;
            for (int p : e.getValue()) {
                long size = LongKeyIndex.Shape.of(starts[p + 1] - starts[p], filter).bytes();
                segments[p] = shared.asSlice(offset, size);
                offset += size;
            }
        }
        return segments;
    }

    /**
     * The non-NULL rows grouped by partition, ascending within each; {@code starts} gets each group's start and
     * {@code keys} each listed row's key at the same position (one pass that reads the rows in order).
     */
    private static int[] partitionOrder(long[] values, boolean[] nulls, int rows, int bits, int[] starts,
                                        long[] keys) {
        int partitions = 1 << bits;
        int[] counts = new int[partitions];
        for (int r = 0; r < rows; r++) {
            if (!nulls[r]) {
                counts[partitionOf(values[r], 64 - bits)]++;
            }
        }
        for (int p = 0; p < partitions; p++) {
            starts[p + 1] = starts[p] + counts[p];
        }
        int[] fill = Arrays.copyOf(starts, partitions);
        int[] order = new int[starts[partitions]];
        for (int r = 0; r < rows; r++) {
            if (!nulls[r]) {
                int at = fill[partitionOf(values[r], 64 - bits)]++;
                order[at] = r;
                keys[at] = values[r];
            }
        }
        return order;
    }

    /** The hash partition of a key: other bits than the slots' hash takes. */
    private static int partitionOf(long key, int shift) {
        return shift == 64 ? 0 : (int) (((key ^ 0x2545F4914F6CDD1DL) * 0xD6E8FEB86659FD93L) >>> shift);
    }

    private void reserve() {
        if (budget != null) {
            budget.reserve(bytes);
            charged = true;
        }
    }

    private MemorySegment allocate(IndexMemory memory, long size) {
        try {
            return memory.allocate(size);
        } catch (RuntimeException | Error e) {
            release();
            throw e;
        }
    }

    /** A copy of {@code original} whose index lives in {@code memory}; build rows and match marks are shared. */
    private JoinHashTable(JoinHashTable original, IndexMemory memory) {
        this.buildColumns = original.buildColumns;
        this.rows = original.rows;
        this.keys = original.keys;
        this.sortedKeys = original.sortedKeys;
        this.matched = original.matched;
        this.budget = original.budget;
        this.partitionShift = original.partitionShift;
        long total = LongKeyIndex.chainBytes(rows);
        for (LongKeyIndex index : original.indexes) {
            total += index.bytes();
        }
        this.bytes = total;
        reserve();
        MemorySegment chain = allocate(memory, LongKeyIndex.chainBytes(rows));
        MemorySegment.copy(original.indexes[0].chain(), 0, chain, 0, LongKeyIndex.chainBytes(rows));
        this.indexes = new LongKeyIndex[original.indexes.length];
        long indexBytes = 0;
        for (LongKeyIndex index : original.indexes) {
            indexBytes += index.bytes();
        }
        // One mapping for every partition's copy, as for the original (huge pages, one allocation).
        MemorySegment shared = allocate(memory, indexBytes);
        long offset = 0;
        for (int p = 0; p < indexes.length; p++) {
            long size = original.indexes[p].bytes();
            indexes[p] = original.indexes[p].copyInto(shared.asSlice(offset, size), chain);
            offset += size;
        }
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
        return indexes == null ? this : new JoinHashTable(this, memory);
    }

    /** Bytes of the table's own structures (the build rows not counted). */
    public long bytes() {
        return bytes;
    }

    /** Hash partitions of the index (1 when not partitioned, or for keys other than one LONG column). */
    public int partitions() {
        return indexes == null ? 1 : indexes.length;
    }

    /** Whether the table is keyed by one LONG column: probe with {@link #firstLong} and {@link #nextLong}. */
    boolean singleLong() {
        return indexes != null;
    }

    /** The first build row whose key is {@code key}, or -1. */
    int firstLong(long key) {
        return indexes[partitionOf(key, partitionShift)].first(key);
    }

    /** The build row after {@code r} with the same key, or -1. */
    int nextLong(int r) {
        return indexes[0].next(r);
    }

    public ColumnVector[] columns() {
        return buildColumns;
    }

    /** The number of key columns. */
    public int keyCount() {
        return keys.length;
    }

    /**
     * The IDs of {@code dictionary}'s values that key column {@code key} of some build row equals, as a bitmap (ID
     * i is bit {@code i & 63} of word {@code i >>> 6}): a probe row whose value of that key has another ID cannot
     * match. Null when the key is not a LONG column, or when the table has at least half as many rows as the
     * dictionary has values: then most IDs could be in it, and testing them would cost more than it saves.
     */
    public long[] allowedIds(int key, LongDictionary dictionary) {
        ColumnVector column = keys[key];
        int size = dictionary.size();
        if (column.physical() != TypeKind.Physical.LONG || rows >= size / 2L) {
            return null;
        }
        long[] allowed = new long[(size >>> 6) + 1];
        long[] values = column.longs();
        boolean[] nulls = column.nulls();
        int searchSteps = 33 - Integer.numberOfLeadingZeros(size);
        if ((long) rows * searchSteps < size) {
            // Few build rows: each key's ID by binary search in the sorted dictionary.
            for (int r = 0; r < rows; r++) {
                int id = nulls[r] ? -1 : dictionary.idOf(values[r]);
                if (id > 0) {
                    allowed[id >>> 6] |= 1L << id;
                }
            }
            return allowed;
        }
        // Otherwise the keys sorted, and one walk along both.
        long[] sorted = sortedDistinct(key);
        int n = sorted.length;
        int id = 1;
        for (int i = 0; i < n && id <= size; i++) {
            long v = sorted[i];
            while (id <= size && dictionary.value(id) < v) {
                id++;
            }
            if (id <= size && dictionary.value(id) == v) {
                allowed[id >>> 6] |= 1L << id;
            }
        }
        return allowed;
    }

    /**
     * The distinct non-null values of key column {@code key} over the build rows, ascending; null when the key is
     * not a LONG column. Computed once per key and kept.
     */
    public long[] distinctLongKeys(int key) {
        return keys[key].physical() == TypeKind.Physical.LONG ? sortedDistinct(key) : null;
    }

    private long[] sortedDistinct(int key) {
        synchronized (sortedKeys) {
            if (sortedKeys[key] == null) {
                long[] values = keys[key].longs();
                boolean[] nulls = keys[key].nulls();
                long[] sorted = new long[rows];
                int n = 0;
                for (int r = 0; r < rows; r++) {
                    if (!nulls[r]) {
                        sorted[n++] = values[r];
                    }
                }
                Arrays.sort(sorted, 0, n);
                int distinct = 0;
                for (int i = 0; i < n; i++) {
                    if (distinct == 0 || sorted[i] != sorted[distinct - 1]) {
                        sorted[distinct++] = sorted[i];
                    }
                }
                sortedKeys[key] = Arrays.copyOf(sorted, distinct);
            }
            return sortedKeys[key];
        }
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
    public synchronized void release() {
        if (charged) {
            charged = false;
            budget.release(bytes);
        }
    }
}
