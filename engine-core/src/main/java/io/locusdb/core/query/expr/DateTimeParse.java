package io.locusdb.core.query.expr;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.Month;
import java.time.format.TextStyle;
import java.util.Locale;

/**
 * PostgreSQL's {@code to_date(text, template)}: reads a date the way the template describes it, with the template
 * patterns of {@link DateTimeFormat} (YYYY, YY, MM, Mon, Month, DD, DDD, and the ones a date ignores: HH24, MI, SS,
 * Dy, Day, ...). As in PostgreSQL, a separator in the template matches any one non-letter, non-digit character of
 * the text (or none), a number without a separator after it takes only its pattern's width of digits, names match
 * in any case, what follows the template in the text is ignored, and missing fields are January, the first, year 1.
 * A date that does not exist is an error (22008), and so is text that does not fit the template (22007).
 */
public final class DateTimeParse {
    /** Longest first, as {@link DateTimeFormat} reads them. */
    private static final String[] PATTERNS = {"HH24", "HH12", "IYYY", "YYYY", "MONTH", "DDD", "MON", "DAY", "YY",
        "IW", "WW", "MM", "DD", "HH", "MI", "SS", "MS", "US", "AM", "PM", "DY", "ID", "Q", "D"};

    private DateTimeParse() {
    }

    /** The epoch day that {@code text} names, read by {@code template}. */
    public static long toDate(String text, String template) {
        Reader r = new Reader(text, template);
        int year = 1;
        int month = 1;
        int day = 1;
        int dayOfYear = -1;
        boolean twoDigitYear = false;
        int t = 0;
        while (t < template.length()) {
            char c = template.charAt(t);
            if (c == '"') {
                int end = template.indexOf('"', t + 1);
                if (end < 0) {
                    throw r.invalid("an unterminated quoted text in the template");
                }
                r.skip(end - t - 1);
                t = end + 1;
                continue;
            }
            boolean fill = template.regionMatches(true, t, "FM", 0, 2);
            int at = fill ? t + 2 : t;
            String pattern = patternAt(template, at);
            if (pattern == null) {
                r.separator(c);
                t++;
                continue;
            }
            t = at + pattern.length();
            boolean bounded = t < template.length() && patternAt(template, t) != null;
            switch (pattern) {
                case "YYYY" -> year = r.number(pattern, bounded ? 4 : 6);
                case "IYYY", "IW", "ID", "WW" -> throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED,
                        "to_date: the pattern " + pattern + " (ISO and week-numbered dates) is not supported yet");
                case "YY" -> {
                    year = r.number(pattern, 2);
                    twoDigitYear = true;
                }
                case "MM" -> month = r.number(pattern, 2);
                case "DD" -> day = r.number(pattern, 2);
                case "DDD" -> dayOfYear = r.number(pattern, 3);
                case "MON" -> month = r.month(false);
                case "MONTH" -> month = r.month(true);
                case "DAY", "DY" -> r.dayName(pattern.equals("DAY"));
                case "AM", "PM" -> r.meridiem();
                // A date has no time, and PostgreSQL ignores a weekday (D) and a quarter (Q) here too.
                case "HH24", "HH12", "HH", "MI", "SS", "Q", "D" -> r.number(pattern, 2);
                case "MS" -> r.number(pattern, 3);
                case "US" -> r.number(pattern, 6);
                default -> throw new IllegalStateException(pattern);
            }
        }
        if (twoDigitYear) {
            // PostgreSQL's rule: the year nearest to 2020.
            year += year < 70 ? 2000 : 1900;
        }
        try {
            // PostgreSQL counts years before 1 as BC: -1 is 1 BC, ISO's year 0 (and so is 0).
            int isoYear = year < 0 ? year + 1 : year;
            LocalDate date = dayOfYear > 0 ? LocalDate.ofYearDay(isoYear, dayOfYear)
                    : LocalDate.of(isoYear, month, day);
            return date.toEpochDay();
        } catch (DateTimeException e) {
            throw new LocusSqlException(SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \""
                    + text + "\"");
        }
    }

    private static String patternAt(String template, int at) {
        for (String p : PATTERNS) {
            if (template.regionMatches(true, at, p, 0, p.length())) {
                return p;
            }
        }
        return null;
    }

    /** The text being read, and where. */
    private static final class Reader {
        private final String text;
        private final String template;
        private int at;

        Reader(String text, String template) {
            this.text = text;
            this.template = template;
        }

        LocusSqlException invalid(String what) {
            return new LocusSqlException(SqlState.INVALID_DATETIME_FORMAT, "invalid value for to_date(\"" + text
                    + "\", \"" + template + "\"): " + what);
        }

        void skip(int characters) {
            at = Math.min(text.length(), at + characters);
        }

        /** A template character that is no pattern: a separator matches one separator of the text, if any. */
        void separator(char c) {
            if (Character.isWhitespace(c)) {
                while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                    at++;
                }
                return;
            }
            if (at < text.length() && !Character.isLetterOrDigit(text.charAt(at))) {
                at++;
            } else if (Character.isLetterOrDigit(c)) {
                if (at < text.length() && Character.toLowerCase(text.charAt(at)) == Character.toLowerCase(c)) {
                    at++;
                } else {
                    throw invalid("expected '" + c + "' at position " + (at + 1));
                }
            }
        }

        int number(String pattern, int width) {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
            boolean negative = at < text.length() && text.charAt(at) == '-' && pattern.endsWith("YYY");
            if (negative) {
                at++;
            }
            int start = at;
            while (at < text.length() && at - start < width && Character.isDigit(text.charAt(at))) {
                at++;
            }
            if (at == start) {
                throw invalid("no digits for " + pattern + " at position " + (start + 1));
            }
            int value = Integer.parseInt(text, start, at, 10);
            return negative ? -value : value;
        }

        int month(boolean fullName) {
            for (Month m : Month.values()) {
                String name = m.getDisplayName(fullName ? TextStyle.FULL : TextStyle.SHORT, Locale.ENGLISH);
                if (text.regionMatches(true, at, name, 0, name.length())) {
                    at += name.length();
                    return m.getValue();
                }
            }
            throw invalid("no month name at position " + (at + 1));
        }

        void dayName(boolean fullName) {
            for (DayOfWeek d : DayOfWeek.values()) {
                String name = d.getDisplayName(fullName ? TextStyle.FULL : TextStyle.SHORT, Locale.ENGLISH);
                if (text.regionMatches(true, at, name, 0, name.length())) {
                    at += name.length();
                    return;
                }
            }
            throw invalid("no day name at position " + (at + 1));
        }

        void meridiem() {
            if (text.regionMatches(true, at, "AM", 0, 2) || text.regionMatches(true, at, "PM", 0, 2)) {
                at += 2;
            } else {
                throw invalid("no AM or PM at position " + (at + 1));
            }
        }
    }
}
