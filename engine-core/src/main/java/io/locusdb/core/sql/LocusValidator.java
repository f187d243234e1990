package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidatorCatalogReader;
import org.apache.calcite.sql.validate.SqlValidatorImpl;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * Calcite's validator with parameter types inferred from the inside out where the outside cannot tell them.
 *
 * <p>Calcite infers a {@code ?}'s type top-down: an operator asks for its operands' types to type their unknown
 * operands. When an operand is itself an expression holding a {@code ?} whose type only its own operands can give
 * ({@code (CASE WHEN c = ? THEN 1 ELSE 2 END) + 1}), asking for that operand's type fails before the inner
 * {@code ?} is typed. Then the operands are typed on their own first (a comparison types its {@code ?} from the
 * other side, a CASE from its other branches, an IN list from its left side) and the call is typed again, so the
 * outer context still has the last word.
 *
 * <p>A {@code ?} that its surroundings type as a string is an unbounded VARCHAR, whatever the length of the
 * literal or column beside it.
 *
 * <p>PostgreSQL's date arithmetic on whole days, which the standard's operators refuse: {@code date + integer},
 * {@code integer + date} and {@code date - integer} are a DATE, {@code date - date} the INTEGER number of days
 * between. Such a {@code +} or {@code -} takes one of {@link LocusOperators}' date operators in place of the
 * standard one once its operands' types are known.
 */
final class LocusValidator extends SqlValidatorImpl {
    LocusValidator(SqlOperatorTable operators, SqlValidatorCatalogReader catalogReader,
                   RelDataTypeFactory typeFactory, Config config) {
        super(operators, catalogReader, typeFactory, config);
    }

    @Override
    public RelDataType deriveType(SqlValidatorScope scope, SqlNode expr) {
        if (expr instanceof SqlBasicCall call && call.operandCount() == 1
                && (call.getOperator() == SqlStdOperatorTable.SUM || call.getOperator() == SqlStdOperatorTable.AVG)
                && !(call.operand(0) instanceof SqlDynamicParam)
                && SqlTypeUtil.isInterval(deriveType(scope, call.operand(0)))) {
            // SUM and AVG of intervals, as PostgreSQL has them (the standard's SUM takes numbers only).
            boolean sum = call.getOperator() == SqlStdOperatorTable.SUM;
            if (!sum && deriveType(scope, call.operand(0)).getSqlTypeName().getFamily()
                    == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
                throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "AVG of a year-month interval (its"
                        + " average may hold a fraction of a month, which PostgreSQL turns into days, and an interval"
                        + " here holds months or days and time, not both)");
            }
            call.setOperator(sum ? LocusOperators.INTERVAL_SUM : LocusOperators.INTERVAL_AVG);
        }
        if (expr instanceof SqlBasicCall call && call.operandCount() == 2
                && (call.getOperator() == SqlStdOperatorTable.PLUS || call.getOperator() == SqlStdOperatorTable.MINUS)
                && !(call.operand(0) instanceof SqlDynamicParam) && !(call.operand(1) instanceof SqlDynamicParam)) {
            // Through this method, so that a difference of timestamps inside (t0 + (t1 - t0)) is recognised too.
            SqlTypeName left = deriveType(scope, call.operand(0)).getSqlTypeName();
            SqlTypeName right = deriveType(scope, call.operand(1)).getSqlTypeName();
            boolean plus = call.getOperator() == SqlStdOperatorTable.PLUS;
            if (plus && (left == SqlTypeName.DATE && isWholeNumber(right) || isWholeNumber(left)
                    && right == SqlTypeName.DATE)) {
                call.setOperator(LocusOperators.DATE_PLUS_DAYS);
            } else if (!plus && left == SqlTypeName.DATE && isWholeNumber(right)) {
                call.setOperator(LocusOperators.DATE_MINUS_DAYS);
            } else if (!plus && left == SqlTypeName.DATE && right == SqlTypeName.DATE) {
                call.setOperator(LocusOperators.DATE_DIFFERENCE);
            } else if (!plus && (left == SqlTypeName.TIMESTAMP || right == SqlTypeName.TIMESTAMP
                    || left == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                    || right == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE)
                    && SqlTypeName.DATETIME_TYPES.contains(left) && SqlTypeName.DATETIME_TYPES.contains(right)) {
                // As in PostgreSQL: an interval of days and time (a DATE counts as its midnight).
                call.setOperator(LocusOperators.TIMESTAMP_DIFFERENCE);
            }
        }
        return super.deriveType(scope, expr);
    }

    private static boolean isWholeNumber(SqlTypeName type) {
        return type == SqlTypeName.INTEGER || type == SqlTypeName.BIGINT || type == SqlTypeName.SMALLINT
                || type == SqlTypeName.TINYINT;
    }

    @Override
    protected void inferUnknownTypes(RelDataType inferredType, SqlValidatorScope scope, SqlNode node) {
        if (node instanceof SqlDynamicParam && SqlTypeUtil.inCharFamily(inferredType)) {
            // A ? typed from 'a' or a CHAR(3) column is any string: as CHAR(1) a bound 'abc' would be cut to 'a'.
            super.inferUnknownTypes(typeFactory.createTypeWithNullability(
                    typeFactory.createSqlType(SqlTypeName.VARCHAR), inferredType.isNullable()), scope, node);
            return;
        }
        if (!(node instanceof SqlCall call) || node.isA(SqlKind.QUERY) || !containsParameter(call)) {
            super.inferUnknownTypes(inferredType, scope, node);
            return;
        }
        try {
            super.inferUnknownTypes(inferredType, scope, node);
        } catch (RuntimeException first) {
            boolean typedAny = false;
            for (SqlCall inner : innerCalls(call)) {
                try {
                    inferUnknownTypes(unknownType, scope, inner);
                    typedAny = true;
                } catch (RuntimeException stillUnknown) {
                    // The outer context must type this operand; the retry below gives it the chance.
                }
            }
            if (!typedAny) {
                throw first;
            }
            super.inferUnknownTypes(inferredType, scope, node);
        }
    }

    /** The operands of a call that are calls holding a parameter, looking into lists (a CASE's WHEN and THEN). */
    private static List<SqlCall> innerCalls(SqlCall call) {
        List<SqlCall> out = new ArrayList<>();
        for (SqlNode operand : call.getOperandList()) {
            if (operand instanceof SqlNodeList list) {
                for (SqlNode element : list) {
                    addIfTypable(element, out);
                }
            } else {
                addIfTypable(operand, out);
            }
        }
        return out;
    }

    private static void addIfTypable(SqlNode node, List<SqlCall> out) {
        if (node instanceof SqlCall inner && !inner.isA(SqlKind.QUERY) && containsParameter(inner)) {
            out.add(inner);
        }
    }

    private static boolean containsParameter(SqlCall call) {
        boolean[] found = new boolean[1];
        call.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlDynamicParam param) {
                found[0] = true;
                return null;
            }
        });
        return found[0];
    }
}
