package io.locusdb.core.query.expr;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.Timestamps;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.Month;
import java.time.format.TextStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.IsoFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * PostgreSQL's {@code to_char(timestamp | date, template)}: the template patterns analysts use (YYYY, YY, IYYY, Q, MM,
 * Mon/MON/mon, Month, DD, DDD, D, ID, Dy, Day, WW, IW, HH/HH12, HH24, MI, SS, MS, US, AM/PM, the FM prefix that drops
 * padding), text in double quotes and every other character as it is. The case of a text pattern sets the case of
 * its output ({@code Month} gives {@code March    }, {@code MONTH} gives {@code MARCH    }). A template is compiled once.
 */
public final class DateTimeFormat {
    private static final int CACHE_LIMIT = 1_024;
    private static final Map<String, List<Part>> COMPILED = new ConcurrentHashMap<>();
    /** Longest first, so that HH24 is not read as HH then 24. */
    private static final String[] PATTERNS = {"HH24", "HH12", "IYYY", "YYYY", "MONTH", "DDD", "MON", "DAY", "YY",
        "IW", "WW", "MM", "DD", "HH", "MI", "SS", "MS", "US", "AM", "PM", "DY", "ID", "Q", "D"};

    private record Part(String pattern, String casing, boolean fill, String literal) {
    }

    private DateTimeFormat() {
    }

    public static String format(String template, long micros) {
        List<Part> parts = COMPILED.get(template);
        if (parts == null) {
            parts = compile(template);
            if (COMPILED.size() < CACHE_LIMIT) {
                COMPILED.put(template, parts);
            }
        }
        LocalDateTime t = Timestamps.toLocalDateTime(micros);
        StringBuilder out = new StringBuilder(template.length() + 16);
        for (Part p : parts) {
            if (p.literal() != null) {
                out.append(p.literal());
            } else {
                out.append(render(p, t));
            }
        }
        return out.toString();
    }

    private static List<Part> compile(String template) {
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c == '"') {
                int end = template.indexOf('"', i + 1);
                if (end < 0) {
                    throw new LocusSqlException(SqlState.INVALID_PARAMETER, "to_char: unterminated quoted text in"
                            + " template '" + template + "'");
                }
                literal.append(template, i + 1, end);
                i = end + 1;
                continue;
            }
            if (c == '\\' && i + 1 < template.length()) {
                literal.append(template.charAt(i + 1));
                i += 2;
                continue;
            }
            boolean fill = template.regionMatches(true, i, "FM", 0, 2);
            int at = fill ? i + 2 : i;
            String found = null;
            for (String pattern : PATTERNS) {
                if (template.regionMatches(true, at, pattern, 0, pattern.length())) {
                    found = pattern;
                    break;
                }
            }
            if (found == null) {
                literal.append(c);
                i++;
                continue;
            }
            if (!literal.isEmpty()) {
                parts.add(new Part(null, null, false, literal.toString()));
                literal.setLength(0);
            }
            parts.add(new Part(found, template.substring(at, at + found.length()), fill, null));
            i = at + found.length();
        }
        if (!literal.isEmpty()) {
            parts.add(new Part(null, null, false, literal.toString()));
        }
        return List.copyOf(parts);
    }

    private static String render(Part p, LocalDateTime t) {
        boolean fill = p.fill();
        return switch (p.pattern()) {
            case "YYYY" -> number(t.getYear(), 4, fill);
            case "IYYY" -> number(t.get(IsoFields.WEEK_BASED_YEAR), 4, fill);
            case "YY" -> number(Math.floorMod(t.getYear(), 100), 2, fill);
            case "Q" -> number((t.getMonthValue() - 1) / 3 + 1, 1, fill);
            case "MM" -> number(t.getMonthValue(), 2, fill);
            case "DD" -> number(t.getDayOfMonth(), 2, fill);
            case "DDD" -> number(t.getDayOfYear(), 3, fill);
            // PostgreSQL's D: Sunday 1 .. Saturday 7; ID: ISO, Monday 1 .. Sunday 7.
            case "D" -> number(t.getDayOfWeek().getValue() % 7 + 1, 1, fill);
            case "ID" -> number(t.getDayOfWeek().getValue(), 1, fill);
            case "WW" -> number((t.getDayOfYear() - 1) / 7 + 1, 2, fill);
            case "IW" -> number(t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR), 2, fill);
            case "HH", "HH12" -> number(t.getHour() % 12 == 0 ? 12 : t.getHour() % 12, 2, fill);
            case "HH24" -> number(t.getHour(), 2, fill);
            case "MI" -> number(t.getMinute(), 2, fill);
            case "SS" -> number(t.getSecond(), 2, fill);
            case "MS" -> number(t.get(ChronoField.MILLI_OF_SECOND), 3, fill);
            case "US" -> number(t.get(ChronoField.MICRO_OF_SECOND), 6, fill);
            case "AM", "PM" -> cased(t.getHour() < 12 ? "AM" : "PM", p.casing());
            case "MONTH" -> cased(padded(name(t.getMonth()), 9, fill), p.casing());
            case "MON" -> cased(name(t.getMonth()).substring(0, 3), p.casing());
            case "DAY" -> cased(padded(name(t.getDayOfWeek()), 9, fill), p.casing());
            case "DY" -> cased(name(t.getDayOfWeek()).substring(0, 3), p.casing());
            default -> throw new IllegalStateException(p.pattern());
        };
    }

    private static String number(int value, int digits, boolean fill) {
        String s = Integer.toString(Math.abs(value));
        if (!fill && s.length() < digits) {
            s = "0".repeat(digits - s.length()) + s;
        }
        return value < 0 ? "-" + s : s;
    }

    private static String padded(String s, int width, boolean fill) {
        return fill || s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    private static String name(Month m) {
        return m.getDisplayName(TextStyle.FULL, Locale.ENGLISH);
    }

    private static String name(DayOfWeek d) {
        return d.getDisplayName(TextStyle.FULL, Locale.ENGLISH);
    }

    /** Upper case for an upper-case pattern, lower case for a lower-case one, as written (capitalized) otherwise. */
    private static String cased(String text, String pattern) {
        if (pattern.equals(pattern.toUpperCase(Locale.ROOT))) {
            return text.toUpperCase(Locale.ROOT);
        }
        if (pattern.equals(pattern.toLowerCase(Locale.ROOT))) {
            return text.toLowerCase(Locale.ROOT);
        }
        return text;
    }
}
