package io.locusdb.core.storage.column;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The distinct values of a string column while it is encoded: an open-addressing map from staged UTF-8 byte
 * strings to dense entry IDs (1-based, insertion order), and the sort of those entries in unsigned byte order —
 * an MSD radix sort over 8-byte big-endian words, falling back to direct comparison for small runs.
 */
final class StagedStrings {
    private static final ValueLayout.OfLong BIG_ENDIAN_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final int SMALL_RUN = 32;
    /** Below this many distinct values one thread sorts faster than a split and a hand-off. */
    private static final int PARALLEL_SORT_MIN = 1 << 16;
    /** Past this many shared bytes, compare directly: bounds the recursion for long common prefixes. */
    private static final int MAX_RADIX_DEPTH = 256;

    private final StagingBytes[] sources;
    private int[] slots;
    private int[] slotHashes;
    private int[] entrySource = new int[1024];
    private long[] entryReference = new long[1024];
    /** For values of at most 8 bytes: the bytes as a little-endian long, so equality is one compare. */
    private long[] entryShortKey = new long[1024];
    private int size;
    private long totalBytes;

    StagedStrings(int pieces, int expected) {
        this.sources = new StagingBytes[pieces];
        int capacity = Integer.highestOneBit(Math.max(16, expected) * 2 - 1) << 1;
        slots = new int[capacity];
        slotHashes = new int[capacity];
    }

    int size() {
        return size;
    }

    long totalBytes() {
        return totalBytes;
    }

    /** The bytes of an entry as a slice (allocates a view: for copying out, not for hot loops). */
    MemorySegment bytes(int entry) {
        return sources[entrySource[entry]].slice(entryReference[entry]);
    }

    /** Copies an entry's bytes to {@code target} at {@code at}; returns the length. */
    int copyTo(int entry, MemorySegment target, long at) {
        int n = length(entry);
        MemorySegment.copy(chunk(entry), offset(entry), target, at, n);
        return n;
    }

    // Hot loops address entries as (chunk, offset, length) to avoid a slice object per access.
    private MemorySegment chunk(int entry) {
        return sources[entrySource[entry]].chunkOf(entryReference[entry]);
    }

    private long offset(int entry) {
        return StagingBytes.offset(entryReference[entry]);
    }

    private int length(int entry) {
        return StagingBytes.length(entryReference[entry]);
    }

    /** The entry ID (1-based) of the staged string {@code reference} of piece {@code piece}. */
    int idOf(int piece, StagingBytes source, long reference) {
        sources[piece] = source;
        MemorySegment chunk = source.chunkOf(reference);
        long offset = StagingBytes.offset(reference);
        int length = StagingBytes.length(reference);
        int mask = slots.length - 1;
        if (length <= Long.BYTES) {
            // Short values (flags, modes, codes): compare as one long instead of a bulk mismatch.
            long key = shortKey(chunk, offset, length);
            long mixed = (key ^ length) * 0x9E3779B97F4A7C15L;
            int h = (int) (mixed ^ (mixed >>> 32));
            int i = (h * 0x9E3779B1) & mask;
            while (true) {
                int id = slots[i];
                if (id == 0) {
                    int newId = insert(piece, reference, length, h, i);
                    entryShortKey[newId - 1] = key;
                    return newId;
                }
                if (slotHashes[i] == h && entryShortKey[id - 1] == key && length(id - 1) == length) {
                    return id;
                }
                i = (i + 1) & mask;
            }
        }
        int h = hash(chunk, offset, length);
        int i = (h * 0x9E3779B1) & mask;
        while (true) {
            int id = slots[i];
            if (id == 0) {
                return insert(piece, reference, length, h, i);
            }
            if (slotHashes[i] == h && length(id - 1) == length && MemorySegment.mismatch(chunk, offset,
                    offset + length, chunk(id - 1), offset(id - 1), offset(id - 1) + length) < 0) {
                return id;
            }
            i = (i + 1) & mask;
        }
    }

