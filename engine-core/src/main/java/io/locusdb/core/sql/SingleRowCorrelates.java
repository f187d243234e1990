package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.Strong;
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
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Correlates whose right side gives exactly one row for every left row (an aggregate without GROUP BY, as in
 * {@code FROM t, LATERAL (SELECT max(c), count(*) FROM u WHERE u.a = t.a)}), made left correlates with their counts
 * right, before decorrelation. The decorrelator turns the right side into an aggregate grouped by the correlation
 * columns, which has no row for a left row with no matches: joined inner, that left row was lost, where PostgreSQL
 * and DuckDB keep it with the aggregates of no rows (NULL, and 0 for a count); joined left, it comes with NULLs,
 * also for counts beside other aggregates. So inner ones become left ones, and a count's NULL, which only a left row
 * without matches gets, becomes 0 in a projection above, which also gives the columns their old types back. Only
 * where every column of the right side is an aggregate call whose value over no rows is NULL, an expression NULL
 * when those are ({@code max(c) + 1}), or a count: other expressions over aggregates ({@code coalesce(max(c), 0)},
 * {@code count(*) + 1}), a HAVING or a LIMIT above the aggregate stay as they are, and a comma or CROSS JOIN LATERAL of them loses the left rows with no match (a known
 * limit).
 */
final class SingleRowCorrelates {
    /** Aggregates whose value over no rows is NULL, which the left join gives a left row without matches. */
    private static final Set<SqlKind> NULL_OF_NO_ROWS = EnumSet.of(SqlKind.MIN, SqlKind.MAX, SqlKind.SUM,
            SqlKind.AVG, SqlKind.ANY_VALUE, SqlKind.STDDEV_POP, SqlKind.STDDEV_SAMP, SqlKind.VAR_POP,
            SqlKind.VAR_SAMP);

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
                SqlKind[] aggregates = aggregateColumns(correlate.getRight());
                if (aggregates == null) {
                    return visited;
                }
                boolean[] counts = new boolean[aggregates.length];
                for (int i = 0; i < aggregates.length; i++) {
                    counts[i] = aggregates[i] == SqlKind.COUNT;
                    if (!counts[i] && !NULL_OF_NO_ROWS.contains(aggregates[i])) {
                        return visited;
                    }
                }
                if (correlate.getJoinType() == JoinRelType.LEFT && !any(counts)) {
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
     * ({@code counts}, indexed from the right side's first column) 0 where it is NULL.
     */
    private static RelNode countsOfNoRowsAsZero(RelNode rel, int leftColumns, boolean[] counts, RelDataType type) {
        RexBuilder rex = rel.getCluster().getRexBuilder();
        List<RexNode> fields = new ArrayList<>();
        for (RelDataTypeField field : type.getFieldList()) {
            int i = field.getIndex();
            RexNode value = rex.makeInputRef(rel, i);
            if (i >= leftColumns && counts[i - leftColumns]) {
                value = rex.makeCall(SqlStdOperatorTable.COALESCE, value,
                        rex.makeZeroLiteral(value.getType()));
            }
            fields.add(value.getType().equals(field.getType()) ? value
                    : rex.makeCast(field.getType(), value, true, false));
        }
        return LogicalProject.create(rel, List.of(), fields, type.getFieldNames(), Set.of());
    }

    /**
     * For each column of {@code rel}, the kind of the aggregate call it is, where {@code rel} is an aggregate without
     * GROUP BY below projections that only pick columns, the top one of which may also compute expressions that are
     * NULL when the aggregates they read are (as {@code max(c) + 1}; those count as NULL over no rows, kind MAX);
     * null otherwise (an expression that is not NULL then, a HAVING, a LIMIT: what such a column holds over no rows
     * is not known here).
     */
    private static SqlKind[] aggregateColumns(RelNode rel) {
        if (rel instanceof Project top && !top.getProjects().stream().allMatch(e -> e instanceof RexInputRef)) {
            SqlKind[] below = pickedAggregates(top.getInput());
            if (below == null) {
                return null;
            }
            ImmutableBitSet nullOverNoRows = ImmutableBitSet.of();
            for (int i = 0; i < below.length; i++) {
                if (NULL_OF_NO_ROWS.contains(below[i])) {
                    nullOverNoRows = nullOverNoRows.set(i);
                }
            }
            SqlKind[] kinds = new SqlKind[top.getProjects().size()];
            for (int i = 0; i < kinds.length; i++) {
                RexNode e = top.getProjects().get(i);
                if (e instanceof RexInputRef ref) {
                    kinds[i] = below[ref.getIndex()];
                } else if (nullOverNoRows.contains(RelOptUtil.InputFinder.bits(e))
                        && Strong.isNull(e, nullOverNoRows)) {
                    kinds[i] = SqlKind.MAX;
                } else {
                    return null;
                }
            }
            return kinds;
        }
        return pickedAggregates(rel);
    }

    /** {@link #aggregateColumns} where every projection only picks columns. */
    private static SqlKind[] pickedAggregates(RelNode rel) {
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
        SqlKind[] kinds = new SqlKind[columns];
        for (int i = 0; i < columns; i++) {
            kinds[i] = aggregate.getAggCallList().get(source[i]).getAggregation().getKind();
        }
        return kinds;
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
