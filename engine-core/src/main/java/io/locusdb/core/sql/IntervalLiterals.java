package io.locusdb.core.sql;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's interval literals with the unit inside the quotes ({@code INTERVAL '3 days'}, {@code INTERVAL
 * '1 month'}, {@code INTERVAL '2 hours'}), which is how most people write them, in the standard's form that the parser
 * reads ({@code INTERVAL '3' DAY}). One quantity and one unit, from years to seconds; a week is 7 days. The
 * text keeps its length where the standard form is not longer, so that error positions still point into what the
 * user wrote.
 */
final class IntervalLiterals {
    private static final Pattern PG_INTERVAL = Pattern.compile(
            "\\binterval\\s+'\\s*([+-]?\\d{1,9})\\s*(years?|mons?|months?|weeks?|days?|hours?|mins?|minutes?|secs?|seconds?)\\s*'",
            Pattern.CASE_INSENSITIVE);

    private IntervalLiterals() {
    }

    static String rewrite(String sql) {
        if (sql.indexOf('\'') < 0) {
            return sql;
        }
        Matcher m = PG_INTERVAL.matcher(sql);
        if (!m.find()) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length());
        int from = 0;
        do {
            long amount = Long.parseLong(m.group(1));
            String unit = m.group(2).toLowerCase(Locale.ROOT);
            String standard;
            if (unit.startsWith("week")) {
                standard = "INTERVAL '" + amount * 7 + "' DAY";
            } else if (unit.startsWith("mon")) {
                standard = "INTERVAL '" + amount + "' MONTH";
            } else if (unit.startsWith("year")) {
                standard = "INTERVAL '" + amount + "' YEAR";
            } else if (unit.startsWith("hour")) {
                standard = "INTERVAL '" + amount + "' HOUR";
            } else if (unit.startsWith("min")) {
                standard = "INTERVAL '" + amount + "' MINUTE";
            } else if (unit.startsWith("sec")) {
                standard = "INTERVAL '" + amount + "' SECOND";
            } else {
                standard = "INTERVAL '" + amount + "' DAY";
            }
            out.append(sql, from, m.start()).append(standard);
            out.append(" ".repeat(Math.max(0, m.end() - m.start() - standard.length())));
            from = m.end();
        } while (m.find());
        return out.append(sql, from, sql.length()).toString();
    }
}
