package io.locusdb.core.storage.type;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.zone.ZoneRules;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TIMESTAMP WITH TIME ZONE values as LocusDB stores them: an instant, microseconds since 1970-01-01 00:00:00 UTC,
 * with no zone kept (PostgreSQL's timestamptz). A zone matters only at the edges: text without an offset is read
 * as wall-clock time in the session's zone, text out is the session's wall-clock time with its offset
 * ({@code 2024-03-01 13:45:07.25+01}), and casts to and from TIMESTAMP and DATE, EXTRACT and date_trunc work on the
 * session's wall clock.
 */
public final class ZonedTimestamps {
    /** A zone after the time: an offset ({@code Z}, {@code +02}, {@code -0530}, {@code +05:30:15}) or a zone name. */
    private static final Pattern OFFSET = Pattern.compile("([+-])(\\d{1,2})(?::?(\\d{2}))?(?::?(\\d{2}))?");

    private ZonedTimestamps() {
    }

    /**
     * Parses what {@link Timestamps#parse} does, with an optional zone after the time: an offset ({@code +02},
     * {@code -05:30}, {@code Z}), {@code UTC}/{@code GMT}, or a zone name ({@code Europe/Berlin}); without one the
     * wall-clock time is read in {@code sessionZone}.
     */
    public static long parse(CharSequence text, ZoneId sessionZone) {
        String t = text.toString().strip();
        int[] zoneAt = new int[1];
        long local = Timestamps.parseLocal(t, zoneAt);
        ZoneId zone = zoneAt[0] == t.length() ? sessionZone : zone(t, t.substring(zoneAt[0]));
        try {
            return Timestamps.checked(fromLocal(local, zone), t);
        } catch (ArithmeticException e) {
            throw Timestamps.notATimestamp(t);
        }
    }

    private static ZoneId zone(String text, String z) {
        Matcher m = OFFSET.matcher(z);
        if (m.matches()) {
            int hours = Integer.parseInt(m.group(2));
            int minutes = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
            int seconds = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
            int sign = m.group(1).equals("-") ? -1 : 1;
            try {
                return ZoneOffset.ofHoursMinutesSeconds(sign * hours, sign * minutes, sign * seconds);
            } catch (DateTimeException e) {
                throw new ValueFormatException("'" + text + "': time zone offset out of range");
            }
        }
        if (z.equalsIgnoreCase("z")) {
            return ZoneOffset.UTC;
        }
        try {
            return TimeZones.named(z);
        } catch (ValueFormatException e) {
            throw new ValueFormatException("'" + text + "' is not a TIMESTAMP WITH TIME ZONE: " + e.getMessage());
        }
    }

    /** PostgreSQL's text of an instant in {@code zone}: {@code 2024-03-01 13:45:07.25+01}, {@code ...+05:30}. */
    public static String format(long micros, ZoneId zone) {
        int offset = offsetSeconds(micros, zone);
        StringBuilder b = new StringBuilder(32).append(Timestamps.format(micros + offset * Timestamps.MICROS_PER_SECOND));
        return appendOffset(b, offset).toString();
    }

    /** An offset as PostgreSQL prints it after a time: {@code +00}, {@code -05:30}, {@code +00:53:28}. */
    static StringBuilder appendOffset(StringBuilder b, int offsetSeconds) {
        b.append(offsetSeconds < 0 ? '-' : '+');
        int abs = Math.abs(offsetSeconds);
        b.append(String.format(Locale.ROOT, "%02d", abs / 3600));
        if (abs % 3600 != 0) {
            b.append(String.format(Locale.ROOT, ":%02d", abs / 60 % 60));
            if (abs % 60 != 0) {
                b.append(String.format(Locale.ROOT, ":%02d", abs % 60));
            }
        }
        return b;
    }

    /** The wall-clock time (a TIMESTAMP) in {@code zone} at the instant {@code micros}. */
    public static long toLocal(long micros, ZoneId zone) {
        return Math.addExact(micros, offsetSeconds(micros, zone) * Timestamps.MICROS_PER_SECOND);
    }

    /**
     * The instant at which {@code zone}'s wall clock shows {@code localMicros}. As PostgreSQL and DuckDB read it: a
     * time skipped by a change to summer time with the offset before the change (it lands that much later), a time
     * that occurs twice with the offset after the change (the later instant).
     */
    public static long fromLocal(long localMicros, ZoneId zone) {
        if (zone instanceof ZoneOffset offset) {
            return Math.subtractExact(localMicros, offset.getTotalSeconds() * Timestamps.MICROS_PER_SECOND);
        }
        ZoneRules rules = zone.getRules();
        if (rules.isFixedOffset()) {
            return Math.subtractExact(localMicros,
                    rules.getOffset(Instant.EPOCH).getTotalSeconds() * Timestamps.MICROS_PER_SECOND);
        }
        LocalDateTime local = Timestamps.toLocalDateTime(localMicros);
        ZonedDateTime zoned = ZonedDateTime.ofLocal(local, zone, null).withLaterOffsetAtOverlap();
        return Math.addExact(Math.multiplyExact(zoned.toEpochSecond(), Timestamps.MICROS_PER_SECOND),
                zoned.getNano() / 1000);
    }

    /** {@code zone}'s offset from UTC at the instant {@code micros}, in seconds. */
    public static int offsetSeconds(long micros, ZoneId zone) {
        if (zone instanceof ZoneOffset offset) {
            return offset.getTotalSeconds();
        }
        ZoneRules rules = zone.getRules();
        return rules.getOffset(Instant.ofEpochSecond(Math.floorDiv(micros, Timestamps.MICROS_PER_SECOND)))
                .getTotalSeconds();
    }

    /** The instant of an offset date-time (nanoseconds beyond the microsecond are cut). */
    public static long of(OffsetDateTime t) {
        return Math.addExact(Math.multiplyExact(t.toEpochSecond(), Timestamps.MICROS_PER_SECOND), t.getNano() / 1000);
    }

    /** The instant as a date-time at UTC. */
    public static OffsetDateTime toOffsetDateTime(long micros) {
        return Timestamps.toLocalDateTime(micros).atOffset(ZoneOffset.UTC);
    }
}
