package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;

/**
 * {@code INTERSECT ALL} and {@code EXCEPT ALL} as their distinct forms, which the engine runs, over rows numbered
 * within each group of equal rows ({@code ROW_NUMBER() OVER (PARTITION BY every column)}): the k-th copy of a row
 * is in both inputs exactly when both hold at least k copies, so the distinct INTERSECT of the numbered rows keeps
 * min(m, n) copies, and the distinct EXCEPT keeps the copies numbered past n: max(m - n, 0). Equal rows include
 * NULLs in the same places, as set operations compare them. More than two inputs fold from the left, each step's
 * result numbered again ({@code (a EXCEPT ALL b) EXCEPT ALL c}).
 */
final class AllSetOperations {
    private AllSetOperations() {
    }

    static RelNode rewrite(RelNode plan, RelBuilder builder) {
        return plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode node = super.visit(other);
                if (node instanceof SetOp op && op.all && (op instanceof Intersect || op instanceof Minus)) {
                    return distinctOverNumbered(op, builder);
                }
                return node;
            }
        });
    }

    private static RelNode distinctOverNumbered(SetOp op, RelBuilder b) {
        int fields = op.getRowType().getFieldCount();
        List<RelNode> inputs = op.getInputs();
        RelNode result = inputs.getFirst();
        for (int i = 1; i < inputs.size(); i++) {
            b.push(numbered(result, b)).push(numbered(inputs.get(i), b));
            if (op instanceof Intersect) {
                b.intersect(false);
            } else {
                b.minus(false);
            }
            List<RexNode> kept = new ArrayList<>(b.fields().subList(0, fields));
            result = b.project(kept, op.getRowType().getFieldNames()).build();
        }
        return result;
    }

    private static RelNode numbered(RelNode input, RelBuilder b) {
        b.push(input);
        RexNode copy = b.aggregateCall(SqlStdOperatorTable.ROW_NUMBER).over().partitionBy(b.fields())
                .as("$copy");
        return b.projectPlus(copy).build();
    }
}
