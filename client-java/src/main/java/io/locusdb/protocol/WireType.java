package io.locusdb.protocol;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
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
    /** An interval of days and time: microseconds (a day is 24 hours), as an i64. */
    public static final int INTERVAL_DAY_TIME = 10;
    /** An interval of years and months: months, as an i64. */
    public static final int INTERVAL_YEAR_MONTH = 11;
    /** An instant (TIMESTAMP WITH TIME ZONE): microseconds since 1970-01-01 00:00:00 UTC, as an i64. */
    public static final int TIMESTAMP_TZ = 12;
    public static final int MAX_DECIMAL_PRECISION = 38;
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    public WireType {
        if (tag < BOOLEAN || tag > TIMESTAMP_TZ) {
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

    /** An instant as a TIMESTAMP WITH TIME ZONE value (nanoseconds beyond the microsecond are cut). */
    public static long micros(OffsetDateTime t) {
        return Math.addExact(Math.multiplyExact(t.toEpochSecond(), 1_000_000L), t.getNano() / 1000);
    }

    /** A TIMESTAMP WITH TIME ZONE value as a date-time at UTC. */
    public static OffsetDateTime instant(long micros) {
        return dateTime(micros).atOffset(ZoneOffset.UTC);
    }

    /** Whether the type is one of the two interval families. */
    public boolean isInterval() {
        return tag == INTERVAL_DAY_TIME || tag == INTERVAL_YEAR_MONTH;
    }

    /** An interval value as Java has it: a {@link Duration} (days and time) or a {@link Period} (years and months). */
    public Object interval(long value) {
        return tag == INTERVAL_YEAR_MONTH ? Period.of((int) (value / 12), (int) (value % 12), 0)
                : Duration.of(value, ChronoUnit.MICROS);
    }

    /**
     * An interval value as PostgreSQL writes it ({@code 1 year 2 mons}, {@code 3 days 04:05:06.5},
     * {@code 00:00:00}), whole days split from the time as PostgreSQL's {@code timestamp - timestamp} gives them.
     */
    public String intervalText(long value) {
        if (tag == INTERVAL_YEAR_MONTH) {
            if (value == 0) {
                return "00:00:00";
            }
            long years = value / 12;
            long months = value % 12;
            String y = years == 0 ? "" : years + (years == 1 ? " year" : " years");
            String m = months == 0 ? "" : months + (months == 1 ? " mon" : " mons");
            return y.isEmpty() ? m : m.isEmpty() ? y : y + " " + m;
        }
        long days = value / MICROS_PER_DAY;
        long time = value % MICROS_PER_DAY;
        String d = days == 0 ? "" : days + (days == 1 ? " day" : " days");
        if (time == 0 && days != 0) {
            return d;
        }
        long t = Math.abs(time);
        long seconds = t / 1_000_000L;
        long fraction = t % 1_000_000L;
        String clock = String.format(Locale.ROOT, "%s%02d:%02d:%02d", time < 0 ? "-" : "", seconds / 3600,
                seconds / 60 % 60, seconds % 60);
        if (fraction != 0) {
            clock += ("." + String.format(Locale.ROOT, "%06d", fraction)).replaceAll("0+$", "");
        }
        return d.isEmpty() ? clock : d + " " + clock;
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
            case TIMESTAMP_TZ -> "TIMESTAMP WITH TIME ZONE";
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> "INTERVAL";
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
            case INTERVAL_DAY_TIME -> "INTERVAL DAY TO SECOND";
            case INTERVAL_YEAR_MONTH -> "INTERVAL YEAR TO MONTH";
            default -> name();
        };
    }
}
