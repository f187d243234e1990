package io.locusdb.core.query.agg;

import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.vector.ColumnVector;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code MODE(x)} (also PostgreSQL's {@code mode() WITHIN GROUP (ORDER BY x)}): the most frequent non-NULL value of
 * each group; among equally frequent values the least, as PostgreSQL's ordered-set mode takes the first in ascending
 * order. Each group counts its values as they come (a map from value to count), and tasks' counts add up on merge.
 * A group of NULLs only gives NULL.
 */
final class Mode extends Accumulator {
    /** A counted value's map entry, boxed key and count, beside a string's characters. */
    private static final long BYTES_PER_VALUE = 64;
    private final TypeKind.Physical physical;
    @SuppressWarnings("unchecked")
    private Map<Object, long[]>[] counts = new Map[0];

    Mode(AggregateCall call) {
        this.physical = call.argumentType().physical();
    }

    @Override
    public void grow(int groups) {
        if (groups > capacity) {
            capacity = newCapacity(capacity, groups);
            counts = Arrays.copyOf(counts, capacity);
        }
    }

    @Override
    public void permute(int[] order, int size) {
        counts = permuted(counts, order, size);
    }

    @Override
    public void update(int[] groups, ColumnVector argument, int rows) {
        long bytes = 0;
        for (int i = 0; i < rows; i++) {
            Object v = argument.boxed(i);
            if (v == null) {
                continue;
            }
            if (v instanceof Double d && d == 0) {
                // -0.0 and 0.0 are one value to SQL, two keys to a map.
                v = 0.0;
            }
            long[] count = group(groups[i]).get(v);
            if (count == null) {
                group(groups[i]).put(v, new long[] {1});
                bytes += BYTES_PER_VALUE + (v instanceof String s ? 2L * s.length() : 0);
            } else {
                count[0]++;
            }
        }
        // Kept until the group is finished: charged to the query's budget like its other state.
        QueryContext query = QueryContext.current();
        if (query != null && bytes > 0) {
            query.memory().reserve(bytes);
        }
    }

    private Map<Object, long[]> group(int g) {
        Map<Object, long[]> map = counts[g];
        if (map == null) {
            map = new HashMap<>();
            counts[g] = map;
        }
        return map;
    }

    @Override
    public void merge(int target, Accumulator other, int source) {
        Map<Object, long[]> theirs = ((Mode) other).counts[source];
        if (theirs == null) {
            return;
        }
        Map<Object, long[]> ours = group(target);
        for (Map.Entry<Object, long[]> e : theirs.entrySet()) {
            long[] count = ours.get(e.getKey());
            if (count == null) {
                ours.put(e.getKey(), new long[] {e.getValue()[0]});
            } else {
                count[0] += e.getValue()[0];
            }
        }
    }

    @Override
    public void finish(int groups, ColumnVector out, long[] rows) {
        for (int g = 0; g < groups; g++) {
            Map<Object, long[]> map = counts[g];
            if (map == null || map.isEmpty()) {
                out.setNull(g);
                continue;
            }
            Object best = null;
            long bestCount = -1;
            for (Map.Entry<Object, long[]> e : map.entrySet()) {
                long count = e.getValue()[0];
                if (count > bestCount || count == bestCount && less(e.getKey(), best)) {
                    best = e.getKey();
                    bestCount = count;
                }
            }
            switch (physical) {
                case DOUBLE -> out.setDouble(g, (Double) best);
                case STRING -> out.setString(g, (String) best);
                default -> out.setLong(g, (Long) best);
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static boolean less(Object a, Object b) {
        return ((Comparable) a).compareTo(b) < 0;
    }
}
