package io.locusdb.core.query.agg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.ColumnVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A group table finds each key's group once, however its rows come (in runs, scattered, with NULL keys), and tables
 * that take rows as groups unlooked-up give, once sorted into buckets and merged, the groups a hashed table gives.
 */
class GroupTableTest {
    private static final List<ColumnType> KEYS = List.of(ColumnType.BIGINT, ColumnType.VARCHAR);
    private static final List<AggregateCall> CALLS = List.of(
            new AggregateCall(AggregateCall.Function.COUNT, -1, false, null, ColumnType.BIGINT, "n"),
            new AggregateCall(AggregateCall.Function.SUM, 2, false, ColumnType.BIGINT, ColumnType.BIGINT, "s"),
            new AggregateCall(AggregateCall.Function.MIN, 2, false, ColumnType.BIGINT, ColumnType.BIGINT, "lo"));

    /** A batch of rows: key columns (a BIGINT, a VARCHAR) and the aggregated BIGINT, any of them NULL. */
    private record Batch(ColumnVector[] keys, ColumnVector[] arguments, int rows) {
    }

    private static Batch batch(long[] numbers, String[] texts, Long[] values) {
        int rows = numbers.length;
        ColumnVector number = new ColumnVector(ColumnType.BIGINT, rows);
        ColumnVector text = new ColumnVector(ColumnType.VARCHAR, rows);
        ColumnVector value = new ColumnVector(ColumnType.BIGINT, rows);
        number.prepare(rows);
        text.prepare(rows);
        value.prepare(rows);
        for (int i = 0; i < rows; i++) {
            if (numbers[i] == Long.MIN_VALUE) {
                number.setNull(i);
            } else {
                number.setLong(i, numbers[i]);
            }
            if (texts[i] == null) {
                text.setNull(i);
            } else {
                text.setString(i, texts[i]);
            }
            if (values[i] == null) {
                value.setNull(i);
            } else {
                value.setLong(i, values[i]);
            }
        }
        return new Batch(new ColumnVector[] {number, text}, new ColumnVector[] {null, value, value}, rows);
    }

    /** Random rows over few keys, NULLs among keys and values; runs of one key now and then. */
    private static List<Batch> randomBatches(long seed, int batches, int rows, int distinctNumbers) {
        Random random = new Random(seed);
        List<Batch> out = new ArrayList<>();
        for (int b = 0; b < batches; b++) {
            long[] numbers = new long[rows];
            String[] texts = new String[rows];
            Long[] values = new Long[rows];
            for (int i = 0; i < rows; i++) {
                if (i > 0 && random.nextInt(3) == 0) {
                    numbers[i] = numbers[i - 1];
                    texts[i] = texts[i - 1];
                } else {
                    // Zero beside NULL: a NULL key's stored value is zero too, and must not meet it.
                    numbers[i] = random.nextInt(10) == 0 ? Long.MIN_VALUE : random.nextInt(distinctNumbers);
                    texts[i] = random.nextInt(10) == 0 ? null : "t" + random.nextInt(3);
                }
                values[i] = random.nextInt(8) == 0 ? null : (long) random.nextInt(1000) - 500;
            }
            out.add(batch(numbers, texts, values));
        }
        return out;
    }

    /** The groups of {@code batches}, worked out here: key (number or null, text or null) to count, sum, min. */
    private static Map<List<Object>, List<Object>> expected(List<Batch> batches) {
        Map<List<Object>, List<Object>> out = new HashMap<>();
        for (Batch batch : batches) {
            for (int i = 0; i < batch.rows(); i++) {
                List<Object> key = Arrays.asList(batch.keys()[0].isNull(i) ? null : batch.keys()[0].longs()[i],
                        batch.keys()[1].isNull(i) ? null : batch.keys()[1].string(i));
                List<Object> agg = out.computeIfAbsent(key, k -> Arrays.asList(0L, null, null));
                agg.set(0, (Long) agg.get(0) + 1);
                if (!batch.arguments()[1].isNull(i)) {
                    long v = batch.arguments()[1].longs()[i];
                    agg.set(1, agg.get(1) == null ? v : (Long) agg.get(1) + v);
                    agg.set(2, agg.get(2) == null ? v : Math.min((Long) agg.get(2), v));
                }
            }
        }
        return out;
    }

