package io.locusdb.core.sql;

import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's type factory with one rule changed: the common type of exact numbers (the branches of CASE, COALESCE,
 * NULLIF, IN lists) keeps every fraction digit of its inputs. Calcite keeps the integer digits instead and gives up
 * scale once 18 digits do not hold both, so {@code COALESCE(decimal(15,2), bigint)} became DECIMAL(18,0) and every
 * value was rounded. Here it is DECIMAL(18,2): values whose integer part needs more than 16 digits then fail with
 * SQLSTATE 22003 when they are cast, instead of being rounded silently.
 */
public final class LocusTypeFactory extends JavaTypeFactoryImpl {
    public LocusTypeFactory() {
        super(LocusTypeSystem.INSTANCE);
    }

    @Override
    public @Nullable RelDataType leastRestrictive(List<RelDataType> types) {
        RelDataType common = super.leastRestrictive(types);
        if (common == null || common.getSqlTypeName() != SqlTypeName.DECIMAL) {
            return common;
        }
        int scale = 0;
        int integerDigits = 0;
        for (RelDataType type : types) {
            if (type.getSqlTypeName() == SqlTypeName.NULL) {
                continue;
            }
            if (!SqlTypeUtil.isExactNumeric(type)) {
                return common;
            }
            int typeScale = type.getSqlTypeName() == SqlTypeName.DECIMAL ? Math.max(0, type.getScale()) : 0;
            scale = Math.max(scale, typeScale);
            integerDigits = Math.max(integerDigits, integerDigits(type) - typeScale);
        }
        int max = getTypeSystem().getMaxNumericPrecision();
        scale = Math.min(scale, getTypeSystem().getMaxNumericScale());
        int precision = Math.max(1, Math.min(max, integerDigits + scale));
        RelDataType widened = createSqlType(SqlTypeName.DECIMAL, precision, scale);
        return createTypeWithNullability(widened, common.isNullable());
    }

    private static int integerDigits(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case TINYINT -> 3;
            case SMALLINT -> 5;
            case INTEGER -> 10;
            case BIGINT -> 19;
            default -> type.getPrecision();
        };
    }
}
