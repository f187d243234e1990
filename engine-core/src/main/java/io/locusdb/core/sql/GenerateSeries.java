package io.locusdb.core.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlTableFunction;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code generate_series(start, stop [, step])} as a table function ({@code FROM
 * generate_series(1, 10) AS i}): one column named {@code generate_series}, INTEGER when every argument is an
 * INTEGER (or smaller), BIGINT otherwise; or over timestamps (or dates) with an interval step, a TIMESTAMP column.
 * The engine computes it as a source (see the planner's set functions).
 */
public final class GenerateSeries extends SqlFunction implements SqlTableFunction {
    public static final GenerateSeries INSTANCE = new GenerateSeries();
    public static final String NAME = "GENERATE_SERIES";

    private GenerateSeries() {
        super(NAME, SqlKind.OTHER_FUNCTION, ReturnTypes.CURSOR, null,
                OperandTypes.family(SqlTypeFamily.EXACT_NUMERIC, SqlTypeFamily.EXACT_NUMERIC)
                        .or(OperandTypes.family(SqlTypeFamily.EXACT_NUMERIC, SqlTypeFamily.EXACT_NUMERIC,
                                SqlTypeFamily.EXACT_NUMERIC))
                        .or(OperandTypes.family(SqlTypeFamily.DATETIME, SqlTypeFamily.DATETIME,
                                SqlTypeFamily.DATETIME_INTERVAL)),
                SqlFunctionCategory.USER_DEFINED_TABLE_FUNCTION);
    }

    @Override
    public SqlReturnTypeInference getRowTypeInference() {
        return GenerateSeries::rowType;
    }

    private static RelDataType rowType(SqlOperatorBinding binding) {
        RelDataTypeFactory types = binding.getTypeFactory();
        if (binding.getOperandCount() == 3 && SqlTypeName.DATETIME_TYPES.contains(
                binding.getOperandType(0).getSqlTypeName())) {
            // Instants when start or stop is one, as PostgreSQL's generate_series(timestamptz, ...).
            boolean instants = binding.getOperandType(0).getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                    || binding.getOperandType(1).getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
            return types.builder().add("generate_series", types.createSqlType(instants
                    ? SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE : SqlTypeName.TIMESTAMP, 6)).build();
        }
        boolean integer = true;
        for (int i = 0; i < binding.getOperandCount(); i++) {
            RelDataType t = binding.getOperandType(i);
            SqlTypeName name = t.getSqlTypeName();
            boolean small = name == SqlTypeName.TINYINT || name == SqlTypeName.SMALLINT
                    || name == SqlTypeName.INTEGER || name == SqlTypeName.NULL;
            // An integer literal is INTEGER when it fits (PostgreSQL types the literal 1 as int4 too).
            if (name == SqlTypeName.DECIMAL && t.getScale() == 0 && binding.isOperandLiteral(i, false)) {
                Long value = binding.getOperandLiteralValue(i, Long.class);
                small = value != null && value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
            }
            if (name == SqlTypeName.DECIMAL && t.getScale() > 0) {
                throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED,
                        "generate_series over numbers with a fraction is not supported (integers only)");
            }
            integer &= small;
        }
        return types.builder()
                .add("generate_series", types.createSqlType(integer ? SqlTypeName.INTEGER : SqlTypeName.BIGINT))
                .build();
    }
}
