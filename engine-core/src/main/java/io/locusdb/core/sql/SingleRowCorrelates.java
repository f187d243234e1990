package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Correlates whose right side gives exactly one row for every left row (an aggregate without GROUP BY, as in
 * {@code FROM t, LATERAL (SELECT max(c), count(*) FROM u WHERE u.a = t.a)}), made left correlates with their counts
 * right, before decorrelation. The decorrelator turns the right side into an aggregate grouped by the correlation
 * columns, which has no row for a left row with no matches: joined inner, that left row was lost, where PostgreSQL
 * and DuckDB keep it with the aggregates of no rows (NULL, and 0 for a count); joined left, it comes with NULLs,
 * also for counts beside other aggregates. So inner ones become left ones, and a count's NULL, which only a left row
 * without matches gets, becomes 0 in a projection above, which also gives the columns their old types back. A
 * right side with a column that is never NULL but not a count (an expression over a count) stays as it is, and
 * loses the left rows with no match: a known limit.
 */
final class SingleRowCorrelates {
    private SingleRowCorrelates() {
    }

    static RelNode asLeft(RelNode rel) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                if (!(visited instanceof LogicalCorrelate correlate)
                        || correlate.getJoinType() != JoinRelType.INNER && correlate.getJoinType() != JoinRelType.LEFT
                        || !exactlyOneRow(correlate.getRight())) {
                    return visited;
                }
                boolean[] counts = countColumns(correlate.getRight());
                List<RelDataTypeField> right = correlate.getRight().getRowType().getFieldList();
                for (int i = 0; i < right.size(); i++) {
                    if (!right.get(i).getType().isNullable() && (counts == null || !counts[i])) {
                        return visited;
                    }
                }
                if (correlate.getJoinType() == JoinRelType.LEFT && (counts == null || !any(counts))) {
                    return visited;
                }
                Correlate left = correlate.getJoinType() == JoinRelType.LEFT ? correlate
                        : correlate.copy(correlate.getTraitSet(), correlate.getLeft(), correlate.getRight(),
                                correlate.getCorrelationId(), correlate.getRequiredColumns(), JoinRelType.LEFT);
                return countsOfNoRowsAsZero(left, correlate.getLeft().getRowType().getFieldCount(), counts,
                        correlate.getRowType());
            }
        });
    }

    /**
     * Above a left correlate: its columns with the types of {@code type}, each right column that is a count
     * ({@code counts}, indexed from the right side's first column; null: none) 0 where it is NULL.
     */
    private static RelNode countsOfNoRowsAsZero(RelNode rel, int leftColumns, boolean[] counts, RelDataType type) {
        RexBuilder rex = rel.getCluster().getRexBuilder();
        List<RexNode> fields = new ArrayList<>();
        for (RelDataTypeField field : type.getFieldList()) {
            int i = field.getIndex();
            RexNode value = rex.makeInputRef(rel, i);
            if (i >= leftColumns && counts != null && counts[i - leftColumns]) {
                value = rex.makeCall(SqlStdOperatorTable.COALESCE, value,
                        rex.makeZeroLiteral(value.getType()));
            }
            fields.add(value.getType().equals(field.getType()) ? value
                    : rex.makeCast(field.getType(), value, true, false));
        }
        return LogicalProject.create(rel, List.of(), fields, type.getFieldNames(), Set.of());
    }

    /**
     * For each column of {@code rel}: whether it is a COUNT of an aggregate without GROUP BY below projections that
     * only pick columns; null when {@code rel} is not such an aggregate.
     */
    private static boolean[] countColumns(RelNode rel) {
        int columns = rel.getRowType().getFieldCount();
        int[] source = new int[columns];
        for (int i = 0; i < columns; i++) {
            source[i] = i;
        }
        RelNode at = rel;
        while (at instanceof Project project) {
            for (int i = 0; i < columns; i++) {
                if (!(project.getProjects().get(source[i]) instanceof RexInputRef ref)) {
                    return null;
                }
                source[i] = ref.getIndex();
            }
            at = project.getInput();
        }
        if (!(at instanceof Aggregate aggregate) || aggregate.getGroupCount() != 0) {
            return null;
        }
        boolean[] counts = new boolean[columns];
        for (int i = 0; i < columns; i++) {
            counts[i] = aggregate.getAggCallList().get(source[i]).getAggregation().getKind() == SqlKind.COUNT;
        }
        return counts;
    }

    private static boolean any(boolean[] flags) {
        for (boolean f : flags) {
            if (f) {
                return true;
            }
        }
        return false;
    }

    private static boolean exactlyOneRow(RelNode rel) {
        RelMetadataQuery mq = rel.getCluster().getMetadataQuery();
        Double max = mq.getMaxRowCount(rel);
        Double min = mq.getMinRowCount(rel);
        return max != null && max <= 1 && min != null && min >= 1;
    }
}
