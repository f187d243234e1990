package io.locusdb.core.sql;

import java.math.BigDecimal;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidator;

/**
 * Checks, after validation, that every exact number written in a VALUES list fits the column type the list's rows
 * share. That type keeps every fraction digit of its values within 18 digits, so {@code VALUES
 * (0.14285714285714285), (8571.43)} is DECIMAL(18,17), which cannot hold 8571.43; Calcite then fails while it builds
 * the literal, inside the planner. Found here, the statement gets SQLSTATE 22003 naming the value, its position and
 * the way out, as a cast of a column would.
 */
final class ValuesLiteralFit {
    private ValuesLiteralFit() {
    }

    static void check(SqlValidator validator, SqlNode validated) {
        validated.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call.getKind() == SqlKind.VALUES) {
                    checkValues(validator, call);
                }
                return super.visit(call);
            }
        });
    }

    private static void checkValues(SqlValidator validator, SqlCall values) {
        RelDataType rowType = validator.getValidatedNodeTypeIfKnown(values);
        if (rowType == null) {
            return;
        }
        for (SqlNode row : values.getOperandList()) {
            if (!(row instanceof SqlCall tuple) || tuple.getKind() != SqlKind.ROW) {
                continue;
            }
            for (int c = 0; c < tuple.operandCount() && c < rowType.getFieldCount(); c++) {
                RelDataType type = rowType.getFieldList().get(c).getType();
                if (type.getSqlTypeName() == SqlTypeName.DECIMAL
                        && tuple.operand(c) instanceof SqlNumericLiteral literal && literal.isExact()) {
                    BigDecimal value = literal.getValueAs(BigDecimal.class);
                    // Calcite's own test of the literal it is about to make (a scale above the precision allowed).
                    if (!SqlTypeUtil.isValidDecimalValue(value, type)) {
                        throw new LocusSqlException(SqlState.NUMERIC_OUT_OF_RANGE, "VALUES column " + (c + 1)
                                + ": " + value.toPlainString() + " does not fit DECIMAL(" + type.getPrecision()
                                + "," + type.getScale() + "), the type the list's rows share (every fraction digit"
                                + " of its values, at most " + type.getPrecision() + " digits); cast the values to a"
                                + " type that holds them all, e.g. CAST(" + value.toPlainString() + " AS DOUBLE)",
                                literal.getParserPosition().getLineNum(),
                                literal.getParserPosition().getColumnNum(), null);
                    }
                }
            }
        }
    }
}
