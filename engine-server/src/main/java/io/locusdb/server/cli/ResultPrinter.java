package io.locusdb.server.cli;

import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.type.Intervals;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.ZonedTimestamps;
import io.locusdb.core.storage.type.TypeKind;
import java.io.PrintWriter;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.Period;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints a result as an aligned text table (numbers right-aligned), then its row count. The rows come from an
 * embedded {@link QueryResult} or from a JDBC {@link ResultSet}; both are read to the end (the count is exact) and
 * the first {@code maxRows} rows are shown.
 */
final class ResultPrinter {
    private ResultPrinter() {
    }

    /** Prints an embedded result, instants shown in {@code zone} (the session's) as PostgreSQL shows them. */
    static void print(QueryResult result, PrintWriter out, int maxRows, ZoneId zone) {
        List<ResultColumn> columns = result.columns();
        List<String> names = new ArrayList<>();
        boolean[] numeric = new boolean[columns.size()];
        for (int c = 0; c < numeric.length; c++) {
            names.add(columns.get(c).name());
            numeric[c] = switch (columns.get(c).type().kind()) {
                case INTEGER, BIGINT, DECIMAL, DOUBLE -> true;
                default -> false;
            };
        }
        List<String[]> rows = new ArrayList<>();
        long total = 0;
        while (result.next()) {
            total++;
            if (rows.size() < maxRows) {
                String[] row = new String[names.size()];
                for (int c = 0; c < row.length; c++) {
                    Object v = result.getObject(c);
                    row[c] = v == null ? "NULL" : v instanceof LocalDateTime t ? Timestamps.format(Timestamps.of(t))
                            : v instanceof OffsetDateTime t ? ZonedTimestamps.format(ZonedTimestamps.of(t), zone)
                            : v instanceof Duration d ? Intervals.text(TypeKind.INTERVAL_DAY_TIME,
                            Math.addExact(Math.multiplyExact(d.getSeconds(), Timestamps.MICROS_PER_SECOND),
                                    d.getNano() / 1000))
                            : v instanceof Period p ? Intervals.text(TypeKind.INTERVAL_YEAR_MONTH, p.toTotalMonths())
                            : v.toString();
                }
                rows.add(row);
            }
        }
        render(names, numeric, rows, total, out);
    }

    static void print(ResultSet result, PrintWriter out, int maxRows) throws SQLException {
        ResultSetMetaData md = result.getMetaData();
        List<String> names = new ArrayList<>();
        boolean[] numeric = new boolean[md.getColumnCount()];
        for (int c = 0; c < numeric.length; c++) {
            names.add(md.getColumnLabel(c + 1));
            numeric[c] = switch (md.getColumnType(c + 1)) {
                case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.DECIMAL, Types.NUMERIC,
                     Types.DOUBLE, Types.FLOAT, Types.REAL -> true;
                default -> false;
            };
        }
        List<String[]> rows = new ArrayList<>();
        long total = 0;
        while (result.next()) {
            total++;
            if (rows.size() < maxRows) {
                String[] row = new String[names.size()];
                for (int c = 0; c < row.length; c++) {
                    // getObject, as the embedded printer does: DECIMAL keeps its scale, DOUBLE prints as Java does
                    Object v = result.getObject(c + 1);
                    row[c] = v == null ? "NULL" : v instanceof Timestamp || v instanceof Duration || v instanceof Period
                            ? result.getString(c + 1) : v.toString();
                }
                rows.add(row);
            }
        }
        render(names, numeric, rows, total, out);
    }

    private static void render(List<String> names, boolean[] numeric, List<String[]> rows, long total,
                               PrintWriter out) {
        int[] width = new int[names.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = names.get(c).length();
            for (String[] row : rows) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < width.length; c++) {
            line.append(c == 0 ? "" : " | ").append(pad(names.get(c), width[c], false));
        }
        out.println(line.toString().stripTrailing());
        line.setLength(0);
        for (int c = 0; c < width.length; c++) {
            line.append(c == 0 ? "" : "-+-").append("-".repeat(width[c]));
        }
        out.println(line);
        for (String[] row : rows) {
            line.setLength(0);
            for (int c = 0; c < width.length; c++) {
                line.append(c == 0 ? "" : " | ").append(pad(row[c], width[c], numeric[c]));
            }
            out.println(line.toString().stripTrailing());
        }
        out.println(String.format(Locale.ROOT, "(%d row%s%s)", total, total == 1 ? "" : "s",
                total > rows.size() ? ", first " + rows.size() + " shown" : ""));
    }

    private static String pad(String s, int width, boolean right) {
        String fill = " ".repeat(Math.max(0, width - s.length()));
        return right ? fill + s : s + fill;
    }
}
