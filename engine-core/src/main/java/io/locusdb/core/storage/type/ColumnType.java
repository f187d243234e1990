package io.locusdb.core.storage.type;

import java.util.Locale;

/**
 * A column's SQL type with its parameters: precision and scale for DECIMAL, maximum length (in characters) for
 * VARCHAR and CHAR (0 = unbounded VARCHAR).
 */
public record ColumnType(TypeKind kind, int precision, int scale, int length) {
    public static final int MAX_DECIMAL_PRECISION = 18;

    public static final ColumnType BOOLEAN = new ColumnType(TypeKind.BOOLEAN, 0, 0, 0);
    public static final ColumnType INTEGER = new ColumnType(TypeKind.INTEGER, 0, 0, 0);
    public static final ColumnType BIGINT = new ColumnType(TypeKind.BIGINT, 0, 0, 0);
    public static final ColumnType DOUBLE = new ColumnType(TypeKind.DOUBLE, 0, 0, 0);
    public static final ColumnType DATE = new ColumnType(TypeKind.DATE, 0, 0, 0);
    public static final ColumnType TIMESTAMP = new ColumnType(TypeKind.TIMESTAMP, 0, 0, 0);
    public static final ColumnType TIMESTAMP_TZ = new ColumnType(TypeKind.TIMESTAMP_TZ, 0, 0, 0);
    public static final ColumnType VARCHAR = new ColumnType(TypeKind.VARCHAR, 0, 0, 0);
    public static final ColumnType INTERVAL_DAY_TIME = new ColumnType(TypeKind.INTERVAL_DAY_TIME, 0, 0, 0);
    public static final ColumnType INTERVAL_YEAR_MONTH = new ColumnType(TypeKind.INTERVAL_YEAR_MONTH, 0, 0, 0);

    public ColumnType {
        if (kind == TypeKind.DECIMAL && (precision < 1 || precision > MAX_DECIMAL_PRECISION || scale < 0
                || scale > precision)) {
            throw new IllegalArgumentException("DECIMAL(" + precision + "," + scale + ") is not supported: need 1 ≤ p ≤ "
                    + MAX_DECIMAL_PRECISION + " and 0 ≤ s ≤ p");
        }
        if ((kind == TypeKind.CHAR || kind == TypeKind.VARCHAR) && length < 0) {
            throw new IllegalArgumentException(kind + " length must be ≥ 0, got " + length);
        }
        if (kind == TypeKind.CHAR && length == 0) {
            throw new IllegalArgumentException("CHAR needs a length ≥ 1");
        }
    }

    public static ColumnType decimal(int precision, int scale) {
        return new ColumnType(TypeKind.DECIMAL, precision, scale, 0);
    }

    public static ColumnType varchar(int length) {
        return new ColumnType(TypeKind.VARCHAR, 0, 0, length);
    }

    public static ColumnType character(int length) {
        return new ColumnType(TypeKind.CHAR, 0, 0, length);
    }

    public TypeKind.Physical physical() {
        return kind.physical();
    }

    /** SQL spelling, e.g. {@code DECIMAL(15,2)}. */
    @Override
    public String toString() {
        return switch (kind) {
            case DECIMAL -> String.format(Locale.ROOT, "DECIMAL(%d,%d)", precision, scale);
            case VARCHAR -> length == 0 ? "VARCHAR" : "VARCHAR(" + length + ")";
            case CHAR -> "CHAR(" + length + ")";
            case INTERVAL_DAY_TIME -> "INTERVAL DAY TO SECOND";
            case INTERVAL_YEAR_MONTH -> "INTERVAL YEAR TO MONTH";
            case TIMESTAMP_TZ -> "TIMESTAMP WITH TIME ZONE";
            default -> kind.name();
        };
    }
}
