package io.locusdb.core.storage.column;

/** LSD radix sort of unsigned 64-bit keys carrying an int payload; skips the bytes all keys share. */
final class RadixSort {
    /**
     * Up to this many keys, insertion sort: a radix pass costs its 256-entry histogram and prefix sum whatever the
     * run's size, and string sorts make tens of thousands of calls on runs of 33 to 64 keys.
     */
    static final int INSERTION_MAX = 64;

    private RadixSort() {
    }

    private static void insertionSort(long[] keys, int[] payload, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            long key = keys[i];
            int value = payload[i];
            int j = i - 1;
            while (j >= from && Long.compareUnsigned(keys[j], key) > 0) {
                keys[j + 1] = keys[j];
                payload[j + 1] = payload[j];
                j--;
            }
            keys[j + 1] = key;
            payload[j + 1] = value;
        }
    }

    /** Sorts {@code keys[from, to)} ascending (unsigned), moving {@code payload} along; scratch arrays ≥ to. */
    static void sort(long[] keys, int[] payload, int from, int to, long[] keyScratch, int[] payloadScratch) {
        int n = to - from;
        if (n <= INSERTION_MAX) {
            insertionSort(keys, payload, from, to);
            return;
        }
        // All eight histograms in one pass over the keys; a byte whose histogram has a single bucket is skipped.
        int[] counts = new int[8 * 256];
        for (int k = from; k < to; k++) {
            long key = keys[k];
            for (int b = 0; b < 8; b++) {
                counts[(b << 8) | (int) ((key >>> (b << 3)) & 0xFF)]++;
            }
        }
        long[] keysIn = keys;
        int[] payloadIn = payload;
        long[] keysOut = keyScratch;
        int[] payloadOut = payloadScratch;
        for (int b = 0; b < 8; b++) {
            int base = b << 8;
            int shift = b << 3;
            if (counts[base + (int) ((keys[from] >>> shift) & 0xFF)] == n) {
                continue;
            }
            int start = from;
            for (int v = 0; v < 256; v++) {
                int c = counts[base + v];
                counts[base + v] = start;
                start += c;
            }
            for (int k = from; k < to; k++) {
                long key = keysIn[k];
                int target = counts[base + (int) ((key >>> shift) & 0xFF)]++;
                keysOut[target] = key;
                payloadOut[target] = payloadIn[k];
            }
            // Ping-pong between the arrays instead of copying back after every pass.
            long[] keysSwap = keysIn;
            keysIn = keysOut;
            keysOut = keysSwap;
            int[] payloadSwap = payloadIn;
            payloadIn = payloadOut;
            payloadOut = payloadSwap;
        }
        if (keysIn != keys) {
            System.arraycopy(keysIn, from, keys, from, n);
            System.arraycopy(payloadIn, from, payload, from, n);
        }
    }
}
