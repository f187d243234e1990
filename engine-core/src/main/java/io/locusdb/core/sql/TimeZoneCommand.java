package io.locusdb.core.sql;

import io.locusdb.core.storage.type.TimeZones;
import io.locusdb.core.storage.type.ValueFormatException;
import java.time.ZoneId;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements that read and set a session's time zone, as PostgreSQL spells them: {@code SET [SESSION|LOCAL] TIME
 * ZONE value}, {@code SET timezone {TO|=} value}, {@code RESET timezone}, {@code SHOW TIME ZONE} and
 * {@code SHOW timezone}. A value is a quoted zone name or POSIX offset ({@link TimeZones#setting}), a number of hours
 * east of UTC, or {@code LOCAL}/{@code DEFAULT} (the server's zone, UTC). The session keeps the zone: statements are
 * planned and run without it otherwise.
 */
public sealed interface TimeZoneCommand {
    /** Sets the session's zone. */
    record Set(ZoneId zone) implements TimeZoneCommand {
    }

    /** Shows the session's zone. */
    record Show() implements TimeZoneCommand {
    }

    Pattern SET = Pattern.compile("(?is)\\s*set\\s+(?:session\\s+|local\\s+)?(?:time\\s+zone\\s+|timezone\\s*(?:to\\s+|=\\s*))"
            + "(.*?)\\s*;?\\s*");
    Pattern RESET = Pattern.compile("(?is)\\s*reset\\s+(?:timezone|time\\s+zone)\\s*;?\\s*");
    Pattern SHOW = Pattern.compile("(?is)\\s*show\\s+(?:timezone|time\\s+zone)\\s*;?\\s*");
    Pattern NUMBER = Pattern.compile("[+-]?\\d+(\\.\\d+)?");

    /** The command {@code sql} is, or null when it is another statement. */
    static TimeZoneCommand parse(String sql) {
        if (SHOW.matcher(sql).matches()) {
            return new Show();
        }
        if (RESET.matcher(sql).matches()) {
            return new Set(TimeZones.DEFAULT);
        }
        Matcher m = SET.matcher(sql);
        if (!m.matches()) {
            return null;
        }
        String value = m.group(1);
        try {
            if (value.length() >= 2 && value.startsWith("'") && value.endsWith("'")) {
                return new Set(TimeZones.setting(value.substring(1, value.length() - 1).replace("''", "'")));
            }
            String word = value.toLowerCase(Locale.ROOT);
            if (word.equals("local") || word.equals("default")) {
                return new Set(TimeZones.DEFAULT);
            }
            if (NUMBER.matcher(value).matches()) {
                return new Set(TimeZones.hoursEast(Double.parseDouble(value)));
            }
            if (value.matches("[A-Za-z_][A-Za-z0-9_/+-]*")) {
                return new Set(TimeZones.setting(value));
            }
        } catch (ValueFormatException e) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "invalid value for parameter"
                    + " \"TimeZone\": " + e.getMessage());
        }
        throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "SET TIME ZONE " + value
                + ": give a quoted zone name ('Europe/Berlin', 'UTC'), a number of hours, LOCAL or DEFAULT");
    }
}
