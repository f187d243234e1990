package io.locusdb.core.sql.oracle;

import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Compares a LocusDB result with DuckDB's for the same SQL and fails with a message that shows the SQL, both row
 * counts and the first differing row of each side.
 *
 * <p>Values are compared after normalization: numbers numerically whatever their Java type (Integer, Long,
 * BigDecimal of any scale, DuckDB's BigInteger for HUGEINT sums) — exactly when both columns are exact types, with
 * a relative tolerance of 1e-9 (absolute 1e-9 near zero) when either side's column is floating point (DOUBLE: AVG,
 * SUM of doubles, casts to DOUBLE); dates as LocalDate; strings exactly, except that trailing spaces are ignored
 * in a column LocusDB types CHAR (standard SQL pads CHAR, DuckDB has no CHAR); NULL equals only NULL.
 *
 * <p>Rows are compared in order when the query's ORDER BY fixes the order of the output; otherwise both sides are
 * first sorted with one total order (exact columns first, floating ones last, so that tolerance cannot reorder
 * rows).
 */
public final class ResultComparison {
    static final double RELATIVE_TOLERANCE = 1e-9;
    static final double ABSOLUTE_TOLERANCE = 1e-9;

    private ResultComparison() {
    }

    /** A LocusDB result read to the end. */
    public record LocusRows(List<ResultColumn> columns, List<List<Object>> rows) {
    }

    /**
     * Runs {@code sql} (with {@code ?} parameters bound by position) in LocusDB and in DuckDB and fails unless the
     * results agree. A LocusDB error of any kind, "feature not supported" (SQLSTATE 0A000) included, fails too.
     */
    public static void assertAgrees(Session session, DuckOracle duck, String sql, boolean ordered,
                                    Object... parameters) {
        DuckOracle.DuckRows expected = duck.query(sql, parameters);
        LocusRows actual = locusRows(session, sql, parameters);
        String label = parameters.length == 0 ? sql : sql + "\n  parameters: " + Arrays.toString(parameters);
        assertSameResult(label, actual, expected, ordered);
    }

    /**
     * Like {@link #assertAgrees}, for a query that DuckDB and LocusDB spell differently ({@code //} is DuckDB's
     * integer division, {@code /} standard SQL's) and that may divide an integer by zero: where DuckDB refuses it
     * for that, LocusDB must fail with SQLSTATE 22012; where DuckDB answers, LocusDB must answer the same.
     *
     * @return whether both refused the query
     */
    public static boolean assertAgreesOrBothDivideByZero(Session session, DuckOracle duck, String locusSql,
                                                         String duckSql, boolean ordered) {
        DuckOracle.DuckRows expected;
        try {
            expected = duck.query(duckSql);
        } catch (DuckOracle.DivisionByZero refused) {
            LocusRows rows;
            try {
                rows = locusRows(session, locusSql);
            } catch (AssertionError failed) {
                if (failed.getCause() instanceof LocusSqlException e && e.state() == SqlState.DIVISION_BY_ZERO) {
                    return true;
                }
                throw new AssertionError("DuckDB divides by zero, LocusDB fails otherwise: " + failed.getMessage()
                        + "\n  DuckDB: " + duckSql, failed);
            }
            throw new AssertionError("DuckDB divides by zero, LocusDB answers " + rows.rows().size() + " row(s)"
                    + "\n  SQL: " + locusSql + "\n  DuckDB: " + duckSql + "\n  " + refused.getMessage());
        }
        assertSameResult(locusSql.equals(duckSql) ? locusSql : locusSql + "\n  DuckDB: " + duckSql,
                locusRows(session, locusSql), expected, ordered);
        return false;
    }

