package io.locusdb.core.query.join;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;

/**
 * The index of a hash table keyed by one LONG column, in one memory segment (off-heap memory bound to the node of
 * the tasks that read it, or a heap array): open addressing over the distinct keys, each slot holding its key and
 * its first build row inline, so that a probe that misses reads one cache line; a chain of the further rows of each
 * key; and, for an index larger than the caches, a blocked Bloom filter in front (one word per key, two bits, eight
 * bits a key), so that most probes that miss cost a cache hit instead of a memory access.
 *
 * <p>Layout, 8-byte aligned, all zero when empty (fresh mappings need no initialising pass): {@code filter} words,
 * then {@code capacity} slots of two longs (key, first row + 1; 0 = free), then one int per build row (next row of
 * the same key + 1; 0 = end).
 */
final class LongKeyIndex {
    /** Above this many bytes of slots the index gets a filter. */
    private static final long FILTER_ABOVE_BYTES = 1L << 20;

    private final MemorySegment segment;
    private final int capacity;
    private final int mask;
    private final int shift;
    private final int filterWords;
    private final int filterShift;
    private final long slotsOffset;
    private final long nextOffset;

    /** The shape of an index for {@code rows} build rows. */
    record Shape(int rows, int capacity, int filterWords) {
        static Shape of(int rows) {
            int capacity = Integer.highestOneBit(Math.max(16, rows * 2 - 1)) << 1;
            int filterWords = 16L * capacity > FILTER_ABOVE_BYTES
                    ? Integer.highestOneBit(Math.max(64, rows / 8 - 1)) << 1 : 0;
            return new Shape(rows, capacity, filterWords);
        }

        long bytes() {
            return 8L * filterWords + 16L * capacity + 4L * rows + 4;
        }
    }

    private LongKeyIndex(MemorySegment segment, Shape shape) {
        if (segment.byteSize() < shape.bytes()) {
            throw new IllegalArgumentException("segment of " + segment.byteSize() + " bytes for an index of "
                    + shape.bytes());
        }
        this.segment = segment;
        this.capacity = shape.capacity();
        this.mask = capacity - 1;
        this.shift = 64 - Integer.numberOfTrailingZeros(capacity);
        this.filterWords = shape.filterWords();
        this.filterShift = filterWords == 0 ? 0 : 64 - Integer.numberOfTrailingZeros(filterWords);
        this.slotsOffset = 8L * filterWords;
        this.nextOffset = slotsOffset + 16L * capacity;
    }

    /** Indexes the non-NULL keys of rows {@code 0..rows-1} into {@code segment} (all zero, {@link Shape#bytes}). */
    static LongKeyIndex build(long[] values, boolean[] nulls, int rows, MemorySegment segment) {
        LongKeyIndex index = new LongKeyIndex(segment, Shape.of(rows));
        // From the last row down, so that each key's chain lists its rows in build order.
        for (int r = rows - 1; r >= 0; r--) {
            if (!nulls[r]) {
                index.insert(values[r], r);
            }
        }
        return index;
    }

    private void insert(long key, int row) {
        int slot = slotOf(key);
        long at = slotsOffset + 16L * slot;
        long first;
        while ((first = segment.get(JAVA_LONG_UNALIGNED, at + 8)) != 0 && segment.get(JAVA_LONG_UNALIGNED, at) != key) {
            slot = (slot + 1) & mask;
            at = slotsOffset + 16L * slot;
        }
        segment.set(JAVA_INT_UNALIGNED, nextOffset + 4L * row, (int) first);
        segment.set(JAVA_LONG_UNALIGNED, at, key);
        segment.set(JAVA_LONG_UNALIGNED, at + 8, row + 1L);
        if (filterWords > 0) {
            long h = filterHash(key);
            long word = 8L * (h >>> filterShift);
            segment.set(JAVA_LONG_UNALIGNED, word, segment.get(JAVA_LONG_UNALIGNED, word) | filterBits(h));
        }
    }

    /** The same index in {@code target} (e.g. memory of another node), for tasks there to read locally. */
    LongKeyIndex copyInto(MemorySegment target, int rows) {
        Shape shape = Shape.of(rows);
        MemorySegment.copy(segment, 0, target, 0, shape.bytes());
        return new LongKeyIndex(target, shape);
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
        return segment.get(JAVA_INT_UNALIGNED, nextOffset + 4L * row) - 1;
    }

    MemorySegment segment() {
        return segment;
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
