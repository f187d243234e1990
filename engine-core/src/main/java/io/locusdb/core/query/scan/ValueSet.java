package io.locusdb.core.query.scan;

import io.locusdb.core.storage.column.Dictionary;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.scan.IdRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Values equal to one of a set of integers (physical LONG: BIGINT, INTEGER, DATE, DECIMAL's unscaled value) on
 * {@code column}, kept sorted and distinct: the keys a join's build side holds, which a scan of the probe side's key
 * column is limited to so that a keyed table is read through its key index (an index join) instead of whole. Unlike
 * {@link ValueRangeUnion}'s ranges, a set of thousands costs a binary search per value and per part, not a pass.
 */
public final class ValueSet implements ScanPredicate {
    private final int column;
    private final long[] values;

    private ValueSet(int column, long[] values) {
        this.column = column;
        this.values = values;
    }

    /** The set of {@code values} (any order, repeats allowed); the array is not kept. */
    public static ValueSet of(int column, long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int distinct = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (distinct == 0 || sorted[i] != sorted[distinct - 1]) {
                sorted[distinct++] = sorted[i];
            }
        }
        return new ValueSet(column, Arrays.copyOf(sorted, distinct));
    }

    @Override
    public int column() {
        return column;
    }

    /** How many distinct values the set holds. */
    public int size() {
        return values.length;
    }

    /** The value at {@code i} in ascending order. */
    public long value(int i) {
        return values[i];
    }

    @Override
    public List<IdRange> idRanges(Dictionary dictionary) {
        if (!(dictionary instanceof LongDictionary longs)) {
            throw new IllegalArgumentException("a set of integers on column " + column + ", whose dictionary holds "
                    + dictionary.getClass().getSimpleName());
        }
        List<IdRange> ranges = new ArrayList<>();
        int size = longs.size();
        if (values.length == 0 || size == 0) {
            return ranges;
        }
        int lo = -1;
        int hi = -1;
        // Values ascend, so their IDs do: each search starts above the last ID found.
        int from = 1;
        for (long v : values) {
            int id = ceilingFrom(longs, v, from, size);
            if (id > size) {
                break;
            }
            if (longs.value(id) != v) {
                from = id;
                continue;
            }
            if (lo >= 0 && id == hi + 1) {
                hi = id;
            } else {
                if (lo >= 0) {
                    ranges.add(new IdRange(lo, hi));
                }
                lo = id;
                hi = id;
            }
            from = id + 1;
        }
        if (lo >= 0) {
            ranges.add(new IdRange(lo, hi));
        }
        return ranges;
    }

    /**
     * The first ID in {@code from..size} whose value is at least {@code v}, or {@code size + 1}. Galloping from
     * {@code from}: a set dense in the dictionary costs a few steps per value, near the last, not a full search.
     */
    private static int ceilingFrom(LongDictionary dictionary, long v, int from, int size) {
        int lo = from;
        int step = 1;
        while (lo + step <= size && dictionary.value(lo + step) < v) {
            lo += step;
            step <<= 1;
        }
        if (lo <= size && dictionary.value(lo) < v) {
            lo++;
        }
        int hi = Math.min(size + 1, lo + step);
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (dictionary.value(mid) < v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    @Override
    public boolean matches(Object value) {
        return value instanceof Long l && Arrays.binarySearch(values, l) >= 0;
    }

    @Override
    public String toString() {
        return "column " + column + " IN (" + values.length + " values)";
    }
}
