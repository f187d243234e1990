package io.locusdb.core.query.agg;

import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.query.expr.ArrayText;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.ColumnVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * STRING_AGG(x, separator) and ARRAY_AGG(x): each group's values in a list, joined when the group is finished.
 * STRING_AGG skips NULLs (NULL when nothing is left), ARRAY_AGG keeps them as array elements. Without an order the
 * values come in the order the tasks saw them, which SQL leaves open; {@code ORDER BY x} on the argument itself
 * sorts them (NULLs last ascending, first descending); DISTINCT keeps each value once.
 */
final class CollectValues extends Accumulator {
    /** A kept value's reference, list slot and boxed or string object, beside a string's characters. */
    private static final long BYTES_PER_VALUE = 48;
    private final AggregateCall call;
    private final boolean array;
    @SuppressWarnings("unchecked")
    private List<Object>[] values = new List[0];

    CollectValues(AggregateCall call) {
        this.call = call;
        this.array = call.function() == AggregateCall.Function.ARRAY_AGG;
    }

    @Override
    public void grow(int groups) {
        if (groups > capacity) {
            capacity = newCapacity(capacity, groups);
            values = Arrays.copyOf(values, capacity);
        }
    }

    @Override
    public void permute(int[] order, int size) {
        values = permuted(values, order, size);
    }

    @Override
    public void update(int[] groups, ColumnVector argument, int rows) {
        long bytes = 0;
        for (int i = 0; i < rows; i++) {
            Object v = argument.boxed(i);
            if (v == null && !array) {
                continue;
            }
            group(groups[i]).add(v);
            bytes += BYTES_PER_VALUE + (v instanceof String s ? 2L * s.length() : 0);
        }
        // The values are kept until the group is finished: charged to the query's budget like its other state.
        QueryContext query = QueryContext.current();
        if (query != null && bytes > 0) {
            query.memory().reserve(bytes);
        }
    }

    private List<Object> group(int g) {
        List<Object> list = values[g];
        if (list == null) {
            list = new ArrayList<>();
            values[g] = list;
        }
        return list;
    }

    @Override
    public void merge(int target, Accumulator other, int source) {
        List<Object> theirs = ((CollectValues) other).values[source];
        if (theirs != null) {
            group(target).addAll(theirs);
        }
    }

    @Override
    public void finish(int groups, ColumnVector out, long[] rows) {
        ColumnType type = call.argumentType();
        for (int g = 0; g < groups; g++) {
            List<Object> list = values[g];
            if (list == null || list.isEmpty()) {
                out.setNull(g);
                continue;
            }
            if (call.distinct()) {
                list = new ArrayList<>(new LinkedHashSet<>(list));
            }
            if (call.order() != AggregateCall.Order.NONE) {
                Comparator<Object> values = CollectValues::compare;
                if (call.order().descending()) {
                    values = values.reversed();
                }
                list.sort(call.order().nullsFirst() ? Comparator.nullsFirst(values) : Comparator.nullsLast(values));
            }
            if (array) {
                List<String> elements = new ArrayList<>(list.size());
                for (Object v : list) {
                    elements.add(ArrayText.elementText(v, type));
                }
                out.setString(g, ArrayText.format(elements));
            } else {
                StringBuilder s = new StringBuilder();
                for (int k = 0; k < list.size(); k++) {
                    if (k > 0) {
                        s.append(call.separator());
                    }
                    s.append(list.get(k));
                }
                out.setString(g, s.toString());
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        return ((Comparable) a).compareTo(b);
    }
}