    /**
     * Prepares {@code sql} once in LocusDB and executes it with each set of parameters in turn, comparing every
     * execution with DuckDB's result for the same parameters.
     */
    public static void assertAgreesPrepared(Session session, DuckOracle duck, String sql, boolean ordered,
                                            List<Object[]> parameterSets) {
        PreparedQuery prepared;
        try {
            prepared = session.prepare(sql);
        } catch (RuntimeException e) {
            throw new AssertionError("LocusDB cannot prepare: " + describe(e) + "\n  SQL: " + sql, e);
        }
        for (Object[] parameters : parameterSets) {
            String label = sql + "\n  parameters: " + Arrays.toString(parameters);
            DuckOracle.DuckRows expected = duck.query(sql, parameters);
            LocusRows actual;
            try {
                prepared.clearParameters();
                for (int i = 0; i < parameters.length; i++) {
                    prepared.set(i + 1, parameters[i]);
                }
                try (QueryResult result = prepared.execute()) {
                    actual = new LocusRows(result.columns(), result.toList());
                }
            } catch (RuntimeException e) {
                throw new AssertionError("LocusDB failed: " + describe(e) + "\n  SQL: " + label, e);
            }
            assertSameResult(label, actual, expected, ordered);
        }
    }

    private static String describe(RuntimeException e) {
        return e instanceof LocusSqlException l ? "SQLSTATE " + l.sqlState() + " " + l : e.toString();
    }

    /** Runs a query in LocusDB and reads it to the end; failures name the SQL. */
    public static LocusRows locusRows(Session session, String sql, Object... parameters) {
        try {
            QueryResult result;
            if (parameters.length == 0) {
                result = session.execute(sql);
            } else {
                PreparedQuery prepared = session.prepare(sql);
                for (int i = 0; i < parameters.length; i++) {
                    prepared.set(i + 1, parameters[i]);
                }
                result = prepared.execute();
            }
            try (result) {
                return new LocusRows(result.columns(), result.toList());
            }
        } catch (RuntimeException e) {
            throw new AssertionError("LocusDB failed: " + describe(e) + "\n  SQL: " + sql
                    + (parameters.length == 0 ? "" : "\n  parameters: " + Arrays.toString(parameters)), e);
        }
    }

    /**
     * Fails unless the two results agree.
     *
     * @param ordered whether the SQL's ORDER BY fixes the row order (then rows are compared in order)
     */
    public static void assertSameResult(String sql, LocusRows locus, DuckOracle.DuckRows duck, boolean ordered) {
        String problem = difference(locus, duck, ordered);
        if (problem != null) {
            throw new AssertionError(problem + "\n  SQL: " + sql + "\n  LocusDB: " + locus.rows().size()
                    + " row(s), columns " + describe(locus.columns()) + "\n  DuckDB:  " + duck.rows().size()
                    + " row(s), columns " + describeDuck(duck));
        }
    }

    /** Null when the results agree, else what differs (without the SQL). */
    static String difference(LocusRows locus, DuckOracle.DuckRows duck, boolean ordered) {
        int columns = locus.columns().size();
        if (columns != duck.names().size()) {
            return "column count differs: LocusDB " + columns + ", DuckDB " + duck.names().size();
        }
        for (int c = 0; c < columns; c++) {
            String name = locus.columns().get(c).name();
            String duckName = duck.names().get(c);
            // An unnamed expression is EXPR$n in Calcite and the expression's text in DuckDB: only names that the
            // SQL gives (aliases, column names) are compared.
            if (duckName.matches("[A-Za-z_][A-Za-z0-9_]*") && !name.equalsIgnoreCase(duckName)) {
                return "column " + (c + 1) + " is named '" + name + "' by LocusDB but '" + duck.names().get(c)
                        + "' by DuckDB";
            }
        }
        String typeProblem = checkLocusValueTypes(locus);
        if (typeProblem != null) {
            return typeProblem;
        }
        boolean[] floating = new boolean[columns];
        boolean[] padded = new boolean[columns];
        for (int c = 0; c < columns; c++) {
            ColumnType type = locus.columns().get(c).type();
            String duckType = duck.typeNames().get(c).toUpperCase(Locale.ROOT);
            floating[c] = type.kind() == TypeKind.DOUBLE || duckType.equals("DOUBLE") || duckType.equals("FLOAT")
                    || duckType.equals("REAL");
            padded[c] = type.kind() == TypeKind.CHAR;
        }
        List<List<Object>> l = locus.rows();
        List<List<Object>> d = duck.rows();
        if (!ordered) {
            Comparator<List<Object>> order = rowOrder(floating, padded);
            l = new ArrayList<>(l);
            d = new ArrayList<>(d);
            l.sort(order);
            d.sort(order);
        }
        int n = Math.max(l.size(), d.size());
        for (int r = 0; r < n; r++) {
            List<Object> lr = r < l.size() ? l.get(r) : null;
            List<Object> dr = r < d.size() ? d.get(r) : null;
            int column = lr == null || dr == null ? -1 : firstDifferentColumn(lr, dr, floating, padded);
            if (lr == null || dr == null || column >= 0) {
                return (l.size() != d.size() ? "row count differs: LocusDB " + l.size() + ", DuckDB " + d.size()
                        + "; first difference" : "rows differ") + " at row " + (r + 1)
                        + (ordered ? " (in ORDER BY order)" : " (both sides sorted)")
                        + (column >= 0 ? ", column " + (column + 1) + " (" + locus.columns().get(column).name() + ")"
                        : "") + "\n  LocusDB row: " + render(lr) + "\n  DuckDB row:  " + render(dr);
            }
        }
        return null;
    }

