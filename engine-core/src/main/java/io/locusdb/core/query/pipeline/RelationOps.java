package io.locusdb.core.query.pipeline;

import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.agg.GroupTable;
import io.locusdb.core.query.agg.StringIds;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.storage.type.ColumnType;
import java.util.ArrayList;
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

    /** ORDER BY (stable), then OFFSET and FETCH, on the calling thread. */
    public static Relation sort(Relation in, List<PhysicalPlan.SortKey> keys, long offset, long fetch) {
        return RelationSort.sort(in, keys, offset, fetch, null, null);
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
