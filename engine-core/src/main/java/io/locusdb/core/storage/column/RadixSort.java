package io.locusdb.core.storage.column;

import java.util.Arrays;

/** LSD radix sort of unsigned 64-bit keys carrying an int payload; skips the bytes all keys share. */
final class RadixSort {
    private RadixSort() {
    }

    /** Sorts {@code keys[from, to)} ascending (unsigned), moving {@code payload} along; scratch arrays ≥ to. */
    static void sort(long[] keys, int[] payload, int from, int to, long[] keyScratch, int[] payloadScratch) {
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
                payloadScratch[target] = payload[k];
            }
            System.arraycopy(keyScratch, from, keys, from, n);
            System.arraycopy(payloadScratch, from, payload, from, n);
        }
    }
}