    private static Map<List<Object>, List<Object>> finished(GroupTable table) {
        int size = table.size();
        ColumnVector[] keys = {new ColumnVector(ColumnType.BIGINT, size), new ColumnVector(ColumnType.VARCHAR, size)};
        ColumnVector[] aggregates = {new ColumnVector(ColumnType.BIGINT, size), new ColumnVector(ColumnType.BIGINT,
                size), new ColumnVector(ColumnType.BIGINT, size)};
        table.finish(keys, aggregates);
        Map<List<Object>, List<Object>> out = new HashMap<>();
        for (int g = 0; g < size; g++) {
            List<Object> key = Arrays.asList(keys[0].isNull(g) ? null : keys[0].longs()[g],
                    keys[1].isNull(g) ? null : keys[1].string(g));
            List<Object> agg = Arrays.asList(aggregates[0].longs()[g],
                    aggregates[1].isNull(g) ? null : aggregates[1].longs()[g],
                    aggregates[2].isNull(g) ? null : aggregates[2].longs()[g]);
            assertThat(out.put(key, agg)).as("group %s found once", key).isNull();
        }
        return out;
    }

    @Test
    void aHashedTableFindsEachKeyOnceWhetherItsRowsComeInRunsOrScattered() {
        List<Batch> batches = randomBatches(1, 20, 500, 50);
        GroupTable table = new GroupTable(KEYS, CALLS, new StringIds());
        for (Batch b : batches) {
            table.add(b.keys(), b.arguments(), b.rows());
        }
        assertThat(finished(table)).isEqualTo(expected(batches));
    }

    @Test
    void aRunOfNullKeysIsNotTheRunOfZerosBeforeIt() {
        Batch batch = batch(new long[] {0, 0, Long.MIN_VALUE, Long.MIN_VALUE, 0},
                new String[] {"a", "a", "a", "a", "a"}, new Long[] {1L, 2L, 3L, 4L, 5L});
        GroupTable table = new GroupTable(List.of(ColumnType.BIGINT), CALLS, new StringIds());
        table.add(new ColumnVector[] {batch.keys()[0]}, batch.arguments(), batch.rows());
        assertThat(table.size()).isEqualTo(2);
        GroupTable twoKeys = new GroupTable(KEYS, CALLS, new StringIds());
        twoKeys.add(batch.keys(), batch.arguments(), batch.rows());
        assertThat(finished(twoKeys)).isEqualTo(expected(List.of(batch)));
    }

    @Test
    void rowsTakenAsGroupsAndMergedByBucketGiveTheGroupsAHashedTableGives() {
        List<Batch> batches = randomBatches(2, 30, 700, 400);
        StringIds strings = new StringIds();
        int bits = 4;
        List<GroupTable> handed = new ArrayList<>();
        List<int[]> offsets = new ArrayList<>();
        // Some tables take rows as groups, some are hashed: a task switches between them as its rows change.
        for (int t = 0; t < 6; t++) {
            GroupTable table = t % 3 == 0 ? new GroupTable(KEYS, CALLS, strings)
                    : GroupTable.rowsAsGroups(KEYS, CALLS, strings, null, 16);
            for (Batch b : batches.subList(t * 5, t * 5 + 5)) {
                if (t % 3 == 0) {
                    table.add(b.keys(), b.arguments(), b.rows());
                } else {
                    table.addRowsAsGroups(b.keys(), b.arguments(), b.rows());
                }
            }
            int[] bucketOffsets = new int[(1 << bits) + 1];
            table.sortIntoBuckets(bits, bucketOffsets);
            handed.add(table);
            offsets.add(bucketOffsets);
        }
        assertThat(handed.get(1).size()).as("a row is a group").isEqualTo(5 * 700);
        Map<List<Object>, List<Object>> merged = new HashMap<>();
        for (int b = 0; b < 1 << bits; b++) {
            GroupTable bucket = new GroupTable(KEYS, CALLS, strings);
            for (int t = 0; t < handed.size(); t++) {
                bucket.mergeGroups(handed.get(t), offsets.get(t)[b], offsets.get(t)[b + 1]);
            }
            Map<List<Object>, List<Object>> groups = finished(bucket);
            for (List<Object> key : groups.keySet()) {
                assertThat(merged).as("a key's groups all land in one bucket").doesNotContainKey(key);
            }
            merged.putAll(groups);
        }
        assertThat(merged).isEqualTo(expected(batches));
    }

    @Test
    void onlyATableWithoutAnIndexTakesRowsAsGroups() {
        Batch batch = batch(new long[] {1}, new String[] {"a"}, new Long[] {1L});
        GroupTable hashed = new GroupTable(KEYS, CALLS, new StringIds());
        assertThatThrownBy(() -> hashed.addRowsAsGroups(batch.keys(), batch.arguments(), 1))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> GroupTable.rowsAsGroups(List.of(), CALLS, new StringIds(), null, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
