package io.locusdb.bench.clients;

import io.locusdb.bench.clients.MixQuery.WrongAnswerException;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The rows a query must return, taken from the oracle (DuckDB) once, and the check of another engine's rows against
 * them: numbers by value within a relative {@value #TOLERANCE} (a sum of decimals may come back as DECIMAL from one
 * engine and DOUBLE from the other), strings without trailing blanks (CHAR), dates and times by their text. Rows are
 * compared in order, and where that fails as multisets: rows that tie on every ORDER BY key may come in any order.
 */
public final class ReferenceAnswer {
    static final double TOLERANCE = 1e-6;

    private final List<Object[]> rows;

    private ReferenceAnswer(List<Object[]> rows) {
        this.rows = rows;
    }

    /** Reads every row of {@code result} as the expected answer. */
    public static ReferenceAnswer of(ResultSet result) throws SQLException {
        return new ReferenceAnswer(read(result));
    }

    public int rowCount() {
        return rows.size();
    }

    /** Reads {@code result} whole and throws {@link WrongAnswerException} naming {@code query} where it differs. */
    public long check(String query, ResultSet result) throws SQLException {
        List<Object[]> actual = read(result);
        if (actual.size() != rows.size()) {
            throw new WrongAnswerException(query + ": " + actual.size() + " rows, expected " + rows.size());
        }
        if (sameInOrder(actual, rows)) {
            return actual.size();
        }
        List<Object[]> a = sorted(actual);
        List<Object[]> e = sorted(rows);
        for (int r = 0; r < a.size(); r++) {
            if (!sameRow(a.get(r), e.get(r))) {
                throw new WrongAnswerException(query + ": row " + Arrays.toString(a.get(r)) + ", expected "
                        + Arrays.toString(e.get(r)));
            }
        }
        return actual.size();
    }

    private static List<Object[]> read(ResultSet result) throws SQLException {
        ResultSetMetaData meta = result.getMetaData();
        int columns = meta.getColumnCount();
        List<Object[]> out = new ArrayList<>();
        while (result.next()) {
            Object[] row = new Object[columns];
            for (int c = 0; c < columns; c++) {
                row[c] = normal(result.getObject(c + 1));
            }
            out.add(row);
        }
        return out;
    }

    /** Numbers as doubles, strings without trailing blanks, anything else (dates, times) as its text. */
    private static Object normal(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof String s) {
            return s.stripTrailing();
        }
        return value.toString();
    }

    private static boolean sameInOrder(List<Object[]> actual, List<Object[]> expected) {
        for (int r = 0; r < actual.size(); r++) {
            if (!sameRow(actual.get(r), expected.get(r))) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameRow(Object[] a, Object[] e) {
        if (a.length != e.length) {
            return false;
        }
        for (int c = 0; c < a.length; c++) {
            if (!sameValue(a[c], e[c])) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameValue(Object a, Object e) {
        if (a == null || e == null) {
            return a == e;
        }
        if (a instanceof Double x && e instanceof Double y) {
            return Math.abs(x - y) <= TOLERANCE * Math.max(1, Math.max(Math.abs(x), Math.abs(y)));
        }
        return a.equals(e);
    }

    /** The rows in one canonical order (nulls first, numbers by value, the rest by text), for the multiset check. */
    private static List<Object[]> sorted(List<Object[]> rows) {
        Comparator<Object[]> order = (x, y) -> {
            for (int c = 0; c < Math.min(x.length, y.length); c++) {
                int cmp = compare(x[c], y[c]);
                if (cmp != 0) {
                    return cmp;
                }
            }
            return Integer.compare(x.length, y.length);
        };
        List<Object[]> out = new ArrayList<>(rows);
        out.sort(order);
        return out;
    }

    private static int compare(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        if (a instanceof Double x && b instanceof Double y) {
            // Values within the tolerance sort as equal, so rounding differences do not reorder the two sides.
            return Math.abs(x - y) <= TOLERANCE * Math.max(1, Math.max(Math.abs(x), Math.abs(y))) ? 0
                    : Double.compare(x, y);
        }
        return a.toString().compareTo(b.toString());
    }
}
