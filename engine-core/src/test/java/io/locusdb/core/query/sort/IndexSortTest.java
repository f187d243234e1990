package io.locusdb.core.query.sort;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.ColumnVector;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Sorting row numbers by ORDER BY keys gives the order a stable sort of boxed rows gives, for every direction and
 * NULL placement, with many ties; the first rows by a bounded heap, or selected, are the first rows of that order.
 */
class IndexSortTest {
    private static final int ROWS = 5_000;

    /** A column of few values (many ties), some NULL; a double column with -0.0 and 0.0; a string column. */
    private static ColumnVector[] columns(Random random) {
        ColumnVector longs = new ColumnVector(ColumnType.BIGINT, ROWS);
        ColumnVector doubles = new ColumnVector(ColumnType.DOUBLE, ROWS);
        ColumnVector strings = new ColumnVector(ColumnType.varchar(8), ROWS);
        for (int i = 0; i < ROWS; i++) {
            if (random.nextInt(10) == 0) {
                longs.setNull(i);
            } else {
                longs.setLong(i, random.nextInt(20) - 10);
            }
            doubles.setDouble(i, random.nextInt(5) == 0 ? (random.nextBoolean() ? -0.0 : 0.0)
                    : random.nextInt(50) / 4.0);
            if (random.nextInt(15) == 0) {
                strings.setNull(i);
            } else {
                strings.setString(i, Character.toString('a' + random.nextInt(6)));
            }
        }
        for (ColumnVector v : new ColumnVector[] {longs, doubles, strings}) {
            v.setSize(ROWS);
            v.refreshNulls();
        }
        return new ColumnVector[] {longs, doubles, strings};
    }

    /** One to three keys over the three columns, each ascending or descending, NULLs first or last. */
    private record RandomOrder(int[] keys, boolean[] descending, boolean[] nullsFirst) {
        static RandomOrder draw(Random random) {
            int keyCount = 1 + random.nextInt(3);
            RandomOrder order = new RandomOrder(new int[keyCount], new boolean[keyCount], new boolean[keyCount]);
            for (int k = 0; k < keyCount; k++) {
                order.keys[k] = random.nextInt(3);
                order.descending[k] = random.nextBoolean();
                order.nullsFirst[k] = random.nextBoolean();
            }
            return order;
        }
    }

    /** The reference: boxed rows through a Comparator built key by key, sorted stably. */
    private static int[] expected(ColumnVector[] columns, int[] keys, boolean[] descending, boolean[] nullsFirst) {
        Comparator<Integer> order = (a, b) -> 0;
        for (int k = 0; k < keys.length; k++) {
            ColumnVector v = columns[keys[k]];
            boolean desc = descending[k];
            boolean first = nullsFirst[k];
            Comparator<Integer> values = (a, b) -> switch (v.physical()) {
                case LONG -> Long.compare(v.longs()[a], v.longs()[b]);
                case DOUBLE -> Double.compare(v.doubles()[a] + 0.0, v.doubles()[b] + 0.0);
                case STRING -> v.string(a).compareTo(v.string(b));
            };
            Comparator<Integer> directed = desc ? values.reversed() : values;
            order = order.thenComparing((a, b) -> {
                boolean na = v.isNull(a);
                boolean nb = v.isNull(b);
                if (na || nb) {
                    return na == nb ? 0 : (na == first ? -1 : 1);
                }
                return directed.compare(a, b);
            });
        }
        return IntStream.range(0, ROWS).boxed().sorted(order).mapToInt(Integer::intValue).toArray();
    }

    @Test
    void sortsAsAStableSortOfBoxedRowsDoes() {
        Random random = new Random(7);
        ColumnVector[] columns = columns(random);
        for (int round = 0; round < 40; round++) {
            RandomOrder drawn = RandomOrder.draw(random);
            int[] keys = drawn.keys();
            boolean[] descending = drawn.descending();
            boolean[] nullsFirst = drawn.nullsFirst();
            RowComparator order = new RowComparator(columns, keys, descending, nullsFirst);
            int[] rows = IntStream.range(0, ROWS).toArray();
            IndexSort.sort(rows, 0, ROWS, order);
            int[] expected = expected(columns, keys, descending, nullsFirst);
            assertThat(rows).as("keys %s desc %s nulls first %s", Arrays.toString(keys),
                    Arrays.toString(descending), Arrays.toString(nullsFirst)).containsExactly(expected);
            for (int limit : new int[] {0, 1, 7, 100, 600, ROWS, ROWS + 5}) {
                int[] top = IndexSort.top(IntStream.range(0, ROWS).toArray(), 0, ROWS, limit, order);
                assertThat(top).as("first %d", limit)
                        .containsExactly(Arrays.copyOf(expected, Math.min(limit, ROWS)));
            }
        }
    }

    @Test
    void selectsTheRowsAStableSortPutsFirstAndKeepsThemInRowOrder() {
        Random random = new Random(13);
        ColumnVector[] columns = columns(random);
        for (int round = 0; round < 30; round++) {
            RandomOrder drawn = RandomOrder.draw(random);
            int[] keys = drawn.keys();
            boolean[] descending = drawn.descending();
            boolean[] nullsFirst = drawn.nullsFirst();
            RowComparator order = new RowComparator(columns, keys, descending, nullsFirst);
            int[] expected = expected(columns, keys, descending, nullsFirst);
            for (int limit : new int[] {0, 1, 31, 33, 100, 2_500, ROWS - 1, ROWS, ROWS + 5}) {
                int[] first = IndexSort.firstInRowOrder(ROWS, limit, order);
                int[] wanted = Arrays.copyOf(expected, Math.min(limit, ROWS));
                Arrays.sort(wanted);
                assertThat(first).as("first %d by keys %s desc %s", limit, Arrays.toString(keys),
                        Arrays.toString(descending)).containsExactly(wanted);
                if (first.length > 0) {
                    assertThat(first[IndexSort.worst(first, order)]).as("the last of the first %d", limit)
                            .isEqualTo(expected[first.length - 1]);
                }
            }
        }
    }

    @Test
    void sortsASliceAndLeavesTheRestAlone() {
        ColumnVector[] columns = columns(new Random(11));
        RowComparator order = new RowComparator(columns, new int[] {0}, new boolean[] {false}, new boolean[] {true});
        int[] rows = IntStream.range(0, ROWS).toArray();
        IndexSort.sort(rows, 100, 900, order);
        assertThat(Arrays.copyOfRange(rows, 0, 100)).containsExactly(IntStream.range(0, 100).toArray());
        assertThat(Arrays.copyOfRange(rows, 900, ROWS)).containsExactly(IntStream.range(900, ROWS).toArray());
        for (int i = 101; i < 900; i++) {
            assertThat(order.compare(rows[i - 1], rows[i])).isLessThanOrEqualTo(0);
        }
    }
}
