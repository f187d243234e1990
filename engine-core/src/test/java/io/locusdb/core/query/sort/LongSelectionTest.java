package io.locusdb.core.query.sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LongSelectionTest {
    @Test
    void theKthSmallestIsWhatASortPutsAtK() {
        Random random = new Random(7);
        for (int round = 0; round < 300; round++) {
            int n = 1 + random.nextInt(2_000);
            // Wide values, then few distinct ones (ties), then sorted and reversed runs.
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = switch (round % 4) {
                    case 0 -> random.nextLong();
                    case 1 -> random.nextInt(5) - 2;
                    case 2 -> i;
                    default -> n - i;
                };
            }
            long[] sorted = values.clone();
            Arrays.sort(sorted);
            int k = random.nextInt(n);
            assertThat(LongSelection.kthSmallest(values.clone(), n, k)).isEqualTo(sorted[k]);
        }
        assertThat(LongSelection.kthSmallest(new long[] {9, 3, 5, 0}, 3, 2)).as("only the first n count").isEqualTo(9);
        assertThatThrownBy(() -> LongSelection.kthSmallest(new long[3], 3, 3))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sortingByTheUpperHalfOrdersRowsAndKeepsEqualRowsInTheirOrder() {
        Random random = new Random(11);
        for (int bound : new int[] {1, 2, 1 << 11, 1 << 20, 6_000_000, Integer.MAX_VALUE}) {
            long[] keys = new long[50_000];
            for (int slot = 0; slot < keys.length; slot++) {
                keys[slot] = ((long) random.nextInt(bound) << 32) | slot;
            }
            long[] sorted = keys.clone();
            // Slots ascend in the input, so a stable sort by row is the full sort of the longs.
            Arrays.sort(sorted);
            LongSelection.sortByUpperInt(keys);
            assertThat(keys).as("rows below %d", bound).isEqualTo(sorted);
        }
        assertThatThrownBy(() -> LongSelection.sortByUpperInt(new long[] {-1L}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
