package io.locusdb.core.storage.type;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Time zones by the names PostgreSQL takes: IANA names in any case ({@code Europe/Berlin}, {@code america/new_york}),
 * {@code UTC}/{@code GMT}/{@code Z}, and, for the session's {@code TimeZone} setting, POSIX offsets
 * ({@code UTC+3}, {@code -02}), which count hours <em>west</em> of Greenwich as PostgreSQL reads them.
 */
public final class TimeZones {
    /** The session time zone of a connection that has not set one: PostgreSQL's default for a server set to UTC. */
    public static final ZoneId DEFAULT = ZoneOffset.UTC;

    private static final Map<String, String> IANA = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private static final Pattern POSIX_OFFSET = Pattern.compile("(?i)(?:utc|gmt)?\\s*([+-]?)(\\d{1,2})(?::(\\d{2}))?");

    static {
        for (String id : ZoneId.getAvailableZoneIds()) {
            IANA.put(id, id);
        }
    }

    private TimeZones() {
    }

    /** A zone by name (not an offset): {@code UTC}, {@code Europe/Berlin}, {@code EST5EDT}; 22023 when unknown. */
    public static ZoneId named(String name) {
        String n = name.strip();
        if (n.equalsIgnoreCase("utc") || n.equalsIgnoreCase("gmt") || n.equalsIgnoreCase("z")
                || n.equalsIgnoreCase("zulu") || n.equalsIgnoreCase("etc/utc")) {
            return ZoneOffset.UTC;
        }
        String id = IANA.get(n);
        if (id == null) {
            throw new ValueFormatException("time zone \"" + name + "\" not recognized");
        }
        return ZoneId.of(id);
    }

    /**
     * The zone a {@code SET TIME ZONE 'x'} / {@code SET timezone = 'x'} names: a zone name, or a POSIX offset
     * ({@code 'UTC+3'} and {@code '+3'} are three hours west of Greenwich, i.e. UTC−03, as in PostgreSQL).
     */
    public static ZoneId setting(String value) {
        String v = value.strip();
        Matcher m = POSIX_OFFSET.matcher(v);
        if (m.matches()) {
            int hours = Integer.parseInt(m.group(2));
            int minutes = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
            int west = m.group(1).equals("-") ? -1 : 1;
            try {
                return ZoneOffset.ofHoursMinutes(-west * hours, -west * minutes);
            } catch (DateTimeException e) {
                throw new ValueFormatException("time zone \"" + value + "\": offset out of range");
            }
        }
        return named(v);
    }

    /** A zone {@code hours} east of UTC (the number of {@code SET TIME ZONE -7}, which is ISO's sign). */
    public static ZoneId hoursEast(double hours) {
        if (Double.isNaN(hours) || Math.abs(hours) > 18) {
            throw new ValueFormatException("time zone offset " + hours + " is out of range (-18 to 18 hours)");
        }
        return ZoneOffset.ofTotalSeconds((int) Math.round(hours * 3600));
    }

    /** The zone as the TimeZone setting shows it: its name, or {@code UTC}. */
    public static String show(ZoneId zone) {
        return zone.equals(ZoneOffset.UTC) ? "UTC" : zone.getId();
    }
}