    /** Every LocusDB value must have the Java type its column promises (DECIMAL with the column's scale). */
    private static String checkLocusValueTypes(LocusRows locus) {
        for (int r = 0; r < locus.rows().size(); r++) {
            List<Object> row = locus.rows().get(r);
            if (row.size() != locus.columns().size()) {
                return "LocusDB row " + (r + 1) + " has " + row.size() + " values for " + locus.columns().size()
                        + " columns";
            }
            for (int c = 0; c < row.size(); c++) {
                Object v = row.get(c);
                ColumnType type = locus.columns().get(c).type();
                boolean ok = switch (v) {
                    case null -> true;
                    case Boolean b -> type.kind() == TypeKind.BOOLEAN;
                    case Integer i -> type.kind() == TypeKind.INTEGER;
                    case Long i -> type.kind() == TypeKind.BIGINT;
                    case BigDecimal dec -> type.kind() == TypeKind.DECIMAL && dec.scale() == type.scale();
                    case Double x -> type.kind() == TypeKind.DOUBLE;
                    case String s -> type.kind() == TypeKind.VARCHAR || type.kind() == TypeKind.CHAR;
                    case LocalDate date -> type.kind() == TypeKind.DATE;
                    case LocalDateTime time -> type.kind() == TypeKind.TIMESTAMP;
                    case OffsetDateTime time -> type.kind() == TypeKind.TIMESTAMP_TZ;
                    default -> false;
                };
                if (!ok) {
                    return "LocusDB value " + render(v) + " in row " + (r + 1) + " does not match its column type "
                            + type + " (column " + locus.columns().get(c).name() + ")";
                }
            }
        }
        return null;
    }

    private static int firstDifferentColumn(List<Object> l, List<Object> d, boolean[] floating, boolean[] padded) {
        for (int c = 0; c < floating.length; c++) {
            if (!same(l.get(c), d.get(c), floating[c], padded[c])) {
                return c;
            }
        }
        return -1;
    }

    static boolean same(Object a, Object b, boolean floating, boolean padded) {
        if (a == null || b == null) {
            return a == null && b == null;
        }
        if (a instanceof Number x && b instanceof Number y) {
            if (floating || isFloat(x) || isFloat(y)) {
                return closeEnough(x.doubleValue(), y.doubleValue());
            }
            return exact(x).compareTo(exact(y)) == 0;
        }
        if (a instanceof String s && b instanceof String t) {
            return padded ? stripTrailingSpaces(s).equals(stripTrailingSpaces(t)) : s.equals(t);
        }
        if (temporal(a) && temporal(b)) {
            // DuckOracle reads DuckDB's midnight timestamps as dates: a date and a timestamp are one instant.
            return dateTime(a).equals(dateTime(b));
        }
        if (a instanceof OffsetDateTime x && b instanceof OffsetDateTime y) {
            return x.isEqual(y);
        }
        if (a instanceof Boolean) {
            return a.equals(b);
        }
        return false;
    }

    private static boolean temporal(Object v) {
        return v instanceof LocalDate || v instanceof LocalDateTime;
    }

