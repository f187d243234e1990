package io.locusdb.core.query.join;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;

/**
 * The index of a hash table keyed by one LONG column (or of one hash partition of it), in memory segments (off-heap
 * memory bound to the node of the tasks that read it, or heap arrays): open addressing over the distinct keys, each
 * slot holding its key and its first build row inline, so that a probe that misses reads one cache line, and, for an
 * index larger than the caches, a blocked Bloom filter in front (one word per key, two bits, eight bits a key), so
 * that most probes that miss cost a cache hit instead of a memory access. The further rows of each key are chained
 * in a separate segment of one int per build row of the whole table, which the partitions of a table share (each
 * writes the entries of its own rows).
 *
 * <p>Layout, 8-byte aligned, all zero when empty (fresh mappings need no initialising pass): {@code filter} words,
 * then {@code capacity} slots of two longs (key, first row + 1; 0 = free). Chain: next row of the same key + 1
 * (0 = end).
 */
final class LongKeyIndex {
    /** Above this many bytes of slots the index gets a filter. */
    private static final long FILTER_ABOVE_BYTES = 1L << 20;

    private final MemorySegment segment;
    private final MemorySegment chain;
    private final int mask;
    private final int shift;
    private final int filterWords;
    private final int filterShift;
    private final long slotsOffset;

    /** The shape of an index of {@code keys} build rows. */
    record Shape(int keys, int capacity, int filterWords) {
        static Shape of(int keys) {
            return of(keys, needsFilter(keys));
        }

        /**
         * The shape of one hash partition of {@code keys} keys; {@code filter}: whether it gets a filter, which
         * the whole table's size decides (a partition is small, but a probe reaches a random one of them).
         */
        static Shape of(int keys, boolean filter) {
            int capacity = capacity(keys);
            int filterWords = filter ? Integer.highestOneBit(Math.max(64, keys / 8 - 1)) << 1 : 0;
            return new Shape(keys, capacity, filterWords);
        }

        /** Whether an index of {@code keys} keys is too large for the caches without a filter in front. */
        static boolean needsFilter(int keys) {
            return 16L * capacity(keys) > FILTER_ABOVE_BYTES;
        }

        private static int capacity(int keys) {
            return Integer.highestOneBit(Math.max(16, keys * 2 - 1)) << 1;
        }

        long bytes() {
            return 8L * filterWords + 16L * capacity;
        }
    }

    /** Bytes of the chain of a table of {@code rows} build rows. */
    static long chainBytes(int rows) {
        return 4L * rows + 4;
    }

    private LongKeyIndex(MemorySegment segment, MemorySegment chain, Shape shape) {
        if (segment.byteSize() < shape.bytes()) {
            throw new IllegalArgumentException("segment of " + segment.byteSize() + " bytes for an index of "
                    + shape.bytes());
        }
        this.segment = segment;
        this.chain = chain;
        int capacity = shape.capacity();
        this.mask = capacity - 1;
        this.shift = 64 - Integer.numberOfTrailingZeros(capacity);
        this.filterWords = shape.filterWords();
        this.filterShift = filterWords == 0 ? 0 : 64 - Integer.numberOfTrailingZeros(filterWords);
        this.slotsOffset = 8L * filterWords;
    }

    /**
     * Indexes the build rows {@code rows[from..to)} (ascending; all when {@code rows} is null, then
     * {@code from..to} are the rows themselves), skipping NULL keys, into {@code segment} (zeroed,
     * {@link Shape#bytes} of {@code to - from} keys) and {@code chain} (zeroed, shared by the table's partitions).
     */
    static LongKeyIndex build(long[] values, boolean[] nulls, int[] rows, int from, int to, MemorySegment segment,
                              MemorySegment chain) {
        return build(values, nulls, rows, from, to, segment, chain, Shape.needsFilter(to - from));
    }

    /** As above, with a filter or not as the whole table's size decides ({@link Shape#of(int, boolean)}). */
    static LongKeyIndex build(long[] values, boolean[] nulls, int[] rows, int from, int to, MemorySegment segment,
                              MemorySegment chain, boolean filter) {
        LongKeyIndex index = new LongKeyIndex(segment, chain, Shape.of(to - from, filter));
        // From the last row down, so that each key's chain lists its rows in build order.
        for (int i = to - 1; i >= from; i--) {
            int r = rows == null ? i : rows[i];
            if (!nulls[r]) {
                index.insert(values[r], r);
            }
        }
        return index;
    }

    /**
     * Indexes build rows {@code rows[from..to)} (ascending, none NULL) whose keys are {@code keys[from..to)}: a
     * hash partition's rows gathered with their keys, so that its build reads both in order.
     */
    static LongKeyIndex buildGathered(long[] keys, int[] rows, int from, int to, MemorySegment segment,
                                      MemorySegment chain, boolean filter) {
        LongKeyIndex index = new LongKeyIndex(segment, chain, Shape.of(to - from, filter));
        for (int i = to - 1; i >= from; i--) {
            index.insert(keys[i], rows[i]);
        }
        return index;
    }

    private void insert(long key, int row) {
        int slot = slotOf(key);
        long at = slotsOffset + 16L * slot;
        long first;
        while ((first = segment.get(JAVA_LONG_UNALIGNED, at + 8)) != 0
                && segment.get(JAVA_LONG_UNALIGNED, at) != key) {
            slot = (slot + 1) & mask;
            at = slotsOffset + 16L * slot;
        }
        chain.set(JAVA_INT_UNALIGNED, 4L * row, (int) first);
        segment.set(JAVA_LONG_UNALIGNED, at, key);
        segment.set(JAVA_LONG_UNALIGNED, at + 8, row + 1L);
        if (filterWords > 0) {
            long h = filterHash(key);
            long word = 8L * (h >>> filterShift);
            segment.set(JAVA_LONG_UNALIGNED, word, segment.get(JAVA_LONG_UNALIGNED, word) | filterBits(h));
        }
    }

    /** The same index in {@code target} (e.g. memory of another node), chained through {@code targetChain}. */
    LongKeyIndex copyInto(MemorySegment target, MemorySegment targetChain) {
        MemorySegment.copy(segment, 0, target, 0, bytes());
        return new LongKeyIndex(target, targetChain, new Shape(0, mask + 1, filterWords));
    }

    /** Bytes of the index's own segment (filter and slots). */
    long bytes() {
        return 8L * filterWords + 16L * (mask + 1L);
    }

    MemorySegment chain() {
        return chain;
    }

    /** The first build row with key {@code key}, or -1. */
    int first(long key) {
        if (filterWords > 0) {
            long h = filterHash(key);
            long bits = filterBits(h);
            if ((segment.get(JAVA_LONG_UNALIGNED, 8L * (h >>> filterShift)) & bits) != bits) {
                return -1;
            }
        }
        int slot = slotOf(key);
        while (true) {
            long at = slotsOffset + 16L * slot;
            long row = segment.get(JAVA_LONG_UNALIGNED, at + 8);
            if (row == 0) {
                return -1;
            }
            if (segment.get(JAVA_LONG_UNALIGNED, at) == key) {
                return (int) row - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** The build row after {@code row} with the same key, or -1. */
    int next(int row) {
        return chain.get(JAVA_INT_UNALIGNED, 4L * row) - 1;
    }

    private int slotOf(long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
    }

    private static long filterHash(long key) {
        return (key ^ 0x5851F42D4C957F2DL) * 0xC2B2AE3D27D4EB4FL;
    }

    private static long filterBits(long h) {
        return (1L << h) | (1L << (h >>> 6));
    }
}