    private int insert(int piece, long reference, long length, int hash, int slot) {
        if (size == entrySource.length) {
            entrySource = Arrays.copyOf(entrySource, size * 2);
            entryReference = Arrays.copyOf(entryReference, size * 2);
            entryShortKey = Arrays.copyOf(entryShortKey, size * 2);
        }
        entrySource[size] = piece;
        entryReference[size] = reference;
        int id = ++size;
        totalBytes += length;
        slots[slot] = id;
        slotHashes[slot] = hash;
        if (size * 2 > slots.length) {
            grow();
        }
        return id;
    }

    private void grow() {
        int[] oldSlots = slots;
        int[] oldHashes = slotHashes;
        slots = new int[oldSlots.length * 2];
        slotHashes = new int[oldSlots.length * 2];
        int mask = slots.length - 1;
        for (int j = 0; j < oldSlots.length; j++) {
            if (oldSlots[j] != 0) {
                int i = (oldHashes[j] * 0x9E3779B1) & mask;
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = oldSlots[j];
                slotHashes[i] = oldHashes[j];
            }
        }
    }

    private static long shortKey(MemorySegment chunk, long offset, int length) {
        if (length == 0) {
            return 0;
        }
        if (offset + Long.BYTES <= chunk.byteSize()) {
            long word = chunk.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
            return length == Long.BYTES ? word : word & ((1L << (8 * length)) - 1);
        }
        long key = 0;
        for (int b = length - 1; b >= 0; b--) {
            key = (key << 8) | (chunk.get(ValueLayout.JAVA_BYTE, offset + b) & 0xFF);
        }
        return key;
    }

