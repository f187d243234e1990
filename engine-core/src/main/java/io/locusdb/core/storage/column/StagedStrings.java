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
    /** Past this many shared bytes, compare directly: bounds the recursion for long common prefixes. */
    private static final int MAX_RADIX_DEPTH = 256;

    private final StagingBytes[] sources;
    private int[] slots;
    private int[] slotHashes;
    private int[] entrySource = new int[1024];
    private long[] entryReference = new long[1024];
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

    MemorySegment bytes(int entry) {
        return sources[entrySource[entry]].slice(entryReference[entry]);
    }

    /** The entry ID (1-based) of the staged string {@code reference} of piece {@code piece}. */
    int idOf(int piece, StagingBytes source, long reference) {
        sources[piece] = source;
        MemorySegment value = source.slice(reference);
        int h = hash(value);
        int mask = slots.length - 1;
        int i = (h * 0x9E3779B1) & mask;
        while (true) {
            int id = slots[i];
            if (id == 0) {
                return insert(piece, reference, value.byteSize(), h, i);
            }
            if (slotHashes[i] == h && value.mismatch(bytes(id - 1)) < 0) {
                return id;
            }
            i = (i + 1) & mask;
        }
    }

    private int insert(int piece, long reference, long length, int hash, int slot) {
        if (size == entrySource.length) {
            entrySource = Arrays.copyOf(entrySource, size * 2);
            entryReference = Arrays.copyOf(entryReference, size * 2);
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

    private static int hash(MemorySegment value) {
        long n = value.byteSize();
        long h = 0x9E3779B97F4A7C15L ^ n;
        long i = 0;
        for (; i + 8 <= n; i += 8) {
            h = Long.rotateLeft(h ^ value.get(ValueLayout.JAVA_LONG_UNALIGNED, i) * 0xC2B2AE3D27D4EB4FL, 31)
                    * 0x9E3779B97F4A7C15L;
        }
        long tail = 0;
        for (; i < n; i++) {
            tail = (tail << 8) | (value.get(ValueLayout.JAVA_BYTE, i) & 0xFF);
        }
        h ^= tail * 0x165667B19E3779F9L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) (h ^ (h >>> 32));
    }

    /** Entry indices (0-based) in ascending unsigned byte order of their values. */
    int[] sortedOrder() {
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        long[] keys = new long[size];
        long[] keyScratch = new long[size];
        int[] orderScratch = new int[size];
        sortRange(order, 0, size, 0, keys, keyScratch, orderScratch);
        return order;
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
        radixSort(keys, order, from, to, keyScratch, orderScratch);
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
            if (bytes(order[k]).byteSize() > length) {
                return true;
            }
        }
        return false;
    }

    /** Eight bytes of an entry from {@code depth}, big-endian, zero-padded past its end. */
    private long word(int entry, int depth) {
        MemorySegment value = bytes(entry);
        long n = value.byteSize();
        if (depth + 8 <= n) {
            return value.get(BIG_ENDIAN_LONG, depth);
        }
        long w = 0;
        for (int b = 0; b < 8; b++) {
            long index = depth + b;
            w = (w << 8) | (index < n ? value.get(ValueLayout.JAVA_BYTE, index) & 0xFF : 0);
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
        MemorySegment x = bytes(a);
        MemorySegment y = bytes(b);
        long xs = Math.min(depth, x.byteSize());
        long ys = Math.min(depth, y.byteSize());
        long mismatch = MemorySegment.mismatch(x, xs, x.byteSize(), y, ys, y.byteSize());
        if (mismatch < 0) {
            return 0;
        }
        long xi = xs + mismatch;
        long yi = ys + mismatch;
        if (xi == x.byteSize()) {
            return -1;
        }
        if (yi == y.byteSize()) {
            return 1;
        }
        return Integer.compare(x.get(ValueLayout.JAVA_BYTE, xi) & 0xFF, y.get(ValueLayout.JAVA_BYTE, yi) & 0xFF);
    }

    /** LSD radix sort of unsigned keys[from, to) carrying order along; skips bytes all keys share. */
    private static void radixSort(long[] keys, int[] order, int from, int to, long[] keyScratch,
                                  int[] orderScratch) {
        int n = to - from;
        int[] counts = new int[257];
        for (int shift = 0; shift < 64; shift += 8) {
            Arrays.fill(counts, 0);
            for (int k = from; k < to; k++) {
                counts[(int) ((keys[k] >>> shift) & 0xFF) + 1]++;
            }
            boolean trivial = false;
            for (int b = 1; b <= 256; b++) {
                if (counts[b] == n) {
                    trivial = true;
                    break;
                }
            }
            if (trivial) {
                continue;
            }
            for (int b = 1; b <= 256; b++) {
                counts[b] += counts[b - 1];
            }
            for (int k = from; k < to; k++) {
                int target = from + counts[(int) ((keys[k] >>> shift) & 0xFF)]++;
                keyScratch[target] = keys[k];
                orderScratch[target] = order[k];
            }
            System.arraycopy(keyScratch, from, keys, from, n);
            System.arraycopy(orderScratch, from, order, from, n);
        }
    }
}
