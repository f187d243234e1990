package io.locusdb.core.storage.type;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * TIMESTAMP values as LocusDB stores them: microseconds since 1970-01-01 00:00:00 in a long, PostgreSQL's precision
 * and, as there, no time zone. Text in and out is PostgreSQL's: {@code 2024-03-01 13:45:07.25} (the fraction only
 * when it is not zero, without trailing zeros).
 */
public final class Timestamps {
    public static final long MICROS_PER_SECOND = 1_000_000L;
    public static final long MICROS_PER_DAY = 86_400L * MICROS_PER_SECOND;
    /** Fractional digits of a second kept: microseconds. */
    public static final int PRECISION = 6;
    /**
     * The first and last microsecond LocusDB keeps: year 1 (no BC years) to 294246 AD, the last whole year a long
     * of microseconds since 1970 holds (DuckDB's limit too; PostgreSQL's is 294276).
     */
    private static final long MIN = LocalDate.of(1, 1, 1).toEpochDay() * MICROS_PER_DAY;
    private static final long MAX = (LocalDate.of(294_246, 12, 31).toEpochDay() + 1) * MICROS_PER_DAY - 1;

    private Timestamps() {
    }

    /**
     * Parses {@code yyyy-mm-dd}, optionally followed by a blank or {@code T} and {@code hh:mm[:ss[.fraction]]}; a
     * fraction beyond microseconds is rounded; a time zone after the time ({@code Z}, {@code +02}, {@code -05:30})
     * is ignored, as PostgreSQL ignores it for a timestamp without time zone.
     */
    public static long parse(CharSequence text) {
        String t = text.toString().strip();
        int[] zoneAt = new int[1];
        long local = parseLocal(t, zoneAt);
        if (zoneAt[0] < t.length() && !t.substring(zoneAt[0]).matches("(?i)z|utc|gmt|[+-]\\d{1,2}(:?\\d{2})?")) {
            throw notATimestamp(t);
        }
        return local;
    }

    /**
     * The date and time at the start of {@code t} (stripped) as microseconds on the wall clock, with where the time
     * zone that may follow begins (after blanks) in {@code zoneAt[0]}: {@code t.length()} when there is none.
     */
    static long parseLocal(String t, int[] zoneAt) {
        zoneAt[0] = t.length();
        try {
            int dateEnd = dateEnd(t);
            LocalDate date = LocalDate.parse(t.substring(0, dateEnd));
            long micros = 0;
            int at = dateEnd;
            if (at < t.length()) {
                char sep = t.charAt(at);
                if (sep != ' ' && sep != 'T' && sep != 't') {
                    throw notATimestamp(t);
                }
                at++;
                while (at < t.length() && t.charAt(at) == ' ') {
                    at++;
                }
                int hour = digits(t, at, 2);
                at += 2;
                expect(t, at++, ':');
                int minute = digits(t, at, 2);
                at += 2;
                int second = 0;
                long fraction = 0;
                if (at < t.length() && t.charAt(at) == ':') {
                    second = digits(t, at + 1, 2);
                    at += 3;
                    if (at < t.length() && t.charAt(at) == '.') {
                        at++;
                        int start = at;
                        long scaled = 0;
                        int kept = 0;
                        boolean roundUp = false;
                        while (at < t.length() && Character.isDigit(t.charAt(at))) {
                            int d = t.charAt(at) - '0';
                            if (kept < 6) {
                                scaled = scaled * 10 + d;
                                kept++;
                            } else if (kept == 6 && at == start + 6) {
                                roundUp = d >= 5;
                            }
                            at++;
                        }
                        if (at == start) {
                            throw notATimestamp(t);
                        }
                        while (kept++ < 6) {
                            scaled *= 10;
                        }
                        fraction = scaled + (roundUp ? 1 : 0);
                    }
                }
                if (hour > 24 || minute > 59 || second > 60 || hour == 24 && (minute > 0 || second > 0
                        || fraction > 0)) {
                    throw new ValueFormatException("'" + t + "': time out of range for TIMESTAMP");
                }
                micros = ((hour * 60L + minute) * 60L + second) * MICROS_PER_SECOND + fraction;
                while (at < t.length() && t.charAt(at) == ' ') {
                    at++;
                }
                zoneAt[0] = at;
            }
            return checked(Math.addExact(Math.multiplyExact(date.toEpochDay(), MICROS_PER_DAY), micros), t);
        } catch (DateTimeException | IndexOutOfBoundsException | ArithmeticException e) {
            throw notATimestamp(t);
        }
    }

