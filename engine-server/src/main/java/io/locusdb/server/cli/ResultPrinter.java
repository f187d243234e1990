package io.locusdb.server.cli;

import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultColumn;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Prints a result as an aligned text table (numbers right-aligned), then its row count. */
final class ResultPrinter {
    private ResultPrinter() {
    }

    static void print(QueryResult result, PrintWriter out, int maxRows) {
        List<ResultColumn> columns = result.columns();
        List<String[]> rows = new ArrayList<>();
        long total = 0;
        while (result.next()) {
            total++;
            if (rows.size() < maxRows) {
                String[] row = new String[columns.size()];
                for (int c = 0; c < row.length; c++) {
                    Object v = result.getObject(c);
                    row[c] = v == null ? "NULL" : v.toString();
                }
                rows.add(row);
            }
        }
        int[] width = new int[columns.size()];
        boolean[] numeric = new boolean[columns.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = columns.get(c).name().length();
            numeric[c] = switch (columns.get(c).type().kind()) {
                case INTEGER, BIGINT, DECIMAL, DOUBLE -> true;
                default -> false;
            };
            for (String[] row : rows) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < width.length; c++) {
            line.append(c == 0 ? "" : " | ").append(pad(columns.get(c).name(), width[c], false));
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
