package io.locusdb.core.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Calcite's type rules fitted to how LocusDB computes: exact numerics are scaled longs, so DECIMAL tops out at 18
 * digits (arithmetic that would need more fails with SQLSTATE 22003 instead of silently rounding); SUM widens
 * integers to BIGINT and decimals to DECIMAL(18, s); AVG is DOUBLE, as in DuckDB and most analytical engines,
 * rather than truncated to the argument's type. TIMESTAMP keeps microseconds (precision 6, PostgreSQL's), where
 * Calcite's default would round literals and parameters to milliseconds.
 */
public final class LocusTypeSystem extends RelDataTypeSystemImpl {
    public static final LocusTypeSystem INSTANCE = new LocusTypeSystem();
    public static final int MAX_PRECISION = 18;
    private static final int TIMESTAMP_PRECISION = 6;

    private LocusTypeSystem() {
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_PRECISION : isTimestamp(typeName)
                ? TIMESTAMP_PRECISION : super.getMaxPrecision(typeName);
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_PRECISION : super.getMaxScale(typeName);
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_PRECISION : isTimestamp(typeName)
                ? TIMESTAMP_PRECISION : super.getDefaultPrecision(typeName);
    }

    private static boolean isTimestamp(SqlTypeName typeName) {
        return typeName == SqlTypeName.TIMESTAMP || typeName == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                || typeName == SqlTypeName.TIMESTAMP_TZ;
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        RelDataType widened;
        if (SqlTypeUtil.isIntType(argumentType)) {
            widened = typeFactory.createSqlType(SqlTypeName.BIGINT);
        } else if (argumentType.getSqlTypeName() == SqlTypeName.DECIMAL) {
            widened = typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_PRECISION, argumentType.getScale());
        } else if (SqlTypeUtil.isApproximateNumeric(argumentType)) {
            widened = typeFactory.createSqlType(SqlTypeName.DOUBLE);
        } else {
            return argumentType;
        }
        return typeFactory.createTypeWithNullability(widened, argumentType.isNullable());
    }

    /** CASE WHEN .. THEN 'big' ELSE 'small' END is VARCHAR, not CHAR(5) padding 'big' with blanks. */
    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE),
                argumentType.isNullable());
    }
}
