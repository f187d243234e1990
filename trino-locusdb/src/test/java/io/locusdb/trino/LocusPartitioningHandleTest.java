package io.locusdb.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.storage.table.PartitionRouter;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.trino.LocusPartitioningHandle.KeyRange;
import io.trino.spi.TrinoException;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Buckets of keys and splits, as Trino asks for them when it reads LocusDB tables bucket by bucket. */
class LocusPartitioningHandleTest {
    @Test
    void theConnectorHashesKeysToTheLocusDbPartsTheyAreIn() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 10_000; i++) {
            long key = i < 100 ? i - 50 : random.nextLong();
            int parts = 1 + random.nextInt(64);
            assertThat(LocusHash.part(key, parts)).isEqualTo(
                    PartitionRouter.hashPart(key, new PartitionSpec.Hash("k", parts)));
        }
    }

    @Test
    void rangePartitionedKeysGoToTheBucketOfTheirRange() {
        // Server a: parts 0 (keys 1..10) and 1 (11..20); server b: parts 0 (21..30) and 1 (31..40).
        LocusPartitioningHandle handle = new LocusPartitioningHandle(false, List.of("a:1", "b:1"), 2, List.of(
                new KeyRange(1, 10, 0), new KeyRange(11, 20, 1), new KeyRange(21, 30, 2), new KeyRange(31, 40, 3)));
        assertThat(handle.bucketCount()).isEqualTo(4);
        assertThat(List.of(1L, 10L, 11L, 20L, 21L, 35L, 40L)).extracting(handle::bucketOf)
                .containsExactly(0, 0, 1, 1, 2, 3, 3);
        // Keys no part holds go to one fixed bucket each: below all to the first range, else the range below.
        assertThat(handle.bucketOf(-5)).isZero();
        assertThat(handle.bucketOf(1_000)).isEqualTo(3);
        assertThat(handle.bucketOf("b:1", 1, 2)).isEqualTo(3);
    }

    @Test
    void hashPartitionedKeysGoToTheirServersRangeThenTheirHashPart() {
        LocusPartitioningHandle handle = new LocusPartitioningHandle(true, List.of("a:1", "b:1", "c:1"), 4,
                List.of(new KeyRange(0, 99, 0), new KeyRange(100, 199, 4), new KeyRange(200, 299, 8)));
        for (long key = 0; key < 300; key++) {
            int server = (int) (key / 100);
            assertThat(handle.bucketOf(key)).isEqualTo(server * 4 + LocusHash.part(key, 4));
        }
    }

    @Test
    void aSplitOfAnotherLayoutThanPlannedIsRefused() {
        LocusPartitioningHandle handle = new LocusPartitioningHandle(true, List.of("a:1"), 4,
                List.of(new KeyRange(0, 99, 0)));
        assertThatThrownBy(() -> handle.bucketOf("a:1", 1, 8)).isInstanceOf(TrinoException.class)
                .hasMessageContaining("changed");
        assertThatThrownBy(() -> handle.bucketOf("z:1", 1, 4)).isInstanceOf(TrinoException.class);
    }
}
