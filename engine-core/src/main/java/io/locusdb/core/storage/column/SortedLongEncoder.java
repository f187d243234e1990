package io.locusdb.core.storage.column;

/**
 * Turns a sequence of long keys into a sorted distinct dictionary plus a 1-based ID per key. Dense key ranges (dates,
 * quantities, flags, surrogate keys) use a direct lookup table: O(n + range), no sort. Sparse ones sort and
 * binary-search.
 */
final class SortedLongEncoder {
    private static final long DIRECT_MIN_RANGE = 1L << 16;
    private static final long DIRECT_MAX_RANGE = 1L << 26;

    final long[] dictionary;
    final int size;
    final int[] ids;

    private SortedLongEncoder(long[] dictionary, int size, int[] ids) {
        this.dictionary = dictionary;
        this.size = size;
        this.ids = ids;
    }

    static SortedLongEncoder encode(long[] keys) {
        int n = keys.length;
        if (n == 0) {
            return new SortedLongEncoder(new long[0], 0, new int[0]);
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long k : keys) {
            min = Math.min(min, k);
            max = Math.max(max, k);
        }
        if (isDense(min, max, n)) {
            return encodeDense(keys, min, (int) (max - min + 1));
        }
        return encodeSorted(keys);
    }

    /** Whether {@code n} keys in {@code [min, max]} take the direct lookup table rather than a sort. */
    static boolean isDense(long min, long max, long n) {
        long range = max - min + 1; // may overflow to ≤ 0 for huge spans: then not dense
        return range > 0 && range <= DIRECT_MAX_RANGE && range <= Math.max(DIRECT_MIN_RANGE, 4L * n);
    }

    private static SortedLongEncoder encodeDense(long[] keys, long min, int range) {
        int[] idByOffset = new int[range];
        for (long k : keys) {
            idByOffset[(int) (k - min)] = 1;
        }
        int size = 0;
        for (int i = 0; i < range; i++) {
            if (idByOffset[i] != 0) {
                idByOffset[i] = ++size;
            }
        }
        long[] dictionary = new long[size];
        for (int i = 0; i < range; i++) {
            if (idByOffset[i] != 0) {
                dictionary[idByOffset[i] - 1] = min + i;
            }
        }
        int[] ids = new int[keys.length];
        for (int r = 0; r < keys.length; r++) {
            ids[r] = idByOffset[(int) (keys[r] - min)];
        }
        return new SortedLongEncoder(dictionary, size, ids);
    }

    private static SortedLongEncoder encodeSorted(long[] keys) {
        int n = keys.length;
        long[] sorted = new long[n];
        int[] rows = new int[n];
        for (int i = 0; i < n; i++) {
            sorted[i] = keys[i] ^ Long.MIN_VALUE; // signed order as unsigned order
            rows[i] = i;
        }
        RadixSort.sort(sorted, rows, 0, n, new long[n], new int[n]);
        int[] ids = new int[n];
        int size = 0;
        for (int k = 0; k < n; k++) {
            if (k == 0 || sorted[k] != sorted[k - 1]) {
                sorted[size++] = sorted[k];
            }
            ids[rows[k]] = size;
        }
        long[] dictionary = new long[size];
        for (int i = 0; i < size; i++) {
            dictionary[i] = sorted[i] ^ Long.MIN_VALUE;
        }
        return new SortedLongEncoder(dictionary, size, ids);
    }
}
