package io.locusdb.core.storage.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The order-preserving index of a part's delta rows on one column: value → the delta rows holding it, in append
 * order. One writer (the table's write lock serializes them) adds rows while readers look keys and key ranges up
 * without locks: entries are replaced whole (copy on write), never changed in place. Rows that are appended but not
 * yet committed are listed too; readers drop what their snapshot does not see, as they do for every delta row.
 *
 * <p>Values are the storage's physical values (Long, Double, String), ordered as the column's dictionary orders
 * them: strings by code point, which is the UTF-8 byte order the dictionaries use.
 */
public final class DeltaKeyIndex {
    private static final int[] NONE = new int[0];
    private final ConcurrentSkipListMap<Object, int[]> rows = new ConcurrentSkipListMap<>(DeltaKeyIndex::compare);

    /** Adds {@code row} under {@code value} (null values are not indexed: no key equals NULL). */
    public void add(Object value, int row) {
        if (value == null) {
            return;
        }
        rows.compute(value, (k, old) -> {
            if (old == null) {
                return new int[] {row};
            }
            int[] grown = Arrays.copyOf(old, old.length + 1);
            grown[old.length] = row;
            return grown;
        });
    }

    /** Forgets rows {@code from} and later (a statement that failed), listed under {@code values}. */
    public void removeFrom(int from, List<Object> values) {
        for (Object value : values) {
            if (value == null) {
                continue;
            }
            rows.computeIfPresent(value, (k, old) -> {
                int kept = 0;
                while (kept < old.length && old[kept] < from) {
                    kept++;
                }
                return kept == 0 ? null : kept == old.length ? old : Arrays.copyOf(old, kept);
            });
        }
    }

    /** Delta rows holding {@code value}, ascending. */
    public int[] rows(Object value) {
        if (value == null) {
            return NONE;
        }
        int[] found = rows.get(value);
        return found == null ? NONE : found;
    }

    /**
     * Delta rows whose value lies between the bounds (either null for open-ended), grouped by ascending value.
     */
    public int[] rows(Object lo, boolean loInclusive, Object hi, boolean hiInclusive) {
        NavigableMap<Object, int[]> range;
        if (lo == null && hi == null) {
            range = rows;
        } else if (lo == null) {
            range = rows.headMap(hi, hiInclusive);
        } else if (hi == null) {
            range = rows.tailMap(lo, loInclusive);
        } else {
            if (compare(lo, hi) > 0) {
                return NONE;
            }
            range = rows.subMap(lo, loInclusive, hi, hiInclusive);
        }
        List<int[]> parts = new ArrayList<>();
        int total = 0;
        for (Map.Entry<Object, int[]> e : range.entrySet()) {
            parts.add(e.getValue());
            total += e.getValue().length;
        }
        int[] out = new int[total];
        int at = 0;
        for (int[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    /** Distinct values indexed. */
    public int size() {
        return rows.size();
    }

    /** Physical values of one column: Long, Double or String (numbers of the other kinds compared as numbers). */
    public static int compare(Object a, Object b) {
        if (a instanceof String s && b instanceof String t) {
            return compareCodePoints(s, t);
        }
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof Number x && b instanceof Number y) {
            return Double.compare(x.doubleValue(), y.doubleValue());
        }
        throw new IllegalArgumentException("cannot order " + a.getClass().getSimpleName() + " and "
                + b.getClass().getSimpleName() + " in one index");
    }

    private static final Comparator<String> CODE_POINTS = (s, t) -> {
        int i = 0;
        int j = 0;
        while (i < s.length() && j < t.length()) {
            int a = s.codePointAt(i);
            int b = t.codePointAt(j);
            if (a != b) {
                return Integer.compare(a, b);
            }
            i += Character.charCount(a);
            j += Character.charCount(b);
        }
        return Integer.compare(s.length() - i, t.length() - j);
    };

    private static int compareCodePoints(String s, String t) {
        return CODE_POINTS.compare(s, t);
    }
}
