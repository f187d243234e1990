package io.locusdb.core.storage.column;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Keys sort as unsigned 64-bit values, stably, and the payload moves with them, on both sides of the cut-over. */
class RadixSortTest {
    private final Random random = new Random(3);

    @Test
    void sortsUnsignedAndStablyAtEverySizeAroundTheInsertionCutOver() {
        for (int n : new int[] {0, 1, 2, 31, RadixSort.INSERTION_MAX - 1, RadixSort.INSERTION_MAX,
                RadixSort.INSERTION_MAX + 1, 200, 5000}) {
            for (int distinct : new int[] {3, Integer.MAX_VALUE}) {
                assertSortsLikeAStableReference(n, distinct);
            }
        }
    }

    private void assertSortsLikeAStableReference(int n, int distinct) {
        int offset = 5;
        long[] keys = new long[offset + n + 3];
        int[] payload = new int[keys.length];
        long[] pool = {Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE, 0x0100_0000_0000_0000L};
        for (int i = 0; i < keys.length; i++) {
            keys[i] = distinct < 10 ? pool[random.nextInt(distinct)] : random.nextInt(4) == 0
                    ? pool[random.nextInt(pool.length)] : random.nextLong();
            payload[i] = i;
        }
        Integer[] expected = new Integer[n];
        for (int i = 0; i < n; i++) {
            expected[i] = offset + i;
        }
        long[] original = keys.clone();
        Arrays.sort(expected, Comparator.<Integer>comparingLong(i -> original[i] ^ Long.MIN_VALUE)
                .thenComparingInt(i -> i));
        RadixSort.sort(keys, payload, offset, offset + n, new long[keys.length], new int[keys.length]);
        for (int i = 0; i < n; i++) {
            assertThat(payload[offset + i]).as("n=%d position %d", n, i).isEqualTo(expected[i]);
            assertThat(keys[offset + i]).isEqualTo(original[expected[i]]);
        }
        for (int i = 0; i < offset; i++) {
            assertThat(payload[i]).isEqualTo(i);
        }
        for (int i = offset + n; i < keys.length; i++) {
            assertThat(payload[i]).isEqualTo(i);
        }
    }
}
