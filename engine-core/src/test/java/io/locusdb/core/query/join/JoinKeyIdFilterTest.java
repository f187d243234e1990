package io.locusdb.core.query.join;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.type.ColumnType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The IDs a probe scan keeps before decoding: exactly the dictionary IDs of values some build row's key has, by
 * either way of finding them (a binary search per build row when there are few, one merge walk otherwise); no
 * filter where one could not pay.
 */
class JoinKeyIdFilterTest {
    /** A sorted dictionary of {@code values} (ID i holds the i-th value, from 1). */
    private static LongDictionary dictionary(long... values) {
        MemorySegment segment = Arena.ofAuto().allocate(ValueLayout.JAVA_LONG, Math.max(1, values.length));
        for (int i = 0; i < values.length; i++) {
            segment.setAtIndex(ValueLayout.JAVA_LONG, i, values[i]);
        }
        return new LongDictionary(segment, values.length);
    }

    private static ColumnVector column(ColumnType type, Long... values) {
        ColumnVector v = new ColumnVector(type, values.length);
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                v.setNull(i);
            } else {
                v.setLong(i, values[i]);
            }
        }
        v.setSize(values.length);
        return v;
    }

    private static List<Integer> ids(long[] allowed) {
        List<Integer> ids = new ArrayList<>();
        for (int id = 0; id < allowed.length * 64; id++) {
            if ((allowed[id >>> 6] & (1L << id)) != 0) {
                ids.add(id);
            }
        }
        return ids;
    }

    @Test
    void fewBuildRowsAllowTheIdsOfTheirValuesOnly() {
        // Values 0, 10, 20, ..., 9990 (IDs 1..1000); build keys 20, 20, 25 (absent), NULL, 9990.
        LongDictionary dictionary = dictionary(LongStream.range(0, 1000).map(i -> i * 10).toArray());
        JoinHashTable table = new JoinHashTable(new ColumnVector[] {column(ColumnType.BIGINT, 20L, 20L, 25L, null,
                9990L)}, 5, new int[] {0}, false, null);
        assertThat(ids(table.allowedIds(0, dictionary))).containsExactly(3, 1000);
    }

    @Test
    void manyBuildRowsFindTheSameIdsByOneWalk() {
        Random random = new Random(7);
        long[] values = LongStream.range(0, 5000).map(i -> i * 3 + 1).toArray();
        LongDictionary dictionary = dictionary(values);
        int rows = 2000;
        Long[] keys = new Long[rows];
        List<Integer> expected = new ArrayList<>();
        boolean[] present = new boolean[values.length + 1];
        for (int r = 0; r < rows; r++) {
            long key = random.nextInt(16_000) - 100;
            keys[r] = r % 97 == 0 ? null : key;
            if (keys[r] != null && key >= 1 && (key - 1) % 3 == 0 && (key - 1) / 3 < values.length) {
                present[(int) ((key - 1) / 3) + 1] = true;
            }
        }
        for (int id = 1; id <= values.length; id++) {
            if (present[id]) {
                expected.add(id);
            }
        }
        // Two key columns: the filter of the second is asked for, from a table keyed by both.
        JoinHashTable table = new JoinHashTable(new ColumnVector[] {column(ColumnType.BIGINT, new Long[rows]),
                column(ColumnType.BIGINT, keys)}, rows, new int[] {0, 1}, false, null);
        assertThat(ids(table.allowedIds(1, dictionary))).isEqualTo(expected);
    }

    @Test
    void noFilterWhenTheBuildSideCouldHoldMostOfTheDictionary() {
        LongDictionary dictionary = dictionary(1, 2, 3, 4);
        JoinHashTable table = new JoinHashTable(new ColumnVector[] {column(ColumnType.BIGINT, 1L, 2L)}, 2,
                new int[] {0}, false, null);
        assertThat(table.allowedIds(0, dictionary)).isNull();
    }

    @Test
    void anEmptyBuildSideAllowsNoId() {
        LongDictionary dictionary = dictionary(1, 2, 3, 4);
        JoinHashTable table = new JoinHashTable(new ColumnVector[] {column(ColumnType.BIGINT)}, 0, new int[] {0},
                false, null);
        assertThat(ids(table.allowedIds(0, dictionary))).isEmpty();
    }
}
