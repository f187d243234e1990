package io.locusdb.core.storage.type;

import java.time.Duration;
import java.time.Period;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * INTERVAL values as LocusDB computes with them, one long each, in the two families of the SQL standard: days and
 * time ({@link TypeKind#INTERVAL_DAY_TIME}, microseconds; a day is 24 hours, there being no time zones) and years
 * and months ({@link TypeKind#INTERVAL_YEAR_MONTH}, months). An interval that mixes months with days or time, as
 * PostgreSQL's one type can, has no value here. Text out is PostgreSQL's ({@code IntervalStyle = postgres}):
 * {@code 1 year 2 mons}, {@code 3 days 04:05:06.5}, {@code -00:00:01}, {@code 00:00:00} for zero, with whole days
 * split from the time as {@code timestamp - timestamp} does in PostgreSQL.
 */
public final class Intervals {
    private Intervals() {
    }

    /** PostgreSQL's text of an interval of {@code kind} holding {@code value}. */
    public static String text(TypeKind kind, long value) {
        return switch (kind) {
            case INTERVAL_DAY_TIME -> dayTimeText(value);
            case INTERVAL_YEAR_MONTH -> yearMonthText(value);
            default -> throw new IllegalArgumentException(kind + " is not an interval");
        };
    }

    /** The value as a Java object: a {@link Duration} (days and time) or a {@link Period} (years and months). */
    public static Object toJava(TypeKind kind, long value) {
        return switch (kind) {
            case INTERVAL_DAY_TIME -> Duration.of(value, ChronoUnit.MICROS);
            case INTERVAL_YEAR_MONTH -> Period.of((int) (value / 12), (int) (value % 12), 0);
            default -> throw new IllegalArgumentException(kind + " is not an interval");
        };
    }

    public static boolean isInterval(TypeKind kind) {
        return kind == TypeKind.INTERVAL_DAY_TIME || kind == TypeKind.INTERVAL_YEAR_MONTH;
    }

    private static String yearMonthText(long months) {
        if (months == 0) {
            return "00:00:00";
        }
        long years = months / 12;
        long rest = months % 12;
        StringBuilder out = new StringBuilder();
        if (years != 0) {
            out.append(years).append(years == 1 ? " year" : " years");
        }
        if (rest != 0) {
            out.append(out.isEmpty() ? "" : " ").append(rest).append(rest == 1 ? " mon" : " mons");
        }
        return out.toString();
    }

    private static String dayTimeText(long micros) {
        long days = micros / Timestamps.MICROS_PER_DAY;
        long time = micros % Timestamps.MICROS_PER_DAY;
        StringBuilder out = new StringBuilder();
        if (days != 0) {
            out.append(days).append(days == 1 ? " day" : " days");
            if (time == 0) {
                return out.toString();
            }
            out.append(' ');
        }
        if (time < 0) {
            out.append('-');
        }
        long t = Math.abs(time);
        long seconds = t / Timestamps.MICROS_PER_SECOND;
        long fraction = t % Timestamps.MICROS_PER_SECOND;
        out.append(two(seconds / 3600)).append(':').append(two(seconds / 60 % 60)).append(':')
                .append(two(seconds % 60));
        if (fraction != 0) {
            String digits = String.format(Locale.ROOT, "%06d", fraction);
            int end = digits.length();
            while (digits.charAt(end - 1) == '0') {
                end--;
            }
            out.append('.').append(digits, 0, end);
        }
        return out.toString();
    }

    private static String two(long n) {
        return n < 10 ? "0" + n : Long.toString(n);
    }

    /** The total seconds of a days-and-time interval, as {@code EXTRACT(EPOCH FROM ...)} gives them. */
    public static double epochSeconds(TypeKind kind, long value) {
        return kind == TypeKind.INTERVAL_YEAR_MONTH
                // PostgreSQL counts a year as 365.25 days and a month as 30 days for the epoch of an interval.
                ? value / 12 * 365.25 * 86_400 + value % 12 * 30.0 * 86_400
                : value / (double) Timestamps.MICROS_PER_SECOND;
    }
}
