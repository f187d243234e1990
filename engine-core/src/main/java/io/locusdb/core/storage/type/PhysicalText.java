package io.locusdb.core.storage.type;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.ZoneOffset;

/** A stored (physical) value written back as its SQL value: as text for messages, or as a typed SQL literal. */
public final class PhysicalText {
    private PhysicalText() {
    }

    /** The value as PostgreSQL prints it in a message ({@code Key (k)=(42)}); "NULL" for null. */
    public static String of(ColumnType type, Object value) {
        if (value == null) {
            return "NULL";
        }
        return switch (type.kind()) {
            case BOOLEAN -> ((Long) value) != 0 ? "t" : "f";
            case DECIMAL -> BigDecimal.valueOf((Long) value, type.scale()).toPlainString();
            case DATE -> LocalDate.ofEpochDay((Long) value).toString();
            case TIMESTAMP -> Timestamps.format((Long) value);
            case TIMESTAMP_TZ -> ZonedTimestamps.format((Long) value, ZoneOffset.UTC);
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> Intervals.text(type.kind(), (Long) value);
            default -> value.toString();
        };
    }

    /** An SQL expression of exactly {@code type} with this value (a typed NULL for null). */
    public static String literal(ColumnType type, Object value) {
        if (value == null) {
            return "CAST(NULL AS " + type + ")";
        }
        return switch (type.kind()) {
            case BOOLEAN -> ((Long) value) != 0 ? "TRUE" : "FALSE";
            case INTEGER, BIGINT, DECIMAL -> "CAST(" + of(type, value) + " AS " + type + ")";
            case DOUBLE -> {
                double d = (Double) value;
                String digits = Double.toString(d);
                yield Double.isFinite(d) ? "CAST(" + (digits.contains("E") ? digits : digits + "E0") + " AS DOUBLE)"
                        : "CAST('" + (Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity") + "' AS DOUBLE)";
            }
            case DATE -> "DATE '" + of(type, value) + "'";
            case TIMESTAMP -> "TIMESTAMP '" + of(type, value) + "'";
            // With its offset, so that the session's zone does not change the instant.
            case TIMESTAMP_TZ -> "TIMESTAMPTZ '" + of(type, value) + "'";
            case VARCHAR, CHAR -> "CAST('" + ((String) value).replace("'", "''") + "' AS " + type + ")";
            // The standard's literal in the family's smallest unit, which the parser reads back exactly.
            case INTERVAL_DAY_TIME -> "INTERVAL '" + BigDecimal.valueOf((Long) value, 6).toPlainString() + "' SECOND";
            case INTERVAL_YEAR_MONTH -> "INTERVAL '" + value + "' MONTH";
        };
    }
}
