package io.locusdb.core.query.planner;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.ColumnType;
import org.apache.calcite.rel.type.RelDataType;

/** Calcite types to the types LocusDB computes with. */
public final class SqlTypes {
    private SqlTypes() {
    }

    public static ColumnType of(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> ColumnType.BOOLEAN;
            case TINYINT, SMALLINT, INTEGER -> ColumnType.INTEGER;
            case BIGINT -> ColumnType.BIGINT;
            case DECIMAL -> {
                int scale = Math.max(0, type.getScale());
                int precision = Math.max(Math.max(1, type.getPrecision()), scale);
                if (precision > ColumnType.MAX_DECIMAL_PRECISION) {
                    throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "DECIMAL(" + precision + ","
                            + scale + ") needs more than " + ColumnType.MAX_DECIMAL_PRECISION + " digits");
                }
                yield ColumnType.decimal(precision, scale);
            }
            case FLOAT, REAL, DOUBLE -> ColumnType.DOUBLE;
            case DATE -> ColumnType.DATE;
            case TIMESTAMP -> ColumnType.TIMESTAMP;
            // PostgreSQL's timestamptz is an instant, shown in the session's zone: Calcite's TIMESTAMP WITH LOCAL TIME
            // ZONE. Its TIMESTAMP WITH TIME ZONE (a time with its own zone) only reaches here from a cast the front
            // end did not rewrite.
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_TZ -> ColumnType.TIMESTAMP_TZ;
            case CHAR -> ColumnType.character(Math.max(1, type.getPrecision()));
            case VARCHAR -> ColumnType.varchar(Math.max(0, type.getPrecision()));
            case NULL -> ColumnType.VARCHAR;
            case INTERVAL_DAY, INTERVAL_DAY_HOUR, INTERVAL_DAY_MINUTE, INTERVAL_DAY_SECOND, INTERVAL_HOUR,
                 INTERVAL_HOUR_MINUTE, INTERVAL_HOUR_SECOND, INTERVAL_MINUTE, INTERVAL_MINUTE_SECOND, INTERVAL_SECOND ->
                    ColumnType.INTERVAL_DAY_TIME;
            case INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH -> ColumnType.INTERVAL_YEAR_MONTH;
            // An array is computed with as its PostgreSQL text ({1,2}): see ArrayText.
            case ARRAY -> {
                of(type.getComponentType());
                yield ColumnType.VARCHAR;
            }
            default -> throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "values of type "
                    + type.getFullTypeString() + " are not supported (LocusDB computes with BOOLEAN, INTEGER,"
                    + " BIGINT, DECIMAL(p≤18,s), DOUBLE, DATE, TIMESTAMP, TIMESTAMP WITH TIME ZONE, INTERVAL, CHAR and VARCHAR)");
        };
    }
}
