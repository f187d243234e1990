package io.locusdb.core.query.plan;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.agg.GroupTable;
import io.locusdb.core.query.agg.StringIds;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/** The operators that run on a whole {@link Relation} after aggregation: filter, project, sort, limit. */
public final class RelationOps {
    private RelationOps() {
    }

    /** Rows where {@code condition} is true. */
    public static Relation filter(Relation in, Expr condition) {
        ColumnVector[] inputs = in.chunk().vectors();
        ColumnVector result = condition.eval(inputs, in.rows());
        int[] keep = new int[in.rows()];
        int n = Selection.trueRows(result, in.rows(), keep);
        List<ColumnVector> out = new ArrayList<>();
        for (ColumnVector c : in.columns()) {
            c.compact(keep, n);
            out.add(c);
        }
        return new Relation(out, in.names(), n);
    }

    public static Relation project(Relation in, List<Expr> exprs, List<String> names) {
        ColumnVector[] inputs = in.chunk().vectors();
        List<ColumnVector> out = new ArrayList<>(exprs.size());
        for (Expr e : exprs) {
            out.add(copy(e.eval(inputs, in.rows()), e.type(), in.rows()));
        }
        return new Relation(out, names, in.rows());
    }

    /** A vector of its own (expression outputs are buffers reused by the next evaluation). */
    static ColumnVector copy(ColumnVector v, ColumnType type, int rows) {
        ColumnVector c = new ColumnVector(type, Math.max(1, rows));
        for (int i = 0; i < rows; i++) {
            c.copyRow(v, i, i);
        }
        c.setSize(rows);
        return c;
    }

    /** ORDER BY (stable), then OFFSET and FETCH. */
    public static Relation sort(Relation in, List<PhysicalPlan.SortKey> keys, long offset, long fetch) {
        int rows = in.rows();
        Integer[] order = new Integer[rows];
        for (int i = 0; i < rows; i++) {
            order[i] = i;
        }
        if (!keys.isEmpty()) {
            Arrays.sort(order, comparator(in, keys));
        }
        int from = (int) Math.min(rows, Math.max(0, offset));
        int to = fetch < 0 ? rows : (int) Math.min(rows, from + Math.min(fetch, rows));
        int count = Math.max(0, to - from);
        List<ColumnVector> out = new ArrayList<>();
        for (ColumnVector c : in.columns()) {
            ColumnVector v = new ColumnVector(c.type(), Math.max(1, count));
            for (int i = 0; i < count; i++) {
                v.copyRow(c, order[from + i], i);
            }
            v.setSize(count);
            out.add(v);
        }
        return new Relation(out, in.names(), count);
    }

    private static Comparator<Integer> comparator(Relation in, List<PhysicalPlan.SortKey> keys) {
        Comparator<Integer> result = null;
        for (PhysicalPlan.SortKey key : keys) {
            ColumnVector v = in.columns().get(key.column());
            boolean descending = key.descending();
            boolean nullsFirst = key.nullsFirst();
            Comparator<Integer> values = valueComparator(v);
            Comparator<Integer> directed = descending ? values.reversed() : values;
            Comparator<Integer> field = (a, b) -> {
                boolean na = v.isNull(a);
                boolean nb = v.isNull(b);
                if (na || nb) {
                    return na == nb ? 0 : (na == nullsFirst ? -1 : 1);
                }
                return directed.compare(a, b);
            };
            result = result == null ? field : result.thenComparing(field);
        }
        return result;
    }

    private static Comparator<Integer> valueComparator(ColumnVector v) {
        return switch (v.physical()) {
            case LONG -> (a, b) -> Long.compare(v.longs()[a], v.longs()[b]);
            case DOUBLE -> (a, b) -> Double.compare(v.doubles()[a] + 0.0, v.doubles()[b] + 0.0);
            case STRING -> v.type().kind() == TypeKind.CHAR
                    ? (a, b) -> io.locusdb.core.query.expr.Comparison.compareStrings(v.string(a), v.string(b), true)
                    : (a, b) -> v.string(a).compareTo(v.string(b));
        };
    }

    /** GROUP BY over a relation in one table (for aggregation above VALUES; scans aggregate in parallel). */
    public static Relation aggregate(Relation in, int[] keys, List<AggregateCall> calls, List<String> names,
                                     List<ColumnType> outputTypes) {
        List<ColumnType> keyTypes = new ArrayList<>();
        ColumnVector[] keyColumns = new ColumnVector[keys.length];
        for (int k = 0; k < keys.length; k++) {
            keyColumns[k] = in.columns().get(keys[k]);
            keyTypes.add(keyColumns[k].type());
        }
        ColumnVector[] arguments = new ColumnVector[calls.size()];
        for (int a = 0; a < calls.size(); a++) {
            arguments[a] = calls.get(a).argument() < 0 ? null : in.columns().get(calls.get(a).argument());
        }
        GroupTable table = new GroupTable(keyTypes, calls, new StringIds());
        if (in.rows() > 0) {
            table.add(keyColumns, arguments, in.rows());
        }
        return finish(table, keys.length, outputTypes, names);
    }

    static Relation finish(GroupTable table, int keyCount, List<ColumnType> outputTypes, List<String> names) {
        ColumnVector[] keyOut = new ColumnVector[keyCount];
        ColumnVector[] aggOut = new ColumnVector[outputTypes.size() - keyCount];
        List<ColumnVector> all = new ArrayList<>();
        for (int i = 0; i < outputTypes.size(); i++) {
            ColumnVector v = new ColumnVector(outputTypes.get(i), Math.max(16, table.size()));
            if (i < keyCount) {
                keyOut[i] = v;
            } else {
                aggOut[i - keyCount] = v;
            }
            all.add(v);
        }
        table.finish(keyOut, aggOut);
        return new Relation(all, names, table.size());
    }
}
