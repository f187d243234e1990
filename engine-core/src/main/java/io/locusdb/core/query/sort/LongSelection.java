package io.locusdb.core.query.sort;

import java.util.Arrays;

/**
 * Order statistics and sorts of plain {@code long} arrays that need less than a full comparison sort: the k-th
 * smallest value by selection (linear on average), and an ordering by the upper 32 bits by radix passes (linear), for
 * keys that pack a non-negative row number above a payload. Both run on the caller's thread, where a query's serial
 * step cannot wait for a sort of everything.
 */
public final class LongSelection {
    private static final int RADIX_BITS = 11;
    private static final int RADIX = 1 << RADIX_BITS;

    private LongSelection() {
    }

    /** The {@code k}-th smallest (0-based) of {@code values[0..n-1]}, which it reorders. */
    public static long kthSmallest(long[] values, int n, int k) {
        if (k < 0 || k >= n || n > values.length) {
            throw new IllegalArgumentException("k " + k + " of " + n + " values (array of " + values.length + ")");
        }
        int lo = 0;
        int hi = n - 1;
        while (hi > lo) {
            long pivot = medianOfThree(values[lo], values[lo + (hi - lo) / 2], values[hi]);
            // Three-way partition: many equal keys (dates, small integers) end the search at once.
            int lt = lo;
            int gt = hi;
            int i = lo;
            while (i <= gt) {
                long v = values[i];
                if (v < pivot) {
                    swap(values, lt++, i++);
                } else if (v > pivot) {
                    swap(values, i, gt--);
                } else {
                    i++;
                }
            }
            if (k < lt) {
                hi = lt - 1;
            } else if (k > gt) {
                lo = gt + 1;
            } else {
                return pivot;
            }
        }
        return values[k];
    }

    /**
     * Sorts {@code keys} by their upper 32 bits, read as a non-negative int, keeping the order of equal ones (the
     * lower bits are not compared): radix passes of {@value #RADIX_BITS} bits, only as many as the largest key
     * needs.
     */
    public static void sortByUpperInt(long[] keys) {
        long max = 0;
        for (long k : keys) {
            if (k < 0) {
                throw new IllegalArgumentException("a negative upper half: " + Long.toHexString(k));
            }
            max = Math.max(max, k >>> 32);
        }
        long[] from = keys;
        long[] to = new long[keys.length];
        int[] counts = new int[RADIX];
        for (int shift = 32; shift < 64 && (max >>> (shift - 32)) != 0; shift += RADIX_BITS) {
            Arrays.fill(counts, 0);
            for (long k : from) {
                counts[(int) (k >>> shift) & (RADIX - 1)]++;
            }
            int sum = 0;
            for (int d = 0; d < RADIX; d++) {
                int c = counts[d];
                counts[d] = sum;
                sum += c;
            }
            for (long k : from) {
                to[counts[(int) (k >>> shift) & (RADIX - 1)]++] = k;
            }
            long[] swap = from;
            from = to;
            to = swap;
        }
        if (from != keys) {
            System.arraycopy(from, 0, keys, 0, keys.length);
        }
    }

    private static long medianOfThree(long a, long b, long c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }

    private static void swap(long[] values, int i, int j) {
        long t = values[i];
        values[i] = values[j];
        values[j] = t;
    }
}
