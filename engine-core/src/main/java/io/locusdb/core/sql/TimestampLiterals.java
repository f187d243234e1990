package io.locusdb.core.sql;

import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.ValueFormatException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DuckDB's {@code date_diff('unit', a, b)} and {@code datediff('unit', a, b)}, which the parser would read as
 * BigQuery's and SQL Server's forms, under a name it reads as a plain function; and TIMESTAMP literals as PostgreSQL
 * reads them ({@code TIMESTAMP '2024-03-01 13:45'}, {@code TIMESTAMP '2024-03-01'},
 * a {@code T} between date and time) in the one form the parser takes ({@code yyyy-MM-dd HH:mm:ss[.ffffff]}). Text
 * that is not a timestamp is left for the parser to refuse with its position. {@code TIMESTAMP WITH TIME ZONE '...'}
 * and {@code TIMESTAMPTZ '...'} become a cast of the text to Calcite's instant type (TIMESTAMP WITH LOCAL TIME ZONE),
 * which reads it at run time in the session's zone unless it carries an offset; {@code TIMESTAMP WITHOUT TIME ZONE
 * '...'} is a plain TIMESTAMP literal.
 */
final class TimestampLiterals {
    private static final Pattern LITERAL = Pattern.compile("\\btimestamp\\s+'([^']*)'", Pattern.CASE_INSENSITIVE);
    private static final Pattern ZONED_LITERAL = Pattern.compile(
            "\\b(?:timestamp\\s+with\\s+time\\s+zone|timestamptz)\\s+('[^']*')", Pattern.CASE_INSENSITIVE);
    private static final Pattern WITHOUT_ZONE = Pattern.compile("\\btimestamp\\s+without\\s+time\\s+zone(?=\\s+')",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern PARSER_FORM = Pattern.compile("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}(\\.\\d+)?");

    /** The name date_diff and datediff take when their unit is a string. */
    static final String DATE_DIFF = "DATE_DIFF_UNITS";
    private static final Pattern DUCKDB_DATE_DIFF = Pattern.compile("\\b(?:date_diff|datediff)(?=\\s*\\(\\s*')",
            Pattern.CASE_INSENSITIVE);

    private TimestampLiterals() {
    }

    static String rewrite(String sql) {
        if (sql.indexOf('\'') < 0) {
            return sql;
        }
        sql = DUCKDB_DATE_DIFF.matcher(sql).replaceAll(DATE_DIFF);
        sql = ZONED_LITERAL.matcher(sql).replaceAll("CAST($1 AS TIMESTAMP WITH LOCAL TIME ZONE)");
        sql = WITHOUT_ZONE.matcher(sql).replaceAll("TIMESTAMP");
        Matcher m = LITERAL.matcher(sql);
        StringBuilder out = null;
        int from = 0;
        while (m.find()) {
            String text = m.group(1);
            if (PARSER_FORM.matcher(text).matches()) {
                continue;
            }
            String standard;
            try {
                standard = Timestamps.format(Timestamps.parse(text));
            } catch (ValueFormatException e) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(sql.length() + 16);
            }
            out.append(sql, from, m.start(1)).append(standard);
            from = m.end(1);
        }
        return out == null ? sql : out.append(sql, from, sql.length()).toString();
    }
}