    /** Where the date ends: the first blank or T after {@code yyyy-mm-dd} (a year may have more than 4 digits). */
    private static int dateEnd(String t) {
        int dashes = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '-' && i > 0) {
                dashes++;
            } else if (dashes == 2 && !Character.isDigit(c)) {
                return i;
            }
        }
        return t.length();
    }

    private static int digits(String t, int at, int count) {
        int v = 0;
        for (int i = at; i < at + count; i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                throw notATimestamp(t);
            }
            v = v * 10 + c - '0';
        }
        return v;
    }

    private static void expect(String t, int at, char c) {
        if (t.charAt(at) != c) {
            throw notATimestamp(t);
        }
    }

    static ValueFormatException notATimestamp(String t) {
        return new ValueFormatException("'" + t + "' is not a TIMESTAMP (expected yyyy-mm-dd [hh:mm[:ss[.ffffff]]])");
    }

    /** {@code micros} if it lies in PostgreSQL's range of timestamps. */
    public static long checked(long micros, Object shown) {
        if (micros < MIN || micros > MAX) {
            throw new ValueFormatException("timestamp out of range: '" + shown + "'");
        }
        return micros;
    }

    /** PostgreSQL's text of a timestamp: {@code 2024-03-01 13:45:07.25}. */
    public static String format(long micros) {
        LocalDateTime t = toLocalDateTime(micros);
        StringBuilder b = new StringBuilder(26);
        String date = t.toLocalDate().toString();
        // Years past 9999 without the + that ISO puts before them, as PostgreSQL prints them.
        b.append(date.charAt(0) == '+' ? date.substring(1) : date).append(' ');
        two(b, t.getHour()).append(':');
        two(b, t.getMinute()).append(':');
        two(b, t.getSecond());
        int fraction = (int) Math.floorMod(micros, MICROS_PER_SECOND);
        if (fraction != 0) {
            String digits = Integer.toString(fraction + 1_000_000).substring(1);
            int end = digits.length();
            while (digits.charAt(end - 1) == '0') {
                end--;
            }
            b.append('.').append(digits, 0, end);
        }
        return b.toString();
    }

    private static StringBuilder two(StringBuilder b, int v) {
        return b.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
    }

    public static LocalDateTime toLocalDateTime(long micros) {
        long seconds = Math.floorDiv(micros, MICROS_PER_SECOND);
        int nanos = (int) Math.floorMod(micros, MICROS_PER_SECOND) * 1000;
        return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
    }

    /** The timestamp of a date-time (nanoseconds beyond the microsecond are cut, as JDBC drivers do). */
    public static long of(LocalDateTime t) {
        return Math.addExact(Math.multiplyExact(t.toEpochSecond(ZoneOffset.UTC), MICROS_PER_SECOND),
                t.getNano() / 1000);
    }

    /** Midnight of a date (days since the epoch) as a timestamp. */
    public static long ofDate(long epochDay) {
        return Math.multiplyExact(epochDay, MICROS_PER_DAY);
    }

    /**
     * A timestamp plus whole months, the time of day kept and the day clamped to the month's end (Jan 31 + 1 month is
     * Feb 29 in 2024), as PostgreSQL adds an interval's months.
     */
    public static long plusMonths(long micros, long months) {
        if (months == 0) {
            return micros;
        }
        long day = dateOf(micros);
        return ofDate(LocalDate.ofEpochDay(day).plusMonths(months).toEpochDay()) + (micros - ofDate(day));
    }

    /** The date of a timestamp, in days since the epoch. */
    public static long dateOf(long micros) {
        return Math.floorDiv(micros, MICROS_PER_DAY);
    }

    /** The time of day of a timestamp. */
    public static LocalTime timeOf(long micros) {
        return LocalTime.ofNanoOfDay(Math.floorMod(micros, MICROS_PER_DAY) * 1000);
    }
}
