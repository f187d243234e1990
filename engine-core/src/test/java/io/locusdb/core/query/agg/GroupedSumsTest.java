package io.locusdb.core.query.agg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.sql.LocusSqlException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fast paths of {@link GroupedSums} (vector, lanes) against plain per-row sums, and their overflow checks. */
class GroupedSumsTest {

    @Test
    void everyPathMatchesPlainSums() {
        Random random = new Random(42);
        for (int groupCount : new int[] {1, 2, 3, 4, 5, 17, 256, 300}) {
            for (int rows : new int[] {0, 1, 3, 7, 8, 9, 100, 4096}) {
                int[] groups = new int[rows];
                long[] values = new long[rows];
                boolean[] nulls = new boolean[rows];
                for (int i = 0; i < rows; i++) {
                    groups[i] = random.nextInt(groupCount);
                    values[i] = random.nextLong() >> random.nextInt(10, 64);
                    nulls[i] = random.nextInt(5) == 0;
                }
                long[] expectedSums = new long[groupCount];
                long[] expectedNonNull = new long[groupCount];
                long[] expectedCounts = new long[groupCount];
                for (int i = 0; i < rows; i++) {
                    expectedSums[groups[i]] += values[i];
                    expectedNonNull[groups[i]] += nulls[i] ? 0 : values[i];
                    expectedCounts[groups[i]]++;
                }
                long[] sums = new long[groupCount];
                long[] nonNull = new long[groupCount];
                long[] counts = new long[groupCount];
                long[] scratch = new long[0];
                // Twice: the second batch adds to the first's sums through reused scratch.
                for (int round = 0; round < 2; round++) {
                    scratch = GroupedSums.addExact(sums, groupCount, groups, values, null, rows, scratch);
                    scratch = GroupedSums.addExact(nonNull, groupCount, groups, values, nulls, rows, scratch);
                    scratch = GroupedSums.count(counts, groupCount, groups, rows, scratch);
                }
                for (int g = 0; g < groupCount; g++) {
                    assertThat(sums[g]).as("sum %d of %d groups, %d rows", g, groupCount, rows)
                            .isEqualTo(2 * expectedSums[g]);
                    assertThat(nonNull[g]).isEqualTo(2 * expectedNonNull[g]);
                    assertThat(counts[g]).isEqualTo(2 * expectedCounts[g]);
                }
            }
        }
    }

    @Test
    void overflowIsAnErrorOnEveryPath() {
        for (int groupCount : new int[] {1, 4, 100, 1000}) {
            int rows = 64;
            int[] groups = new int[rows];
            long[] big = new long[rows];
            java.util.Arrays.fill(big, Long.MAX_VALUE / 16);
            long[] sums = new long[groupCount];
            assertThatThrownBy(() -> GroupedSums.addExact(sums, groupCount, groups, big, null, rows, new long[0]))
                    .isInstanceOf(LocusSqlException.class);
            // Small values onto a sum near the limit: the batch total's check catches it.
            long[] small = new long[rows];
            java.util.Arrays.fill(small, 1000);
            long[] nearMax = new long[groupCount];
            nearMax[0] = Long.MAX_VALUE - 10;
            assertThatThrownBy(() -> GroupedSums.addExact(nearMax, groupCount, groups, small, null, rows,
                    new long[0])).isInstanceOf(LocusSqlException.class);
            long[] nearMin = new long[groupCount];
            nearMin[0] = Long.MIN_VALUE + 10;
            long[] negative = new long[rows];
            java.util.Arrays.fill(negative, Long.MIN_VALUE);
            assertThatThrownBy(() -> GroupedSums.addExact(nearMin, groupCount, groups, negative, null, rows,
                    new long[0])).isInstanceOf(LocusSqlException.class);
        }
    }

    @Test
    void boundedAcceptsOnlySumsThatCannotOverflow() {
        long[] values = new long[4096];
        values[0] = 1L << 48;
        values[1] = -(1L << 48);
        assertThat(GroupedSums.bounded(values, null, 4096)).isTrue();
        values[2] = 1L << 49;
        assertThat(GroupedSums.bounded(values, null, 4096)).isFalse();
        assertThat(GroupedSums.bounded(new long[] {Long.MIN_VALUE}, null, 1)).isFalse();
        // Values under NULL flags do not count.
        assertThat(GroupedSums.bounded(new long[] {Long.MIN_VALUE, 5}, new boolean[] {true, false}, 2)).isTrue();
    }
}
