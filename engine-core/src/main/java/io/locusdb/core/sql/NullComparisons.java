package io.locusdb.core.sql;

import java.util.List;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A comparison with a NULL literal ({@code x = NULL}, {@code x BETWEEN NULL AND 5}) as the unknown it always is,
 * {@code CAST(NULL AS BOOLEAN)}: exactly what three-valued logic makes of it, under NOT, AND and OR alike. Calcite
 * refuses such comparisons among the predicates it infers over a plan, by an AssertionError that no setting turns off
 * (a DISTINCT over a HAVING with {@code col BETWEEN NULL AND NULL} failed to plan), so none reaches it. BETWEEN with a
 * NULL bound is spelled out as its two comparisons (both orders when SYMMETRIC), each then treated alike. A
 * comparison with a {@code ?} in it is left as it is: the rewrite would drop the parameter.
 */
final class NullComparisons {
    private static final List<SqlKind> COMPARISONS = List.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN,
            SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL);

    private NullComparisons() {
    }

    static SqlNode rewrite(SqlNode statement) {
        SqlNode rewritten = statement.accept(new SqlShuttle() {
            @Override
            public @Nullable SqlNode visit(SqlCall call) {
                SqlCall visited = (SqlCall) super.visit(call);
                if (visited == null) {
                    return null;
                }
                SqlParserPos pos = visited.getParserPosition();
                if (hasParameter(visited)) {
                    // Dropping the other operand would drop its ? too, and with it the statement's numbering of
                    // parameters.
                    return visited;
                }
                if (COMPARISONS.contains(visited.getKind()) && visited.getOperandList().stream()
                        .anyMatch(NullComparisons::isNull)) {
                    return unknown(pos);
                }
                if (visited.getOperator() instanceof SqlBetweenOperator between
                        && visited.getOperandList().stream().anyMatch(NullComparisons::isNull)) {
                    SqlNode value = visited.operand(SqlBetweenOperator.VALUE_OPERAND);
                    SqlNode lower = visited.operand(SqlBetweenOperator.LOWER_OPERAND);
                    SqlNode upper = visited.operand(SqlBetweenOperator.UPPER_OPERAND);
                    SqlNode within = within(value, lower, upper, pos);
                    if (between.flag == SqlBetweenOperator.Flag.SYMMETRIC) {
                        within = SqlStdOperatorTable.OR.createCall(pos, within, within(value, upper, lower, pos));
                    }
                    return between.isNegated() ? SqlStdOperatorTable.NOT.createCall(pos, within) : within;
                }
                return visited;
            }
        });
        return rewritten == null ? statement : rewritten;
    }

    /** {@code value >= lower AND value <= upper}, a comparison with a NULL literal as the unknown. */
    private static SqlNode within(SqlNode value, SqlNode lower, SqlNode upper, SqlParserPos pos) {
        SqlNode atLeast = isNull(value) || isNull(lower) ? unknown(pos)
                : SqlStdOperatorTable.GREATER_THAN_OR_EQUAL.createCall(pos, value, lower);
        SqlNode atMost = isNull(value) || isNull(upper) ? unknown(pos)
                : SqlStdOperatorTable.LESS_THAN_OR_EQUAL.createCall(pos, value, upper);
        return SqlStdOperatorTable.AND.createCall(pos, atLeast, atMost);
    }

    /** Whether {@code call} holds a {@code ?} anywhere in its operands. */
    private static boolean hasParameter(SqlCall call) {
        Boolean found = call.accept(new SqlBasicVisitor<Boolean>() {
            @Override
            public Boolean visit(SqlDynamicParam param) {
                return true;
            }

            @Override
            public Boolean visit(SqlCall nested) {
                for (SqlNode operand : nested.getOperandList()) {
                    if (operand != null && Boolean.TRUE.equals(operand.accept(this))) {
                        return true;
                    }
                }
                return false;
            }

            @Override
            public Boolean visit(SqlNodeList list) {
                for (SqlNode item : list) {
                    if (item != null && Boolean.TRUE.equals(item.accept(this))) {
                        return true;
                    }
                }
                return false;
            }
        });
        return Boolean.TRUE.equals(found);
    }

    private static boolean isNull(SqlNode node) {
        return SqlUtil.isNullLiteral(node, true);
    }

    private static SqlNode unknown(SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(pos, SqlLiteral.createNull(pos),
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.BOOLEAN, pos), pos));
    }
}
