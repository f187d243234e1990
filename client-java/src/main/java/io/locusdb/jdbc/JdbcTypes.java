package io.locusdb.jdbc;

import io.locusdb.protocol.WireType;
import java.sql.Types;
import java.time.Duration;
import java.time.Period;

/** How LocusDB's wire types appear through JDBC: java.sql.Types codes, sizes, Java classes. */
final class JdbcTypes {
    private JdbcTypes() {
    }

    static int sqlType(WireType t) {
        return sqlType(t.tag());
    }

    static int sqlType(int tag) {
        return switch (tag) {
            case WireType.BOOLEAN -> Types.BOOLEAN;
            case WireType.INTEGER -> Types.INTEGER;
            case WireType.BIGINT -> Types.BIGINT;
            case WireType.DOUBLE -> Types.DOUBLE;
            case WireType.DECIMAL -> Types.DECIMAL;
            case WireType.DATE -> Types.DATE;
            case WireType.TIMESTAMP -> Types.TIMESTAMP;
            case WireType.TIMESTAMP_TZ -> Types.TIMESTAMP_WITH_TIMEZONE;
            case WireType.VARCHAR -> Types.VARCHAR;
            case WireType.CHAR -> Types.CHAR;
            default -> Types.OTHER;
        };
    }

    /** Precision in digits for numbers, characters for strings (unbounded VARCHAR: Integer.MAX_VALUE). */
    static int precision(WireType t) {
        return switch (t.tag()) {
            case WireType.BOOLEAN -> 1;
            case WireType.INTEGER -> 10;
            case WireType.BIGINT -> 19;
            case WireType.DOUBLE -> 17;
            case WireType.DECIMAL -> t.precision();
            case WireType.DATE -> 10;
            case WireType.TIMESTAMP -> 26;
            case WireType.TIMESTAMP_TZ -> 35;
            case WireType.INTERVAL_DAY_TIME, WireType.INTERVAL_YEAR_MONTH -> 49;
            default -> t.length() == 0 ? Integer.MAX_VALUE : t.length();
        };
    }

    static int scale(WireType t) {
        return t.tag() == WireType.DECIMAL ? t.scale()
                : t.tag() == WireType.TIMESTAMP || t.tag() == WireType.TIMESTAMP_TZ ? 6 : 0;
    }

    static int displaySize(WireType t) {
        return switch (t.tag()) {
            case WireType.BOOLEAN -> 5;
            case WireType.INTEGER -> 11;
            case WireType.BIGINT -> 20;
            case WireType.DOUBLE -> 24;
            case WireType.DECIMAL -> t.precision() + (t.scale() > 0 ? 2 : 1);
            case WireType.DATE -> 10;
            case WireType.TIMESTAMP -> 26;
            case WireType.TIMESTAMP_TZ -> 35;
            case WireType.INTERVAL_DAY_TIME, WireType.INTERVAL_YEAR_MONTH -> 49;
            default -> t.length() == 0 ? Integer.MAX_VALUE : t.length();
        };
    }

    static boolean signed(WireType t) {
        return switch (t.tag()) {
            case WireType.INTEGER, WireType.BIGINT, WireType.DOUBLE, WireType.DECIMAL -> true;
            default -> false;
        };
    }

    static String className(WireType t) {
        return switch (t.tag()) {
            case WireType.BOOLEAN -> Boolean.class.getName();
            case WireType.INTEGER -> Integer.class.getName();
            case WireType.BIGINT -> Long.class.getName();
            case WireType.DOUBLE -> Double.class.getName();
            case WireType.DECIMAL -> java.math.BigDecimal.class.getName();
            case WireType.DATE -> java.sql.Date.class.getName();
            case WireType.TIMESTAMP -> java.sql.Timestamp.class.getName();
            case WireType.TIMESTAMP_TZ -> java.time.OffsetDateTime.class.getName();
            case WireType.INTERVAL_DAY_TIME -> Duration.class.getName();
            case WireType.INTERVAL_YEAR_MONTH -> Period.class.getName();
            default -> String.class.getName();
        };
    }
}
