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
 * that is not a timestamp is left for the parser to refuse with its position.
 */
final class TimestampLiterals {
    private static final Pattern LITERAL = Pattern.compile("\\btimestamp\\s+'([^']*)'", Pattern.CASE_INSENSITIVE);
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