    private static int hash(MemorySegment chunk, long offset, int n) {
        long h = 0x9E3779B97F4A7C15L ^ n;
        long i = 0;
        for (; i + 8 <= n; i += 8) {
            h = Long.rotateLeft(h ^ chunk.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + i) * 0xC2B2AE3D27D4EB4FL, 31)
                    * 0x9E3779B97F4A7C15L;
        }
        long tail = 0;
        for (; i < n; i++) {
            tail = (tail << 8) | (chunk.get(ValueLayout.JAVA_BYTE, offset + i) & 0xFF);
        }
        h ^= tail * 0x165667B19E3779F9L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) (h ^ (h >>> 32));
    }

    /**
     * Entry indices (0-based) in ascending unsigned byte order of their values. Large sets are first split by their
     * first byte (the empty string before all), and the buckets are sorted in parallel (common pool plus the
     * calling thread): they occupy disjoint ranges of the same arrays, so the workers share them without
     * coordination.
     */
    int[] sortedOrder() {
        long[] keys = new long[size];
        long[] keyScratch = new long[size];
        int[] orderScratch = new int[size];
        if (size < PARALLEL_SORT_MIN || Runtime.getRuntime().availableProcessors() < 2) {
            int[] order = new int[size];
            for (int i = 0; i < size; i++) {
                order[i] = i;
            }
            sortRange(order, 0, size, 0, keys, keyScratch, orderScratch);
            return order;
        }
        int[] bucketStart = new int[258];
        for (int i = 0; i < size; i++) {
            bucketStart[firstByteBucket(i) + 1]++;
        }
        for (int b = 1; b < bucketStart.length; b++) {
            bucketStart[b] += bucketStart[b - 1];
        }
        int[] order = new int[size];
        int[] next = java.util.Arrays.copyOf(bucketStart, 257);
        for (int i = 0; i < size; i++) {
            order[next[firstByteBucket(i)]++] = i;
        }
        java.util.List<int[]> buckets = new java.util.ArrayList<>();
        for (int b = 0; b < 257; b++) {
            if (bucketStart[b + 1] - bucketStart[b] > 1) {
                buckets.add(new int[] {bucketStart[b], bucketStart[b + 1]});
            }
        }
        // Biggest first, so two workers end close together even with skewed first letters.
        buckets.sort((x, y) -> Integer.compare(y[1] - y[0], x[1] - x[0]));
        buckets.parallelStream().forEach(r -> sortRange(order, r[0], r[1], 0, keys, keyScratch, orderScratch));
        return order;
    }

    /** 0 for the empty string, else 1 + the first byte (unsigned): the order of the first byte. */
    private int firstByteBucket(int entry) {
        return length(entry) == 0 ? 0 : 1 + (chunk(entry).get(ValueLayout.JAVA_BYTE, offset(entry)) & 0xFF);
    }

    private void sortRange(int[] order, int from, int to, int depth, long[] keys, long[] keyScratch,
                           int[] orderScratch) {
        if (to - from < 2) {
            return;
        }
        if (to - from <= SMALL_RUN || depth >= MAX_RADIX_DEPTH) {
            insertionSortOrSort(order, from, to, depth);
            return;
        }
        for (int k = from; k < to; k++) {
            keys[k] = word(order[k], depth);
        }
        RadixSort.sort(keys, order, from, to, keyScratch, orderScratch);
        int runStart = from;
        for (int k = from + 1; k <= to; k++) {
            if (k == to || keys[k] != keys[runStart]) {
                if (k - runStart > 1) {
                    if (anyLongerThan(order, runStart, k, depth + 8)) {
                        sortRange(order, runStart, k, depth + 8, keys, keyScratch, orderScratch);
                    } else {
                        insertionSortOrSort(order, runStart, k, depth);
                    }
                }
                runStart = k;
            }
        }
    }

    private boolean anyLongerThan(int[] order, int from, int to, int length) {
        for (int k = from; k < to; k++) {
            if (length(order[k]) > length) {
                return true;
            }
        }
        return false;
    }

    /** Eight bytes of an entry from {@code depth}, big-endian, zero-padded past its end. */
    private long word(int entry, int depth) {
        MemorySegment chunk = chunk(entry);
        long offset = offset(entry);
        int n = length(entry);
        if (depth + 8 <= n) {
            return chunk.get(BIG_ENDIAN_LONG, offset + depth);
        }
        long w = 0;
        for (int b = 0; b < 8; b++) {
            int index = depth + b;
            w = (w << 8) | (index < n ? chunk.get(ValueLayout.JAVA_BYTE, offset + index) & 0xFF : 0);
        }
        return w;
    }

    private void insertionSortOrSort(int[] order, int from, int to, int depth) {
        if (to - from <= SMALL_RUN) {
            insertionSort(order, from, to, depth);
        } else {
            Integer[] run = new Integer[to - from];
            for (int k = from; k < to; k++) {
                run[k - from] = order[k];
            }
            Arrays.sort(run, (a, b) -> compare(a, b, depth));
            for (int k = from; k < to; k++) {
                order[k] = run[k - from];
            }
        }
    }

    private void insertionSort(int[] order, int from, int to, int depth) {
        for (int i = from + 1; i < to; i++) {
            int entry = order[i];
            int j = i - 1;
            while (j >= from && compare(order[j], entry, depth) > 0) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = entry;
        }
    }

    /** Unsigned byte comparison of two entries that agree on their first {@code depth} bytes. */
    private int compare(int a, int b, int depth) {
        MemorySegment x = chunk(a);
        MemorySegment y = chunk(b);
        long xo = offset(a);
        long yo = offset(b);
        int xn = length(a);
        int yn = length(b);
        long xs = xo + Math.min(depth, xn);
        long ys = yo + Math.min(depth, yn);
        long mismatch = MemorySegment.mismatch(x, xs, xo + xn, y, ys, yo + yn);
        if (mismatch < 0) {
            return 0;
        }
        long xi = xs + mismatch;
        long yi = ys + mismatch;
        if (xi == xo + xn) {
            return -1;
        }
        if (yi == yo + yn) {
            return 1;
        }
        return Integer.compare(x.get(ValueLayout.JAVA_BYTE, xi) & 0xFF, y.get(ValueLayout.JAVA_BYTE, yi) & 0xFF);
    }
}
