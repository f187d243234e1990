package io.locusdb.protocol;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;

/**
 * A SQL type as the protocol carries it: a tag plus precision/scale (DECIMAL) or length (VARCHAR, CHAR).
 */
public record WireType(int tag, int precision, int scale, int length) {
    public static final int BOOLEAN = 1;
    public static final int INTEGER = 2;
    public static final int BIGINT = 3;
    public static final int DOUBLE = 4;
    public static final int DECIMAL = 5;
    public static final int DATE = 6;
    public static final int VARCHAR = 7;
    public static final int CHAR = 8;
    /** Microseconds since 1970-01-01 00:00:00, without time zone, as an i64. */
    public static final int TIMESTAMP = 9;
    public static final int MAX_DECIMAL_PRECISION = 38;

    public WireType {
        if (tag < BOOLEAN || tag > TIMESTAMP) {
            throw ProtocolException.malformed("unknown type tag " + tag);
        }
        if (tag == DECIMAL && (precision < 1 || precision > MAX_DECIMAL_PRECISION || scale < 0 || scale > precision)) {
            throw ProtocolException.malformed("DECIMAL(" + precision + "," + scale + ") is not a valid type");
        }
        if (length < 0) {
            throw ProtocolException.malformed("type length " + length + " is negative");
        }
    }

    public static WireType of(int tag) {
        return new WireType(tag, 0, 0, 0);
    }

    public static WireType decimal(int precision, int scale) {
        return new WireType(DECIMAL, precision, scale, 0);
    }

    public static WireType varchar(int length) {
        return new WireType(VARCHAR, 0, 0, length);
    }

    public static WireType character(int length) {
        return new WireType(CHAR, 0, 0, length);
    }

    /** A date-time as a TIMESTAMP value: microseconds since 1970-01-01 00:00:00 (nanoseconds beyond are cut). */
    public static long micros(LocalDateTime t) {
        return Math.addExact(Math.multiplyExact(t.toEpochSecond(ZoneOffset.UTC), 1_000_000L), t.getNano() / 1000);
    }

    /** A TIMESTAMP value as a date-time. */
    public static LocalDateTime dateTime(long micros) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
    }

    public boolean isString() {
        return tag == VARCHAR || tag == CHAR;
    }

    /** The type name without parameters. */
    public String name() {
        return switch (tag) {
            case BOOLEAN -> "BOOLEAN";
            case INTEGER -> "INTEGER";
            case BIGINT -> "BIGINT";
            case DOUBLE -> "DOUBLE";
            case DECIMAL -> "DECIMAL";
            case DATE -> "DATE";
            case VARCHAR -> "VARCHAR";
            case TIMESTAMP -> "TIMESTAMP";
            default -> "CHAR";
        };
    }

    /** SQL spelling, e.g. {@code DECIMAL(15,2)}, {@code VARCHAR(25)}. */
    @Override
    public String toString() {
        return switch (tag) {
            case DECIMAL -> String.format(Locale.ROOT, "DECIMAL(%d,%d)", precision, scale);
            case VARCHAR -> length == 0 ? "VARCHAR" : "VARCHAR(" + length + ")";
            case CHAR -> "CHAR(" + length + ")";
            default -> name();
        };
    }
}
