package io.locusdb.server.oracle;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random queries over {@link ExpressionTable} built from random typed expressions: integers, BIGINTs, decimals of
 * different precisions and scales, doubles, dates, strings, booleans and NULLs, combined by arithmetic, CASE,
 * COALESCE, NULLIF, CAST, EXTRACT, string functions, comparisons, BETWEEN, IN, LIKE and logic; constants alone
 * (which the planner folds) and {@code ?} parameters (bound by the test through JDBC) in every place an operand
 * can be. The expressions stand in the select list, WHERE, GROUP BY keys (by expression, ordinal or alias),
 * aggregate arguments, HAVING and ORDER BY.
 *
 * <p>What it leaves out is what the README lists as dialect differences from DuckDB: division of integers and
 * decimals, doubles as text, and any expression whose exact value could need more than 18 digits (every number
 * carries a bound on its magnitude and its scale, so no value, sum or product can overflow LocusDB's 18 digits).
 */
final class ExpressionGenerator {
    enum T {
        INT, BIGINT, DEC, DBL, STR, DATE, BOOL
    }

    /**
     * An expression: SQL text, type, largest magnitude (numbers), scale (exact numbers), whether it is a constant
     * (the planner folds it), and the values of its {@code ?} parameters in the order they stand in the text.
     */
    record E(String sql, T type, double bound, int scale, boolean constant, List<Object> params) {
    }

    /** A generated query with the values of its parameters, in order. */
    record Query(String sql, List<Object> parameters, boolean ordered) {
    }

    /** The unscaled magnitude no exact value may reach (18 digits with room for sums of a few hundred rows). */
    private static final double EXACT_LIMIT = 1e13;
    private static final int MAX_SCALE = 6;

    private final Random r;

    ExpressionGenerator(long seed) {
        this.r = new Random(seed);
    }

    List<Query> generate(int count) {
        List<Query> out = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            double p = r.nextDouble();
            out.add(p < 0.4 ? projection() : p < 0.65 ? aggregate() : grouped());
        }
        return out;
    }

    /**
     * An expression made of parts: strings are SQL text, expressions bring their text and parameters, so the
     * parameters always stand in the order of the text. It is constant when every expression in it is.
     */
    private static E e(T type, double bound, int scale, Object... parts) {
        StringBuilder sql = new StringBuilder();
        List<Object> params = new ArrayList<>();
        boolean constant = true;
        boolean anyExpression = false;
        for (Object part : parts) {
            if (part instanceof E x) {
                sql.append(x.sql());
                params.addAll(x.params());
                constant &= x.constant();
                anyExpression = true;
            } else {
                sql.append(part);
            }
        }
        return new E(sql.toString(), type, bound, scale, constant && anyExpression, List.copyOf(params));
    }

    private static E boolOf(Object... parts) {
        return e(T.BOOL, 0, 0, parts);
    }

    private static E strOf(Object... parts) {
        return e(T.STR, 0, 0, parts);
    }

    private static E dateOf(Object... parts) {
        return e(T.DATE, 0, 0, parts);
    }

    private static E literal(String sql, T type, double bound, int scale) {
        return new E(sql, type, bound, scale, true, List.of());
    }

    private static Query query(E text, boolean ordered) {
        return new Query(text.sql(), text.params(), ordered);
    }

    // ------------------------------------------------------------------ query shapes

    private Query projection() {
        List<Object> parts = new ArrayList<>(List.of("SELECT id"));
        int n = 1 + r.nextInt(3);
        for (int k = 0; k < n; k++) {
            parts.addAll(List.of(", ", any(3), " AS c" + k));
        }
        parts.add(" FROM " + ExpressionTable.NAME);
        where(parts);
        boolean ordered = r.nextDouble() < 0.7;
        if (ordered) {
            parts.add(" ORDER BY ");
            if (r.nextBoolean()) {
                parts.addAll(List.of(orderable(), r.nextBoolean() ? " DESC" : " ASC",
                        r.nextBoolean() ? " NULLS FIRST, " : " NULLS LAST, "));
            }
            parts.add(r.nextBoolean() ? "id DESC" : "id");
            if (r.nextDouble() < 0.3) {
                parts.add(" LIMIT " + (1 + r.nextInt(50)));
            }
        }
        return query(e(T.STR, 0, 0, parts.toArray()), ordered);
    }

    private Query aggregate() {
        List<Object> parts = new ArrayList<>(List.of("SELECT "));
        int n = 1 + r.nextInt(3);
        for (int k = 0; k < n; k++) {
            parts.addAll(List.of(k == 0 ? "" : ", ", aggregateCall(), " AS a" + k));
        }
        parts.add(" FROM " + ExpressionTable.NAME);
        where(parts);
        return query(e(T.STR, 0, 0, parts.toArray()), true);
    }

    private Query grouped() {
        E key = groupKey();
        List<Object> parts = new ArrayList<>(List.of("SELECT ", key, " AS k"));
        int n = 1 + r.nextInt(2);
        for (int k = 0; k < n; k++) {
            parts.addAll(List.of(", ", aggregateCall(), " AS a" + k));
        }
        parts.add(" FROM " + ExpressionTable.NAME);
        where(parts);
        parts.add(" GROUP BY ");
        double style = r.nextDouble();
        // A key holding a parameter is grouped by ordinal or alias: written twice, it would be two parameters, and
        // so two different expressions.
        if (style < 0.4 || !key.params().isEmpty() && style < 0.7) {
            parts.add("1");
        } else if (style < 0.7 || !key.params().isEmpty()) {
            parts.add("k");
        } else {
            parts.add(key.sql());
        }
        if (r.nextDouble() < 0.4) {
            parts.addAll(List.of(" HAVING ", havingPredicate()));
        }
        parts.add(" ORDER BY " + (r.nextBoolean() ? "1" : "k") + " NULLS FIRST");
        return query(e(T.STR, 0, 0, parts.toArray()), true);
    }

    private void where(List<Object> parts) {
        if (r.nextDouble() < 0.7) {
            parts.addAll(List.of(" WHERE ", bool(3)));
        }
    }

    /** Low-cardinality keys, so groups hold several rows. */
    private E groupKey() {
        return switch (r.nextInt(8)) {
            case 0 -> column("s");
            case 1 -> column("f");
            case 2 -> e(T.BIGINT, 3000, 0, "EXTRACT(YEAR FROM ", date(2), ")");
            case 3 -> {
                E a = exactLeaf();
                E b = exactLeaf();
                yield e(T.DEC, Math.max(a.bound(), b.bound()), Math.max(a.scale(), b.scale()), "CASE WHEN i < ",
                        intLiteral(500), " THEN ", a, " ELSE ", b, " END");
            }
            case 4 -> e(T.INT, 10, 0, "MOD(i, " + (2 + r.nextInt(9)) + ")");
            case 5 -> e(T.INT, 1000, 0, "CAST(d4 AS INTEGER)");
            case 6 -> strOf("COALESCE(s, ", stringLeaf(), ")");
            default -> e(T.BIGINT, 200, 0, "(EXTRACT(MONTH FROM dt) + ", integerOperand(), ")");
        };
    }

    private E aggregateCall() {
        return switch (r.nextInt(7)) {
            case 0 -> strOf("COUNT(*)");
            case 1 -> e(T.BIGINT, 0, 0, "COUNT(", any(2), ")");
            case 2 -> e(T.DEC, 0, 0, "SUM(", summable(2), ")");
            case 3 -> e(T.STR, 0, 0, "MIN(", orderable(), ")");
            case 4 -> e(T.STR, 0, 0, "MAX(", orderable(), ")");
            case 5 -> e(T.DBL, 0, 0, "AVG(", summable(2), ")");
            default -> e(T.DEC, 0, 0, "SUM(CASE WHEN ", bool(2), " THEN ", exact(1), " ELSE ", exact(1), " END)");
        };
    }

    private E havingPredicate() {
        return switch (r.nextInt(3)) {
            case 0 -> boolOf("COUNT(*) > ", r.nextBoolean() ? parameter(r.nextInt(5)) : literal(
                    String.valueOf(r.nextInt(5)), T.INT, 5, 0));
            case 1 -> boolOf("SUM(", exact(1), ") " + comparison() + " ", r.nextBoolean() ? decimalLiteral()
                    : exactParameter());
            default -> boolOf("MAX(", orderable(), ") IS NOT NULL");
        };
    }

    // ------------------------------------------------------------------ expressions by type

    private E any(int depth) {
        return switch (r.nextInt(7)) {
            case 0, 1 -> numeric(depth);
            case 2 -> exact(depth);
            case 3 -> string(depth);
            case 4 -> date(depth);
            case 5 -> bool(depth);
            default -> caseOf(depth);
        };
    }

    /**
     * Expressions with a total order that are not constants (DuckDB reads a constant in ORDER BY as an ordinal),
     * and no booleans.
     */
    private E orderable() {
        for (;;) {
            E e = switch (r.nextInt(4)) {
                case 0 -> numeric(2);
                case 1 -> string(2);
                case 2 -> date(2);
                default -> exact(2);
            };
            if (!e.constant() && e.params().isEmpty()) {
                return e;
            }
        }
    }

    private E summable(int depth) {
        return r.nextInt(4) == 0 ? numeric(depth) : exact(depth);
    }

    /** A CASE whose branches are of different exact types or scales (the common type must keep every digit). */
    private E caseOf(int depth) {
        E a = exact(depth - 1);
        E b = r.nextInt(5) == 0 ? numeric(depth - 1) : exact(depth - 1);
        T type = a.type() == T.DBL || b.type() == T.DBL ? T.DBL : T.DEC;
        int scale = Math.max(a.scale(), b.scale());
        double bound = Math.max(a.bound(), b.bound());
        if (type == T.DEC && !fits(bound, scale)) {
            return a;
        }
        return switch (r.nextInt(4)) {
            case 0 -> e(type, bound, scale, "CASE WHEN ", bool(depth - 1), " THEN ", a, " ELSE ", b, " END");
            case 1 -> e(type, bound, scale, "COALESCE(", a, ", ", b, ")");
            case 2 -> e(type, bound, scale, "NULLIF(", a, ", ", b, ")");
            default -> e(type, bound, scale, "CASE WHEN ", bool(depth - 1), " THEN ", a, " WHEN ", bool(depth - 1),
                    " THEN ", b, " END");
        };
    }

    private E numeric(int depth) {
        if (depth <= 0 || r.nextInt(3) == 0) {
            return r.nextInt(4) == 0 ? doubleLeaf() : exactLeaf();
        }
        if (r.nextInt(3) == 0) {
            return doubleOp(depth);
        }
        return exact(depth);
    }

    private E doubleOp(int depth) {
        E a = numeric(depth - 1);
        E b = numeric(depth - 1);
        return switch (r.nextInt(4)) {
            // Never by zero: an error here (22012, as in PostgreSQL), IEEE infinity in DuckDB for doubles.
            case 0 -> e(T.DBL, 1e12, 0, "(", asDouble(a), " / NULLIF(", b, ", 0))");
            case 1 -> e(T.DBL, 1e12, 0, "(", asDouble(a), " * ", b, ")");
            case 2 -> asDouble(a);
            default -> e(T.DBL, 1e12, 0, "(", asDouble(a), " - ", b, ")");
        };
    }

    private static E asDouble(E x) {
        return x.type() == T.DBL ? x : e(T.DBL, x.bound(), 0, "CAST(", x, " AS DOUBLE)");
    }

    /** An exact number (INTEGER, BIGINT or DECIMAL). */
    private E exact(int depth) {
        if (depth <= 0 || r.nextInt(4) == 0) {
            return exactLeaf();
        }
        E a = exact(depth - 1);
        switch (r.nextInt(9)) {
            case 0, 1 -> {
                E b = exact(depth - 1);
                T sumType = sumType(a, b);
                double bound = a.bound() + b.bound();
                int scale = Math.max(a.scale(), b.scale());
                if (fits(bound, scale) && (sumType != T.INT || bound < 1e9)) {
                    return e(sumType, bound, scale, "(", a, r.nextBoolean() ? " + " : " - ", b, ")");
                }
                return a;
            }
            case 2 -> {
                E b = exact(depth - 1);
                T sumType = sumType(a, b);
                double bound = a.bound() * b.bound();
                int scale = a.scale() + b.scale();
                if (fits(bound, scale) && scale <= MAX_SCALE && (sumType != T.INT || bound < 1e9)) {
                    return e(sumType, bound, scale, "(", a, " * ", b, ")");
                }
                return b;
            }
            case 3 -> {
                return e(a.type(), a.bound(), a.scale(), "(-", a, ")");
            }
            case 4 -> {
                return e(a.type(), a.bound(), a.scale(), "ABS(", a, ")");
            }
            case 5 -> {
                return caseOf(depth);
            }
            case 6 -> {
                return cast(a);
            }
            case 7 -> {
                String field = pick("YEAR", "MONTH", "DAY", "DOW", "DOY", "QUARTER");
                return e(T.BIGINT, 3000, 0, "EXTRACT(" + field + " FROM ", date(depth - 1), ")");
            }
            default -> {
                if (a.type() == T.DEC && a.scale() > 0) {
                    int digits = r.nextInt(a.scale());
                    return e(T.DEC, a.bound() + 1, digits, "ROUND(", a, ", " + digits + ")");
                }
                return e(T.INT, 100, 0, "CHAR_LENGTH(", string(depth - 1), ")");
            }
        }
    }

    private static T sumType(E a, E b) {
        return a.type() == T.DEC || b.type() == T.DEC ? T.DEC
                : a.type() == T.BIGINT || b.type() == T.BIGINT ? T.BIGINT : T.INT;
    }

    /** CAST of an exact number to another exact type: rounding half away from zero where the scale shrinks. */
    private E cast(E a) {
        switch (r.nextInt(4)) {
            case 0 -> {
                return a.bound() < 2e9 ? e(T.INT, a.bound() + 1, 0, "CAST(", a, " AS INTEGER)") : a;
            }
            case 1 -> {
                return e(T.BIGINT, a.bound() + 1, 0, "CAST(", a, " AS BIGINT)");
            }
            default -> {
                int scale = r.nextInt(5);
                int integerDigits = (int) Math.ceil(Math.log10(a.bound() + 2)) + 1;
                if (integerDigits + scale > 18) {
                    return a;
                }
                return e(T.DEC, a.bound() + 1, scale, "CAST(", a, " AS DECIMAL(" + (integerDigits + scale) + ", "
                        + scale + "))");
            }
        }
    }

    private static boolean fits(double bound, int scale) {
        return bound * Math.pow(10, scale) < EXACT_LIMIT;
    }

    private E exactLeaf() {
        return switch (r.nextInt(9)) {
            case 0 -> column("i");
            case 1 -> column("b");
            case 2, 3 -> column("d2");
            case 4 -> column("d4");
            case 5 -> decimalLiteral();
            case 6 -> intLiteral(1000);
            case 7 -> exactParameter();
            default -> literal("CAST(NULL AS DECIMAL(" + (5 + r.nextInt(10)) + ", " + r.nextInt(5) + "))", T.DEC, 1,
                    4);
        };
    }

    private E integerOperand() {
        return r.nextBoolean() ? intLiteral(100) : typedParameter("INTEGER", r.nextInt(201) - 100, T.INT, 100, 0);
    }

    /** A parameter whose type its CAST names, so that both engines bind the same value. */
    private E exactParameter() {
        return switch (r.nextInt(3)) {
            case 0 -> typedParameter("INTEGER", r.nextInt(2001) - 1000, T.INT, 1000, 0);
            case 1 -> {
                int scale = 1 + r.nextInt(3);
                BigDecimal v = BigDecimal.valueOf(r.nextLong(-999_999, 1_000_000), scale);
                yield typedParameter("DECIMAL(10, " + scale + ")", v, T.DEC, 1e6, scale);
            }
            default -> typedParameter("BIGINT", r.nextLong(-1_000_000_000L, 1_000_000_000L), T.BIGINT, 1e9, 0);
        };
    }

    private static E typedParameter(String castTo, Object value, T type, double bound, int scale) {
        return e(type, bound, scale, "CAST(", parameter(value), " AS " + castTo + ")");
    }

    /** A bare {@code ?} whose type its context gives (the other side of a comparison, an IN list, LIKE). */
    private static E parameter(Object value) {
        List<Object> params = new ArrayList<>();
        params.add(value);
        return new E("?", null, 0, 0, false, params);
    }

    private E decimalLiteral() {
        int scale = 1 + r.nextInt(4);
        BigDecimal v = BigDecimal.valueOf(r.nextLong(-99_999, 100_000), scale);
        String text = v.signum() < 0 ? "(" + v.toPlainString() + ")" : v.toPlainString();
        return literal(text, T.DEC, Math.abs(v.doubleValue()) + 1, scale);
    }

    private E intLiteral(int bound) {
        int v = r.nextInt(2 * bound + 1) - bound;
        return literal(v < 0 ? "(" + v + ")" : String.valueOf(v), T.INT, bound, 0);
    }

    private E doubleLeaf() {
        return switch (r.nextInt(4)) {
            case 0, 1 -> column("x");
            case 2 -> literal((r.nextInt(4001) - 2000) / 4.0 + "E0", T.DBL, 500, 0);
            default -> typedParameter("DOUBLE", (r.nextInt(4001) - 2000) / 8.0, T.DBL, 250, 0);
        };
    }

    private E string(int depth) {
        if (depth <= 0 || r.nextInt(3) == 0) {
            return r.nextInt(3) == 0 ? stringLeaf() : column("s");
        }
        E a = string(depth - 1);
        return switch (r.nextInt(8)) {
            case 0 -> strOf("UPPER(", a, ")");
            case 1 -> strOf("LOWER(", a, ")");
            case 2 -> strOf("SUBSTRING(", a, " FROM " + (1 + r.nextInt(3)) + " FOR " + r.nextInt(4) + ")");
            case 3 -> strOf("(", a, " || ", string(depth - 1), ")");
            case 4 -> strOf("CAST(", exactNotDouble(depth - 1), " AS VARCHAR)");
            // DuckDB types date + INTERVAL as TIMESTAMP (standard SQL: DATE), so its text would carry a time.
            case 5 -> strOf("CAST(CAST(", date(depth - 1), " AS DATE) AS VARCHAR)");
            case 6 -> strOf("COALESCE(", a, ", ", stringLeaf(), ")");
            default -> strOf("CASE WHEN ", bool(depth - 1), " THEN ", a, " ELSE ", string(depth - 1), " END");
        };
    }

    /**
     * An exact number for text: a CASE mixing in a DOUBLE is a DOUBLE, and doubles print differently here and in
     * DuckDB (1.327762376E9 and 1327762376.0; the README lists it).
     */
    private E exactNotDouble(int depth) {
        for (;;) {
            E e = exact(depth);
            if (e.type() != T.DBL) {
                return e;
            }
        }
    }

    private E stringLeaf() {
        String v = ExpressionTable.STRINGS.get(r.nextInt(ExpressionTable.STRINGS.size()));
        if (r.nextInt(4) == 0) {
            return typedParameter("VARCHAR", v, T.STR, 0, 0);
        }
        return literal("'" + v + "'", T.STR, 0, 0);
    }

    private E date(int depth) {
        if (depth <= 0 || r.nextInt(3) == 0) {
            return switch (r.nextInt(5)) {
                case 0 -> literal("DATE '" + randomDate() + "'", T.DATE, 0, 0);
                case 1 -> typedParameter("DATE", randomDate(), T.DATE, 0, 0);
                default -> column("dt");
            };
        }
        E a = date(depth - 1);
        return switch (r.nextInt(4)) {
            case 0 -> dateOf("(", a, " + INTERVAL '" + r.nextInt(400) + "' DAY)");
            case 1 -> dateOf("(", a, " - INTERVAL '" + r.nextInt(30) + "' MONTH)");
            case 2 -> dateOf("COALESCE(", a, ", DATE '" + randomDate() + "')");
            default -> dateOf("CASE WHEN ", bool(depth - 1), " THEN ", a, " ELSE ", date(depth - 1), " END");
        };
    }

    private LocalDate randomDate() {
        return ExpressionTable.FIRST_DATE.plusDays(r.nextInt(ExpressionTable.DATE_SPAN_DAYS));
    }

    private E bool(int depth) {
        if (depth <= 0) {
            return r.nextBoolean() ? column("f") : comparisonOf(0);
        }
        return switch (r.nextInt(10)) {
            case 0, 1, 2 -> comparisonOf(depth - 1);
            case 3 -> boolOf("(", bool(depth - 1), " AND ", bool(depth - 1), ")");
            case 4 -> boolOf("(", bool(depth - 1), " OR ", bool(depth - 1), ")");
            case 5 -> boolOf("(NOT ", bool(depth - 1), ")");
            case 6 -> boolOf("(", any(depth - 1), r.nextBoolean() ? " IS NULL)" : " IS NOT NULL)");
            case 7 -> between(depth - 1);
            case 8 -> in(depth - 1);
            default -> like(depth - 1);
        };
    }

    private E comparisonOf(int depth) {
        String op = " " + comparison() + " ";
        return switch (r.nextInt(6)) {
            case 0 -> boolOf("(", string(depth), op, string(depth), ")");
            case 1 -> boolOf("(", date(depth), op, date(depth), ")");
            case 2 -> columnAgainstParameter(op);
            default -> boolOf("(", numeric(depth), op, numeric(depth), ")");
        };
    }

    /** {@code column op ?} with a value of the column's type (a decimal may carry more digits than the column). */
    private E columnAgainstParameter(String op) {
        String column = pick("i", "b", "d2", "d4", "x", "s", "dt");
        Object value = switch (column) {
            case "i" -> r.nextInt(2001) - 1000;
            case "b" -> r.nextLong(-1_000_000_000L, 1_000_000_000L);
            case "d2" -> BigDecimal.valueOf(r.nextLong(-9_999_999, 10_000_000), 2 + r.nextInt(2));
            case "d4" -> BigDecimal.valueOf(r.nextLong(-9_999_999, 10_000_000), 4);
            case "x" -> (r.nextInt(40001) - 20000) / 4.0;
            case "s" -> ExpressionTable.STRINGS.get(r.nextInt(ExpressionTable.STRINGS.size()));
            default -> randomDate();
        };
        return boolOf("(" + column + op, parameter(value), ")");
    }

    private E between(int depth) {
        return boolOf("(", numeric(depth), r.nextBoolean() ? " BETWEEN " : " NOT BETWEEN ", numeric(0), " AND ",
                numeric(0), ")");
    }

    private E in(int depth) {
        List<Object> parts = new ArrayList<>(List.of("("));
        int n = 1 + r.nextInt(4);
        if (r.nextBoolean()) {
            parts.addAll(List.of(exact(depth), r.nextBoolean() ? " IN (" : " NOT IN ("));
            for (int k = 0; k < n; k++) {
                parts.add(k == 0 ? "" : ", ");
                parts.add(r.nextInt(4) == 0 ? parameter(r.nextInt(21) - 10) : r.nextInt(6) == 0 ? "NULL"
                        : exactLeaf());
            }
        } else {
            parts.addAll(List.of(string(depth), r.nextBoolean() ? " IN (" : " NOT IN ("));
            for (int k = 0; k < n; k++) {
                String v = ExpressionTable.STRINGS.get(r.nextInt(ExpressionTable.STRINGS.size()));
                parts.add(k == 0 ? "" : ", ");
                parts.add(r.nextInt(4) == 0 ? parameter(v) : "'" + v + "'");
            }
        }
        parts.add("))");
        return boolOf(parts.toArray());
    }

    private E like(int depth) {
        String pattern = pick("a%", "%b", "_", "%", "a_", "%a%", "", "A%");
        return boolOf("(", string(depth), r.nextBoolean() ? " LIKE " : " NOT LIKE ",
                r.nextInt(3) == 0 ? parameter(pattern) : "'" + pattern + "'", ")");
    }

    private String comparison() {
        return pick("=", "<>", "<", "<=", ">", ">=");
    }

    private static E column(String name) {
        return switch (name) {
            case "i" -> new E("i", T.INT, ExpressionTable.I_BOUND, 0, false, List.of());
            case "b" -> new E("b", T.BIGINT, ExpressionTable.B_BOUND, 0, false, List.of());
            case "d2" -> new E("d2", T.DEC, ExpressionTable.D2_BOUND, 2, false, List.of());
            case "d4" -> new E("d4", T.DEC, ExpressionTable.D4_BOUND, 4, false, List.of());
            case "x" -> new E("x", T.DBL, ExpressionTable.X_BOUND, 0, false, List.of());
            case "s" -> new E("s", T.STR, 0, 0, false, List.of());
            case "dt" -> new E("dt", T.DATE, 0, 0, false, List.of());
            case "f" -> new E("f", T.BOOL, 0, 0, false, List.of());
            default -> throw new IllegalArgumentException(name);
        };
    }

    private String pick(String... options) {
        return options[r.nextInt(options.length)];
    }
}