    private static LocalDateTime dateTime(Object v) {
        return v instanceof LocalDate d ? d.atStartOfDay() : (LocalDateTime) v;
    }

    static boolean closeEnough(double a, double b) {
        if (a == b) {
            return true;
        }
        if (Double.isNaN(a) || Double.isNaN(b) || Double.isInfinite(a) || Double.isInfinite(b)) {
            return Double.isNaN(a) && Double.isNaN(b);
        }
        double diff = Math.abs(a - b);
        return diff <= ABSOLUTE_TOLERANCE || diff <= RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
    }

    private static boolean isFloat(Number n) {
        return n instanceof Double || n instanceof Float;
    }

    static BigDecimal exact(Number n) {
        return switch (n) {
            case BigDecimal d -> d;
            case BigInteger i -> new BigDecimal(i);
            case Double d -> new BigDecimal(d);
            case Float f -> new BigDecimal(f);
            default -> BigDecimal.valueOf(n.longValue());
        };
    }

    private static String stripTrailingSpaces(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    /** A total order on normalized rows: exact columns first (in column order), then the floating ones. */
    static Comparator<List<Object>> rowOrder(boolean[] floating, boolean[] padded) {
        List<Integer> keys = new ArrayList<>();
        for (int c = 0; c < floating.length; c++) {
            if (!floating[c]) {
                keys.add(c);
            }
        }
        for (int c = 0; c < floating.length; c++) {
            if (floating[c]) {
                keys.add(c);
            }
        }
        return (a, b) -> {
            for (int c : keys) {
                int cmp = compareValues(a.get(c), b.get(c), floating[c], padded[c]);
                if (cmp != 0) {
                    return cmp;
                }
            }
            return 0;
        };
    }

    static int compareValues(Object a, Object b, boolean floating, boolean padded) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        if (a instanceof Number x && b instanceof Number y) {
            if (floating || isFloat(x) || isFloat(y)) {
                // -0.0 and 0.0 are one value here, as in SQL.
                return Double.compare(x.doubleValue() + 0.0, y.doubleValue() + 0.0);
            }
            return exact(x).compareTo(exact(y));
        }
        if (a instanceof String s && b instanceof String t) {
            return padded ? stripTrailingSpaces(s).compareTo(stripTrailingSpaces(t)) : s.compareTo(t);
        }
        if (temporal(a) && temporal(b)) {
            return dateTime(a).compareTo(dateTime(b));
        }
        if (a instanceof OffsetDateTime x && b instanceof OffsetDateTime y) {
            return x.toInstant().compareTo(y.toInstant());
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        // Values of different kinds (a real difference, found by the row comparison): any consistent order.
        int byClass = a.getClass().getName().compareTo(b.getClass().getName());
        return byClass != 0 ? byClass : String.valueOf(a).compareTo(String.valueOf(b));
    }

    static String render(List<Object> row) {
        if (row == null) {
            return "<none>";
        }
        List<String> values = new ArrayList<>(row.size());
        for (Object v : row) {
            values.add(render(v));
        }
        return "[" + String.join(", ", values) + "]";
    }

    private static String render(Object v) {
        return switch (v) {
            case null -> "NULL";
            case String s -> "'" + s + "'";
            case BigInteger i -> i + " (HUGEINT)";
            case LocalDate d -> "DATE " + d;
            case LocalDateTime t -> "TIMESTAMP " + t;
            case OffsetDateTime t -> "TIMESTAMPTZ " + t;
            default -> Objects.toString(v) + (v instanceof Double ? " (double)" : "");
        };
    }

    private static String describe(List<ResultColumn> columns) {
        List<String> parts = new ArrayList<>();
        for (ResultColumn c : columns) {
            parts.add(c.name() + " " + c.type());
        }
        return parts.toString();
    }

    private static String describeDuck(DuckOracle.DuckRows duck) {
        List<String> parts = new ArrayList<>();
        for (int c = 0; c < duck.names().size(); c++) {
            parts.add(duck.names().get(c) + " " + duck.typeNames().get(c));
        }
        return parts.toString();
    }
}
