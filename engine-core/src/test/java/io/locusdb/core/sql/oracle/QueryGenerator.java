package io.locusdb.core.sql.oracle;

import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.type.ColumnType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Generates random single-table queries (seeded, so the same list every run) that standard SQL (Calcite) and
 * DuckDB must answer identically: WHERE with comparisons, BETWEEN, IN/NOT IN, LIKE, IS [NOT] NULL and AND/OR/NOT;
 * arithmetic (+, -, * on numbers; / between doubles with the divisor guarded by NULLIF; integer division and modulo
 * by integers that are often zero, guarded or not), CASE, CAST, EXTRACT, DATE literals and
 * {@code date ± INTERVAL 'n' DAY}, TIMESTAMP columns, literals, interval arithmetic, date_trunc, date_diff and casts,
 * COALESCE, ABS; aggregates COUNT(*), COUNT, COUNT(DISTINCT), SUM, AVG, MIN, MAX with and without GROUP BY, HAVING;
 * ORDER BY with LIMIT/OFFSET. An unguarded integer division by zero must make both engines refuse the query
 * (SQLSTATE 22012 in LocusDB), which is why such divisions only go where every engine evaluates them on the same
 * rows (see {@link #mayDivideByZero}).
 *
 * <p>Constructs on which DuckDB and standard SQL legitimately differ are avoided or spelled for each: integer
 * division is {@code //} in DuckDB and {@code /} in LocusDB, double division by zero is avoided (Infinity in DuckDB,
 * an error in PostgreSQL), no
 * string/number mixing or casts to text, no casts that round (DECIMAL or DOUBLE to integers), ORDER BY always says
 * NULLS FIRST/LAST, LIMIT/OFFSET only under an ORDER BY that fixes the order of the output (all output columns, or
 * the unique key), no ordering by or HAVING on inexact (floating) aggregates, no CASE/COALESCE whose common
 * DECIMAL type would need more than 19 digits (Calcite then drops the fraction: BIGINT with DECIMAL(12,2) is
 * DECIMAL(19,0); DuckDB keeps it). Integer and decimal expressions keep track of a bound on their magnitude so that
 * no expression, SUM or AVG can overflow INTEGER/BIGINT/DECIMAL(18).
 *
 * <p>Checked against Calcite's own (Enumerable) executor during development: with AVG taken as DOUBLE (Calcite's
 * AVG of integers is an integer, LocusDB's is DOUBLE like DuckDB's) the two agreed on every generated query but
 * one, where Calcite's executor is wrong and its plan, the one LocusDB runs, is right.
 */
final class QueryGenerator {
    /** The value types the generator knows. */
    enum T {
        INT, BIGINT, DEC, DBL, STR, DATE, BOOL, TS;

        boolean exact() {
            return this != DBL;
        }
    }

    enum Kind {
        PROJECTION, AGGREGATE, GROUPED
    }

    /**
     * A generated query: {@code sql} in LocusDB's (standard SQL's) spelling, {@code duckSql} in DuckDB's (which
     * writes integer division {@code //}); {@code ordered} when its ORDER BY fixes the order of its rows.
     */
    record GeneratedQuery(int index, String table, Kind kind, String sql, String duckSql, boolean ordered,
                          Set<String> features) {
        GeneratedQuery(int index, String table, Kind kind, String duckSql, boolean ordered, Set<String> features) {
            this(index, table, kind, duckSql.replace(INTEGER_DIVISION, " / "), duckSql, ordered, features);
        }

        String displayName() {
            return String.format("q%03d %s: %s", index, table, sql);
        }
    }

    /** DuckDB's integer division; its {@code /} divides as doubles. No generated literal contains it. */
    static final String INTEGER_DIVISION = " // ";

    /**
     * A column: its type, whether it can be NULL, a bound on its magnitude (numbers), its scale (DECIMAL), and a
     * sampler of values that occur in it (logical Java values) for literals that select something.
     */
    record Col(String name, T type, boolean nullable, double bound, int scale, String domain,
               Function<Random, Object> sample) {
    }

    /**
     * A table as the generator sees it: columns, row count (bounds SUMs), a unique key for ORDER BY (or null),
     * group-by key expressions, strings for literals and LIKE patterns, the date range of its data, and for big
     * tables a range condition on a key that keeps the results of plain projections to a few thousand rows.
     */
    record TableModel(String name, Schema schema, List<Col> columns, long rows, String uniqueKey, List<Key> groupKeys,
                      List<String> strings, LocalDate firstDate, LocalDate lastDate,
                      Function<Random, String> restriction) {
        List<Col> ofType(T... types) {
            List<Col> out = new ArrayList<>();
            for (Col c : columns) {
                for (T t : types) {
                    if (c.type() == t) {
                        out.add(c);
                    }
                }
            }
            return out;
        }
    }

    /** A GROUP BY key: SQL text, type, and whether it can be NULL. */
    record Key(String sql, T type, boolean nullable) {
    }

    /**
     * A typed expression (as SQL text) with a magnitude bound (numbers), the column it is (if just one), and for
     * exact numbers the digits before the decimal point of its standard SQL type as Calcite derives it (INTEGER
     * 10, BIGINT 19, DECIMAL(p,s) p-s, at most 19 digits in all).
     */
    record E(String sql, T type, double bound, int scale, boolean nullable, Col column, int digits) {
        E(String sql, T type, double bound, int scale, boolean nullable, Col column) {
            this(sql, type, bound, scale, nullable, column, switch (type) {
                case INT -> 10;
                case BIGINT, DEC -> 19;
                default -> 0;
            });
        }

        boolean isColumn() {
            return column != null;
        }
    }

    /** The most digits (precision) of a DECIMAL in Calcite's default type system. */
    private static final int MAX_PRECISION = 19;

    /** Largest magnitude an expression of each exact type may reach in a row. */
    private static final double INT_LIMIT = 1e8;
    private static final double BIGINT_LIMIT = 1e15;
    private static final double DEC_UNSCALED_LIMIT = 1e15;
    /** Largest magnitude of the SUM of an expression over every row (INT sums may be typed INTEGER). */
    private static final double INT_SUM_LIMIT = 1e9;
    private static final double BIGINT_SUM_LIMIT = 1e17;
    private static final double DEC_SUM_UNSCALED_LIMIT = 1e17;

    private static final String[] COMPARISONS = {"=", "<>", "<", "<=", ">", ">="};

    private final Random r;
    private TableModel t;
    private Set<String> features;
    /**
     * Whether the expression being generated may divide an integer by zero without a guard: only where every
     * engine must evaluate it on exactly the rows the query names (select lists of whole results, aggregate
     * arguments), never in conditions (engines order conjuncts as they like) or under a LIMIT (an engine may
     * project only the rows it returns).
     */
    private boolean mayDivideByZero;

    QueryGenerator(long seed) {
        this.r = new Random(seed);
    }

    /** {@code count} queries over {@code table}, numbered from {@code firstIndex}. */
    List<GeneratedQuery> generate(TableModel table, int count, int firstIndex) {
        List<GeneratedQuery> out = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            out.add(one(table, firstIndex + k));
        }
        return out;
    }

    private GeneratedQuery one(TableModel table, int index) {
        this.t = table;
        this.features = new LinkedHashSet<>();
        this.mayDivideByZero = false;
        double p = r.nextDouble();
        Kind kind = p < 0.35 ? Kind.PROJECTION : p < 0.6 ? Kind.AGGREGATE : Kind.GROUPED;
        return switch (kind) {
            case PROJECTION -> projection(index);
            case AGGREGATE -> aggregate(index);
            case GROUPED -> grouped(index);
        };
    }

    // ---------------------------------------------------------------- query shapes

    private GeneratedQuery projection(int index) {
        double o = r.nextDouble();
        boolean limited = (o < 0.35 || o < 0.5 && t.uniqueKey() != null) && r.nextDouble() < 0.6;
        int n = 1 + r.nextInt(4);
        List<E> items = new ArrayList<>();
        mayDivideByZero = !limited;
        for (int k = 0; k < n; k++) {
            items.add(selectItem());
        }
        mayDivideByZero = false;
        StringBuilder sql = new StringBuilder("SELECT ").append(aliased(items.stream().map(E::sql).toList()));
        sql.append(" FROM ").append(t.name());
        String where = wherePredicate(0.12, 0.06);
        if (t.restriction() != null && r.nextDouble() < 0.8) {
            String restriction = t.restriction().apply(r);
            where = where == null ? restriction : "(" + where + " AND " + restriction + ")";
        }
        if (where != null) {
            sql.append(" WHERE ").append(where);
        }
        boolean ordered = false;
        if (o < 0.35) {
            sql.append(" ORDER BY ").append(orderByAll(items.size()));
            ordered = true;
        } else if (o < 0.5 && t.uniqueKey() != null) {
            sql.append(" ORDER BY ").append(t.uniqueKey()).append(r.nextBoolean() ? " DESC" : " ASC");
            features.add("order by key");
            ordered = true;
        }
        if (limited) {
            limitOffset(sql);
        }
        return new GeneratedQuery(index, t.name(), Kind.PROJECTION, sql.toString(), ordered, features);
    }

    private GeneratedQuery aggregate(int index) {
        int n = 1 + r.nextInt(4);
        List<String> aggs = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            aggs.add(aggregateCall().sql());
        }
        mayDivideByZero = false;
        StringBuilder sql = new StringBuilder("SELECT ").append(aliased(aggs)).append(" FROM ").append(t.name());
        // Aggregates over no rows (COUNT 0, SUM NULL) come up more often here.
        where(sql, 0.12, 0.15);
        return new GeneratedQuery(index, t.name(), Kind.AGGREGATE, sql.toString(), true, features);
    }

    private GeneratedQuery grouped(int index) {
        features.add("group by");
        int keyCount = r.nextDouble() < 0.65 ? 1 : 2;
        List<Key> keys = new ArrayList<>();
        while (keys.size() < keyCount) {
            Key k = t.groupKeys().get(r.nextInt(t.groupKeys().size()));
            if (!keys.contains(k)) {
                keys.add(k);
            }
        }
        boolean keysInOutput = r.nextDouble() < 0.9;
        List<String> items = new ArrayList<>();
        if (keysInOutput) {
            for (Key k : keys) {
                items.add(k.sql());
            }
        } else {
            features.add("group key not selected");
        }
        int aggCount = 1 + r.nextInt(3);
        List<Agg> aggs = new ArrayList<>();
        for (int k = 0; k < aggCount; k++) {
            Agg a = aggregateCall();
            aggs.add(a);
            items.add(a.sql());
        }
        mayDivideByZero = false;
        StringBuilder sql = new StringBuilder("SELECT ").append(aliased(items)).append(" FROM ").append(t.name());
        where(sql, 0.2, 0.05);
        sql.append(" GROUP BY ").append(String.join(", ", keys.stream().map(Key::sql).toList()));
        if (r.nextDouble() < 0.3) {
            sql.append(" HAVING ").append(having(0));
            features.add("having");
        }
        boolean ordered = false;
        if (keysInOutput && r.nextDouble() < 0.45) {
            ordered = true;
            List<String> order = new ArrayList<>();
            // Sometimes an exact aggregate leads (e.g. the largest groups first); the keys make the order total.
            for (int a = 0; a < aggs.size(); a++) {
                if (aggs.get(a).exact() && order.isEmpty() && r.nextDouble() < 0.3) {
                    order.add(orderTerm("c" + (keys.size() + a)));
                    features.add("order by aggregate");
                }
            }
            for (int k = 0; k < keys.size(); k++) {
                order.add(orderTerm("c" + k));
            }
            sql.append(" ORDER BY ").append(String.join(", ", order));
            features.add("order by");
            if (r.nextDouble() < 0.5) {
                limitOffset(sql);
            }
        }
        return new GeneratedQuery(index, t.name(), Kind.GROUPED, sql.toString(), ordered, features);
    }

    private static String aliased(List<String> items) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < items.size(); k++) {
            out.add(items.get(k) + " AS c" + k);
        }
        return String.join(", ", out);
    }

    private void where(StringBuilder sql, double noWhere, double empty) {
        String p = wherePredicate(noWhere, empty);
        if (p != null) {
            sql.append(" WHERE ").append(p);
        }
    }

    /** A WHERE condition, or null for none; with probability {@code empty} one that no row satisfies. */
    private String wherePredicate(double noWhere, double empty) {
        if (r.nextDouble() < noWhere) {
            return null;
        }
        String p = predicate(r.nextInt(3));
        if (r.nextDouble() < empty) {
            p = "(" + p + " AND " + contradiction() + ")";
            features.add("empty");
        }
        features.add("where");
        return p;
    }

    private String orderByAll(int columns) {
        List<String> order = new ArrayList<>();
        for (int c = 0; c < columns; c++) {
            order.add(orderTerm("c" + c));
        }
        features.add("order by");
        return String.join(", ", order);
    }

    /** An ORDER BY term; NULLS FIRST/LAST always spelled out (the defaults differ between systems). */
    private String orderTerm(String alias) {
        return alias + (r.nextBoolean() ? " DESC" : " ASC") + (r.nextBoolean() ? " NULLS FIRST" : " NULLS LAST");
    }

    private void limitOffset(StringBuilder sql) {
        double p = r.nextDouble();
        if (p < 0.75) {
            int limit = r.nextDouble() < 0.05 ? 0 : 1 + r.nextInt(r.nextBoolean() ? 10 : 100);
            sql.append(" LIMIT ").append(limit);
            features.add("limit");
        }
        if (p >= 0.5) {
            sql.append(" OFFSET ").append(r.nextDouble() < 0.1 ? 100_000 : r.nextInt(r.nextBoolean() ? 4 : 30));
            features.add("offset");
        }
    }

    // ---------------------------------------------------------------- select items and aggregates

    private E selectItem() {
        double p = r.nextDouble();
        if (p < 0.45) {
            return columnRef(t.columns().get(r.nextInt(t.columns().size())));
        }
        if (p < 0.75) {
            return numeric(1 + r.nextInt(2));
        }
        if (p < 0.87) {
            return string(1);
        }
        return hasTimestamps() && r.nextBoolean() ? timestamp(1) : date(1);
    }

    private boolean hasTimestamps() {
        return !t.ofType(T.TS).isEmpty();
    }

    /** An aggregate call; {@code exact} when its value is exact (so it may lead an ORDER BY). */
    record Agg(String sql, boolean exact, boolean nullable) {
    }

    /** An aggregate call; its argument is evaluated on every row the WHERE keeps, so it may divide by zero. */
    private Agg aggregateCall() {
        mayDivideByZero = true;
        double p = r.nextDouble();
        if (p < 0.15) {
            return new Agg("COUNT(*)", true, false);
        }
        if (p < 0.25) {
            E e = anyOperand();
            features.add("count");
            return new Agg("COUNT(" + e.sql() + ")", true, false);
        }
        if (p < 0.35) {
            E e = r.nextDouble() < 0.8 ? columnRef(t.columns().get(r.nextInt(t.columns().size()))) : anyOperand();
            features.add("count distinct");
            return new Agg("COUNT(DISTINCT " + e.sql() + ")", true, false);
        }
        if (p < 0.7) {
            E e = summable();
            boolean avg = p >= 0.55;
            features.add(avg ? "avg" : "sum");
            return new Agg((avg ? "AVG(" : "SUM(") + e.sql() + ")", !avg && e.type().exact(), true);
        }
        E e = r.nextDouble() < 0.6 ? columnRef(pick(t.ofType(T.INT, T.BIGINT, T.DEC, T.DBL, T.STR, T.DATE, T.TS)))
                : switch (r.nextInt(4)) {
                    case 0 -> numeric(1);
                    case 1 -> string(1);
                    case 2 -> hasTimestamps() ? timestamp(1) : date(1);
                    default -> date(1);
                };
        features.add("min/max");
        return new Agg((r.nextBoolean() ? "MIN(" : "MAX(") + e.sql() + ")", true, true);
    }

    /** A numeric expression whose SUM over every row stays in range. */
    private E summable() {
        for (int attempt = 0; ; attempt++) {
            E e = attempt > 20 ? columnRef(pick(t.ofType(T.INT, T.BIGINT, T.DEC, T.DBL)))
                    : r.nextDouble() < 0.5 ? columnRef(pick(t.ofType(T.INT, T.BIGINT, T.DEC, T.DBL))) : numeric(1);
            double total = e.bound() * t.rows();
            boolean ok = switch (e.type()) {
                case INT -> total <= INT_SUM_LIMIT;
                case BIGINT -> total <= BIGINT_SUM_LIMIT;
                case DEC -> total * Math.pow(10, e.scale()) <= DEC_SUM_UNSCALED_LIMIT;
                default -> true;
            };
            if (ok) {
                return e;
            }
        }
    }

    private E anyOperand() {
        return switch (r.nextInt(6)) {
            case 0, 1 -> columnRef(t.columns().get(r.nextInt(t.columns().size())));
            case 2 -> numeric(1);
            case 3 -> string(1);
            case 4 -> hasTimestamps() ? timestamp(1) : date(1);
            default -> date(1);
        };
    }

    private String having(int depth) {
        if (depth < 1 && r.nextDouble() < 0.3) {
            return "(" + having(depth + 1) + (r.nextBoolean() ? " AND " : " OR ") + having(depth + 1) + ")";
        }
        double p = r.nextDouble();
        if (p < 0.4) {
            return "COUNT(*) " + pick(COMPARISONS) + " " + pick(List.of(0, 1, 2, 3, 5, 10, 20, 50));
        }
        if (p < 0.7) {
            Col c = pick(t.ofType(T.INT, T.BIGINT, T.DEC, T.DATE, T.STR, T.TS));
            return (r.nextBoolean() ? "MIN(" : "MAX(") + c.name() + ") " + pick(COMPARISONS) + " "
                    + literal(columnRef(c));
        }
        if (p < 0.85) {
            Col c = pick(t.ofType(T.INT, T.BIGINT, T.DEC));
            E e = columnRef(c);
            return "SUM(" + c.name() + ") " + pick(COMPARISONS) + " " + literal(e);
        }
        Col c = pick(t.columns());
        return "COUNT(" + c.name() + ") " + pick(COMPARISONS) + " " + pick(List.of(0, 1, 2, 5, 10));
    }

    // ---------------------------------------------------------------- predicates

    private String predicate(int depth) {
        boolean outside = mayDivideByZero;
        mayDivideByZero = false;
        try {
            return condition(depth);
        } finally {
            mayDivideByZero = outside;
        }
    }

    private String condition(int depth) {
        if (depth > 0 && r.nextDouble() < 0.6) {
            double p = r.nextDouble();
            if (p < 0.4) {
                features.add("and");
                return "(" + predicate(depth - 1) + " AND " + predicate(depth - 1) + ")";
            }
            if (p < 0.75) {
                features.add("or");
                return "(" + predicate(depth - 1) + " OR " + predicate(depth - 1) + ")";
            }
            features.add("not");
            return "(NOT (" + predicate(depth - 1) + "))";
        }
        int w = r.nextInt(100);
        if (w < 22) {
            return numericComparison();
        }
        if (w < 32) {
            return between();
        }
        if (w < 42) {
            return inList();
        }
        if (w < 50) {
            return stringComparison();
        }
        if (w < 60) {
            return like();
        }
        if (w < 70) {
            return nullTest();
        }
        if (w < 84) {
            return hasTimestamps() && r.nextDouble() < 0.4 ? timestampComparison() : dateComparison();
        }
        if (w < 90) {
            return t.ofType(T.BOOL).isEmpty() ? numericComparison() : booleanTest();
        }
        return columnComparison();
    }

    private String numericComparison() {
        E e = r.nextDouble() < 0.65 ? columnRef(pick(t.ofType(T.INT, T.BIGINT, T.DEC, T.DBL))) : numeric(1);
        features.add("comparison");
        if (r.nextDouble() < 0.15) {
            E other = e.isColumn() ? columnRef(pick(sameDomain(e.column()))) : numeric(1);
            return e.sql() + " " + pick(COMPARISONS) + " " + other.sql();
        }
        return e.sql() + " " + pick(COMPARISONS) + " " + literal(e);
    }

    private String between() {
        E e = r.nextDouble() < 0.7 ? (r.nextDouble() < 0.75
                ? columnRef(pick(t.ofType(T.INT, T.BIGINT, T.DEC, T.DBL))) : numeric(1))
                : hasTimestamps() && r.nextBoolean() ? timestamp(1) : date(0);
        Object a = literalValue(e);
        Object b = literalValue(e);
        if (compareLiterals(a, b) > 0 && r.nextDouble() < 0.9) {
            Object tmp = a;
            a = b;
            b = tmp;
        }
        boolean not = r.nextDouble() < 0.15;
        features.add(not ? "not between" : "between");
        return e.sql() + (not ? " NOT BETWEEN " : " BETWEEN ") + DuckOracle.sqlLiteral(a) + " AND "
                + DuckOracle.sqlLiteral(b);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareLiterals(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return ResultComparison.exact(x).compareTo(ResultComparison.exact(y));
        }
        return ((Comparable) a).compareTo(b);
    }

    private String inList() {
        Col c = pick(t.ofType(T.INT, T.BIGINT, T.DEC, T.DBL, T.STR, T.DATE, T.TS));
        E e = columnRef(c);
        int n = 1 + r.nextInt(5);
        List<String> values = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            values.add(literal(e));
        }
        boolean not = r.nextDouble() < 0.3;
        features.add(not ? "not in" : "in");
        return e.sql() + (not ? " NOT IN (" : " IN (") + String.join(", ", values) + ")";
    }

    private String stringComparison() {
        E e = r.nextDouble() < 0.8 ? columnRef(pick(t.ofType(T.STR)))
                : new E("COALESCE(" + pick(t.ofType(T.STR)).name() + ", 'none')", T.STR, 0, 0, false, null);
        features.add("string comparison");
        return e.sql() + " " + pick(COMPARISONS) + " " + literal(e);
    }

    private String like() {
        Col c = pick(t.ofType(T.STR));
        String value = (String) c.sample().apply(r);
        String pattern = likePattern(value);
        boolean not = r.nextDouble() < 0.2;
        features.add(not ? "not like" : "like");
        return c.name() + (not ? " NOT LIKE " : " LIKE ") + DuckOracle.sqlLiteral(pattern);
    }

    private String likePattern(String v) {
        int len = v.length();
        switch (r.nextInt(8)) {
            case 0:
                return v.substring(0, r.nextInt(len + 1)) + "%";
            case 1:
                return "%" + v.substring(r.nextInt(len + 1));
            case 2: {
                int a = r.nextInt(len + 1);
                int b = a + r.nextInt(len - a + 1);
                return "%" + v.substring(a, b) + "%";
            }
            case 3: {
                if (len == 0) {
                    return "_%";
                }
                int at = r.nextInt(len);
                return v.substring(0, at) + "_" + v.substring(at + 1);
            }
            case 4: {
                if (len == 0) {
                    return "%_";
                }
                int at = r.nextInt(len);
                return "%" + v.substring(0, at) + "_" + "%";
            }
            case 5:
                return pick(List.of("%", "_", "__", "___%", "%a%", "%A%", "_b%", "%e_%", ""));
            case 6:
                return v;
            default:
                return v.isEmpty() ? "%%" : v.charAt(0) + "%" + v.charAt(len - 1);
        }
    }

    private String nullTest() {
        List<Col> nullable = t.columns().stream().filter(Col::nullable).toList();
        String operand;
        if (!nullable.isEmpty() && r.nextDouble() < 0.7) {
            operand = pick(nullable).name();
        } else if (r.nextDouble() < 0.5) {
            // Expressions that can be NULL on NOT NULL columns too.
            Col c = pick(t.columns());
            if (r.nextBoolean()) {
                features.add("nullif");
                operand = "NULLIF(" + c.name() + ", " + literal(columnRef(c)) + ")";
            } else {
                features.add("case");
                operand = "CASE WHEN " + predicate(0) + " THEN " + c.name() + " END";
            }
        } else {
            operand = anyOperand().sql();
        }
        boolean not = r.nextBoolean();
        features.add("is null");
        return operand + (not ? " IS NOT NULL" : " IS NULL");
    }

    private String dateComparison() {
        features.add("date");
        Col c = pick(t.ofType(T.DATE));
        double p = r.nextDouble();
        if (p < 0.45) {
            E e = r.nextDouble() < 0.7 ? columnRef(c) : date(1);
            return e.sql() + " " + pick(COMPARISONS) + " " + literal(e);
        }
        if (p < 0.65) {
            // Constant date arithmetic (folded by the planner), as in TPC-H.
            LocalDate d = randomDate();
            String unit = pick(List.of("DAY", "MONTH", "YEAR"));
            int n = unit.equals("DAY") ? 1 + r.nextInt(120) : 1 + r.nextInt(unit.equals("MONTH") ? 6 : 2);
            features.add("interval literal");
            return c.name() + " " + pick(COMPARISONS) + " " + DuckOracle.sqlLiteral(d) + (r.nextBoolean() ? " + "
                    : " - ") + "INTERVAL '" + n + "' " + unit;
        }
        if (p < 0.85) {
            String part = pick(List.of("YEAR", "MONTH", "DAY"));
            int value = switch (part) {
                case "YEAR" -> t.firstDate().getYear() + r.nextInt(t.lastDate().getYear() - t.firstDate().getYear()
                        + 1);
                case "MONTH" -> 1 + r.nextInt(12);
                default -> 1 + r.nextInt(31);
            };
            features.add("extract");
            return "EXTRACT(" + part + " FROM " + c.name() + ") " + pick(COMPARISONS) + " " + value;
        }
        List<Col> dates = t.ofType(T.DATE);
        Col other = pick(dates);
        return c.name() + " " + pick(COMPARISONS) + " " + other.name()
                + (r.nextBoolean() ? " + INTERVAL '" + r.nextInt(60) + "' DAY" : "");
    }

    /**
     * A TIMESTAMP condition: against a timestamp literal or a date (both engines compare at midnight), a field,
     * a date column, or a range; the operand is sometimes shifted by an interval or truncated.
     */
    private String timestampComparison() {
        features.add("timestamp");
        Col c = pick(t.ofType(T.TS));
        double p = r.nextDouble();
        if (p < 0.4) {
            E e = r.nextDouble() < 0.6 ? columnRef(c) : timestamp(1);
            return e.sql() + " " + pick(COMPARISONS) + " " + literal(e);
        }
        if (p < 0.55) {
            features.add("timestamp with date");
            return c.name() + " " + pick(COMPARISONS) + " " + DuckOracle.sqlLiteral(randomDate());
        }
        if (p < 0.75) {
            String part = pick(List.of("HOUR", "MINUTE", "SECOND", "DOW", "QUARTER", "YEAR", "DAY"));
            int value = switch (part) {
                case "HOUR" -> r.nextInt(24);
                case "MINUTE", "SECOND" -> r.nextInt(60);
                case "DOW" -> r.nextInt(7);
                case "QUARTER" -> 1 + r.nextInt(4);
                case "YEAR" -> t.firstDate().getYear() + r.nextInt(t.lastDate().getYear() - t.firstDate().getYear()
                        + 1);
                default -> 1 + r.nextInt(31);
            };
            features.add("extract from timestamp");
            return "EXTRACT(" + part + " FROM " + c.name() + ") " + pick(COMPARISONS) + " " + value;
        }
        if (p < 0.88) {
            features.add("timestamp with date column");
            Col d = pick(t.ofType(T.DATE));
            return (r.nextBoolean() ? c.name() : "date_trunc('day', " + c.name() + ")") + " " + pick(COMPARISONS)
                    + " " + (r.nextBoolean() ? d.name() : "CAST(" + d.name() + " AS TIMESTAMP)");
        }
        E e = timestamp(1);
        Object a = literalValue(e);
        Object b = literalValue(e);
        if (compareLiterals(a, b) > 0) {
            Object tmp = a;
            a = b;
            b = tmp;
        }
        features.add("between");
        return e.sql() + " BETWEEN " + DuckOracle.sqlLiteral(a) + " AND " + DuckOracle.sqlLiteral(b);
    }

    private String booleanTest() {
        Col c = pick(t.ofType(T.BOOL));
        features.add("boolean");
        return switch (r.nextInt(4)) {
            case 0 -> c.name();
            case 1 -> "(NOT " + c.name() + ")";
            case 2 -> c.name() + " = TRUE";
            default -> c.name() + " <> FALSE";
        };
    }

    private String columnComparison() {
        features.add("column comparison");
        Col a = pick(t.ofType(T.INT, T.BIGINT, T.DEC, T.DBL));
        return a.name() + " " + pick(COMPARISONS) + " " + pick(sameDomain(a)).name();
    }

    /** Columns whose values are comparable with {@code c}'s (so a comparison of the two is not trivial). */
    private List<Col> sameDomain(Col c) {
        return t.columns().stream().filter(o -> o.domain().equals(c.domain())).toList();
    }

    /** A predicate no row satisfies, in a form the planner cannot fold away. */
    private String contradiction() {
        Col c = pick(t.ofType(T.INT, T.BIGINT, T.DEC, T.DBL, T.DATE));
        return switch (c.type()) {
            case DATE -> c.name() + " < DATE '1900-01-01'";
            default -> r.nextBoolean() ? c.name() + " > " + (long) (c.bound() * 2 + 10)
                    : c.name() + " BETWEEN 10 AND 5";
        };
    }

    // ---------------------------------------------------------------- scalar expressions

    private E columnRef(Col c) {
        ColumnType type = t.schema().column(t.schema().indexOf(c.name())).type();
        int digits = switch (c.type()) {
            case INT -> 10;
            case BIGINT -> 19;
            case DEC -> type.precision() - type.scale();
            default -> 0;
        };
        return new E(c.name(), c.type(), c.bound(), c.scale(), c.nullable(), c, digits);
    }

    /** A numeric expression of nesting depth at most {@code depth}, within the overflow limits. */
    private E numeric(int depth) {
        for (int attempt = 0; attempt < 50; attempt++) {
            E e = numericTry(depth);
            if (withinLimits(e)) {
                return e;
            }
        }
        return columnRef(pick(t.ofType(T.INT, T.BIGINT, T.DEC, T.DBL)));
    }

    private static boolean withinLimits(E e) {
        return switch (e.type()) {
            case INT -> e.bound() <= INT_LIMIT;
            case BIGINT -> e.bound() <= BIGINT_LIMIT;
            case DEC -> e.scale() <= 4 && e.bound() * Math.pow(10, e.scale()) <= DEC_UNSCALED_LIMIT
                    && e.digits() + e.scale() <= MAX_PRECISION;
            default -> true;
        };
    }

    private E numericTry(int depth) {
        if (depth <= 0 || r.nextDouble() < 0.25) {
            return columnRef(pick(t.ofType(T.INT, T.BIGINT, T.DEC, T.DBL)));
        }
        E a = numeric(depth - 1);
        int choice = r.nextInt(14);
        if (choice >= 11 && (a.type() == T.INT || a.type() == T.BIGINT)) {
            return integerDivision(a, depth, choice == 13);
        }
        if (choice == 12 && hasTimestamps()) {
            return timestampNumber(depth);
        }
        switch (choice) {
            case 0, 1: {
                E b = r.nextDouble() < 0.5 ? numeric(depth - 1) : numericLiteral(a.type());
                String op = r.nextBoolean() ? " + " : " - ";
                features.add("arithmetic");
                int scale = Math.max(a.scale(), b.scale());
                T type = unify(a.type(), b.type());
                return new E("(" + a.sql() + op + b.sql() + ")", type, a.bound() + b.bound(), scale,
                        a.nullable() || b.nullable(), null, type != T.DEC ? digitsOf(type)
                        : Math.min(MAX_PRECISION, Math.max(a.digits(), b.digits()) + scale + 1) - scale);
            }
            case 2, 3: {
                E b = r.nextDouble() < 0.7 ? smallFactor(a.type()) : numeric(depth - 1);
                features.add("arithmetic");
                int scale = a.scale() + b.scale();
                T type = unify(a.type(), b.type());
                return new E("(" + a.sql() + " * " + b.sql() + ")", type, a.bound() * b.bound(), scale,
                        a.nullable() || b.nullable(), null, type != T.DEC ? digitsOf(type) : Math.min(MAX_PRECISION,
                        a.digits() + a.scale() + b.digits() + b.scale()) - scale);
            }
            case 4: {
                features.add("abs");
                return new E("ABS(" + a.sql() + ")", a.type(), a.bound(), a.scale(), a.nullable(), null, a.digits());
            }
            case 5: {
                features.add("negation");
                return new E("(-" + a.sql() + ")", a.type(), a.bound(), a.scale(), a.nullable(), null, a.digits());
            }
            case 6: {
                features.add("cast");
                if (a.type() == T.INT && r.nextBoolean()) {
                    return r.nextBoolean()
                            ? new E("CAST(" + a.sql() + " AS BIGINT)", T.BIGINT, a.bound(), 0, a.nullable(), null)
                            : new E("CAST(" + a.sql() + " AS DECIMAL(18,2))", T.DEC, a.bound(), 2, a.nullable(), null,
                            16);
                }
                return new E("CAST(" + a.sql() + " AS DOUBLE)", T.DBL, a.bound(), 0, a.nullable(), null);
            }
            case 7: {
                E b = r.nextDouble() < 0.6 ? numericLiteral(a.type()) : numeric(depth - 1);
                features.add("case");
                boolean noElse = r.nextDouble() < 0.2;
                return new E("CASE WHEN " + predicate(0) + " THEN " + a.sql() + (noElse ? "" : " ELSE " + b.sql())
                        + " END", unify(a.type(), b.type()), Math.max(a.bound(), b.bound()),
                        Math.max(a.scale(), b.scale()), true, null, choiceDigits(a, b));
            }
            case 8: {
                E b = r.nextDouble() < 0.7 ? numericLiteral(a.type()) : numeric(depth - 1);
                features.add("coalesce");
                return new E("COALESCE(" + a.sql() + ", " + b.sql() + ")", unify(a.type(), b.type()),
                        Math.max(a.bound(), b.bound()), Math.max(a.scale(), b.scale()),
                        a.nullable() && b.nullable(), null, choiceDigits(a, b));
            }
            case 9: {
                String part = pick(List.of("YEAR", "MONTH", "DAY"));
                E d = date(depth - 1);
                features.add("extract");
                return new E("EXTRACT(" + part + " FROM " + d.sql() + ")", T.BIGINT,
                        part.equals("YEAR") ? 3000 : 31, 0, d.nullable(), null);
            }
            default: {
                // Division only between doubles (DuckDB's / on integers is float division), never by zero.
                E num = asDouble(a);
                E den = asDouble(r.nextBoolean() ? numeric(depth - 1) : columnRef(pick(t.ofType(T.DBL, T.INT))));
                features.add("double division");
                return new E("(" + num.sql() + " / NULLIF(" + den.sql() + ", 0))", T.DBL, num.bound() * 100, 0, true,
                        null);
            }
        }
    }

    /**
     * {@code a} divided by, or modulo, an integer that is sometimes zero: unguarded where {@link #mayDivideByZero}
     * (then both engines must refuse the query with "division by zero", or both answer it), else guarded by NULLIF
     * or by a CASE that only divides where the divisor is not zero (CASE evaluates lazily in both).
     */
    private E integerDivision(E a, int depth, boolean modulo) {
        E den = integerDivisor(depth);
        T type = unify(a.type(), den.type());
        double g = r.nextDouble();
        String divisor = den.sql();
        boolean guarded = !mayDivideByZero || g >= 0.5;
        if (guarded && g < 0.75) {
            divisor = "NULLIF(" + den.sql() + ", 0)";
            features.add("division by NULLIF");
        }
        String division = modulo && r.nextBoolean() ? "MOD(" + a.sql() + ", " + divisor + ")"
                : "(" + a.sql() + (modulo ? " % " : INTEGER_DIVISION) + divisor + ")";
        if (guarded && g >= 0.75) {
            division = "CASE WHEN " + den.sql() + " <> 0 THEN " + division + " END";
            features.add("division under CASE");
        }
        features.add(modulo ? "modulo" : "integer division");
        if (!guarded) {
            features.add("may divide by zero");
        }
        double bound = modulo ? Math.min(a.bound(), den.bound()) : a.bound();
        return new E(division, type, bound, 0, guarded || a.nullable() || den.nullable(), null);
    }

    /** An integer divisor: a column (some are often 0), a column minus a small number, or an expression. */
    private E integerDivisor(int depth) {
        Col c = pick(t.ofType(T.INT, T.BIGINT));
        double p = r.nextDouble();
        if (p < 0.45 || depth <= 1) {
            return columnRef(c);
        }
        if (p < 0.7) {
            int k = 1 + r.nextInt(5);
            return new E("(" + c.name() + " - " + k + ")", c.type(), c.bound() + k, 0, c.nullable(), null);
        }
        for (int attempt = 0; attempt < 10; attempt++) {
            E e = numeric(depth - 1);
            if (e.type() == T.INT || e.type() == T.BIGINT) {
                return e;
            }
        }
        return columnRef(c);
    }

    /** A number from a timestamp: a field (EXTRACT) or the count of unit boundaries between two (date_diff). */
    private E timestampNumber(int depth) {
        E ts = timestamp(depth - 1);
        if (r.nextDouble() < 0.6) {
            String part = pick(List.of("YEAR", "QUARTER", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND",
                    "MICROSECOND", "DOW", "DOY", "WEEK"));
            double bound = switch (part) {
                case "YEAR" -> 3000;
                case "DOY" -> 366;
                case "MILLISECOND" -> 60_000;
                case "MICROSECOND" -> 60_000_000;
                default -> 60;
            };
            features.add("extract from timestamp");
            return new E("EXTRACT(" + part + " FROM " + ts.sql() + ")", T.BIGINT, bound, 0, ts.nullable(), null);
        }
        String unit = pick(List.of("second", "minute", "hour", "day", "month", "year"));
        E other = r.nextBoolean() ? timestamp(depth - 1)
                : new E("CAST(" + pick(t.ofType(T.DATE)).name() + " AS TIMESTAMP)", T.TS, 0, 0, true, null);
        features.add("date_diff");
        // Both ends lie in the data's decade: at most about 3e8 seconds apart.
        return new E("date_diff('" + unit + "', " + ts.sql() + ", " + other.sql() + ")", T.BIGINT, 4e8, 0,
                ts.nullable() || other.nullable(), null);
    }

    /**
     * A TIMESTAMP expression: a column, shifted by an interval (seconds to years, standard and PostgreSQL
     * spellings), truncated, a date cast to a timestamp, COALESCE with a literal, or CASE.
     */
    private E timestamp(int depth) {
        Col c = pick(t.ofType(T.TS));
        double p = r.nextDouble();
        if (depth <= 0 || p < 0.35) {
            return columnRef(c);
        }
        if (p < 0.6) {
            features.add("timestamp interval");
            return new E("(" + c.name() + (r.nextBoolean() ? " + " : " - ") + intervalLiteral() + ")", T.TS, 0, 0,
                    c.nullable(), null);
        }
        if (p < 0.75) {
            features.add("date_trunc");
            String unit = pick(List.of("second", "minute", "hour", "day", "week", "month", "quarter", "year"));
            return new E("date_trunc('" + unit + "', " + c.name() + ")", T.TS, 0, 0, c.nullable(), null);
        }
        if (p < 0.85) {
            features.add("cast date to timestamp");
            Col d = pick(t.ofType(T.DATE));
            return new E("CAST(" + d.name() + " AS TIMESTAMP)", T.TS, 0, 0, d.nullable(), null);
        }
        if (p < 0.93) {
            features.add("coalesce");
            return new E("COALESCE(" + c.name() + ", " + DuckOracle.sqlLiteral(randomTimestamp()) + ")", T.TS, 0, 0,
                    false, null);
        }
        Col d = pick(t.ofType(T.DATE));
        features.add("case");
        return new E("CASE WHEN " + predicate(0) + " THEN " + c.name() + " ELSE CAST(" + d.name()
                + " AS TIMESTAMP) END", T.TS, 0, 0, c.nullable() || d.nullable(), null);
    }

    /** An interval literal that both engines read: {@code INTERVAL '5' HOUR} or {@code INTERVAL '1 day 2 hours'}. */
    private String intervalLiteral() {
        String unit = pick(List.of("SECOND", "MINUTE", "HOUR", "DAY", "MONTH", "YEAR"));
        int n = switch (unit) {
            case "SECOND", "MINUTE" -> r.nextInt(1000);
            case "HOUR" -> r.nextInt(200);
            case "DAY" -> r.nextInt(400);
            case "MONTH" -> r.nextInt(30);
            default -> r.nextInt(3);
        };
        return switch (r.nextInt(3)) {
            case 0 -> "INTERVAL '" + n + "' " + unit;
            case 1 -> "INTERVAL '" + n + " " + unit.toLowerCase(Locale.ROOT) + "s'";
            default -> "INTERVAL '" + r.nextInt(40) + " days " + r.nextInt(30) + " hours " + r.nextInt(60)
                    + " minutes'";
        };
    }

    private static int digitsOf(T type) {
        return type == T.INT ? 10 : type == T.BIGINT ? 19 : 0;
    }

    /**
     * Digits of the type of CASE/COALESCE over {@code a} and {@code b}. Calcite's common type keeps the integer
     * digits and drops scale beyond 19 digits in all (CASE of BIGINT and DECIMAL(12,2) is DECIMAL(19,0): the cents
     * are cut off, where DuckDB, with 38 digits, keeps them); such mixes are rejected by {@link #withinLimits}.
     */
    private static int choiceDigits(E a, E b) {
        T type = unify(a.type(), b.type());
        return type == T.DEC ? Math.max(a.digits(), b.digits()) : digitsOf(type);
    }

    private E asDouble(E e) {
        return e.type() == T.DBL ? e : new E("CAST(" + e.sql() + " AS DOUBLE)", T.DBL, e.bound(), 0, e.nullable(),
                null);
    }

    private static T unify(T a, T b) {
        if (a == T.DBL || b == T.DBL) {
            return T.DBL;
        }
        if (a == T.DEC || b == T.DEC) {
            return T.DEC;
        }
        if (a == T.BIGINT || b == T.BIGINT) {
            return T.BIGINT;
        }
        return T.INT;
    }

    /** A small literal of a type like {@code type}: integers for integer types, tenths/quarters otherwise. */
    private E numericLiteral(T type) {
        return switch (type) {
            case INT, BIGINT -> {
                int v = r.nextInt(-50, 51);
                yield new E(DuckOracle.sqlLiteral(v), T.INT, Math.abs(v), 0, false, null);
            }
            case DEC -> {
                BigDecimal v = BigDecimal.valueOf(r.nextInt(-5000, 5001), 2);
                yield new E(DuckOracle.sqlLiteral(v), T.DEC, v.abs().doubleValue(), 2, false, null, 2);
            }
            default -> {
                double v = r.nextInt(-400, 401) / 8.0;
                yield new E(DuckOracle.sqlLiteral(v), T.DBL, Math.abs(v), 0, false, null);
            }
        };
    }

    /** A factor for multiplication: 2..5 for integers, 1.5/0.25/3 for the rest. */
    private E smallFactor(T type) {
        if (type == T.INT || type == T.BIGINT || r.nextBoolean()) {
            int v = r.nextInt(-3, 6);
            return new E(DuckOracle.sqlLiteral(v), T.INT, Math.abs(v), 0, false, null);
        }
        BigDecimal v = pick(List.of(new BigDecimal("1.5"), new BigDecimal("0.25"), new BigDecimal("2.0")));
        return new E(v.toPlainString(), T.DEC, v.doubleValue(), v.scale(), false, null, 1);
    }

    /** A string expression (select lists): the column, COALESCE, or CASE over literals (CHAR in Calcite). */
    private E string(int depth) {
        Col c = pick(t.ofType(T.STR));
        double p = r.nextDouble();
        if (depth <= 0 || p < 0.5) {
            return columnRef(c);
        }
        if (p < 0.7) {
            features.add("coalesce");
            return new E("COALESCE(" + c.name() + ", " + DuckOracle.sqlLiteral(pick(t.strings())) + ")", T.STR, 0, 0,
                    false, null);
        }
        features.add("case");
        if (p < 0.85) {
            return new E("CASE WHEN " + predicate(0) + " THEN " + DuckOracle.sqlLiteral(pick(t.strings())) + " ELSE "
                    + DuckOracle.sqlLiteral(pick(t.strings())) + " END", T.STR, 0, 0, false, null);
        }
        return new E("CASE WHEN " + predicate(0) + " THEN " + c.name() + " END", T.STR, 0, 0, true, null);
    }

    /** A date expression: a column, ± INTERVAL 'n' DAY, COALESCE with a literal, or CASE between columns. */
    private E date(int depth) {
        Col c = pick(t.ofType(T.DATE));
        double p = r.nextDouble();
        if (depth <= 0 || p < 0.45) {
            return columnRef(c);
        }
        if (p < 0.75) {
            features.add("interval");
            return new E("(" + c.name() + (r.nextBoolean() ? " + " : " - ") + "INTERVAL '" + r.nextInt(400) + "' DAY)",
                    T.DATE, 0, 0, c.nullable(), null);
        }
        if (p < 0.88) {
            features.add("coalesce");
            return new E("COALESCE(" + c.name() + ", " + DuckOracle.sqlLiteral(randomDate()) + ")", T.DATE, 0, 0,
                    false, null);
        }
        if (hasTimestamps() && p < 0.94) {
            features.add("cast timestamp to date");
            Col ts = pick(t.ofType(T.TS));
            return new E("CAST(" + ts.name() + " AS DATE)", T.DATE, 0, 0, ts.nullable(), null);
        }
        Col other = pick(t.ofType(T.DATE));
        features.add("case");
        return new E("CASE WHEN " + predicate(0) + " THEN " + c.name() + " ELSE " + other.name() + " END", T.DATE, 0,
                0, c.nullable() || other.nullable(), null);
    }

    // ---------------------------------------------------------------- literals

    /** A literal for comparing with {@code e}: mostly a value of its column, else a value in its range. */
    private String literal(E e) {
        return DuckOracle.sqlLiteral(literalValue(e));
    }

    private Object literalValue(E e) {
        if (e.isColumn() && r.nextDouble() < 0.85) {
            return e.column().sample().apply(r);
        }
        double bound = Math.max(1, Math.min(e.bound(), 1e12));
        return switch (e.type()) {
            case INT, BIGINT -> r.nextLong(-(long) bound, (long) bound + 1);
            case DEC -> BigDecimal.valueOf(r.nextLong(-(long) (bound * 100), (long) (bound * 100) + 1), 2);
            case DBL -> r.nextLong(-(long) (bound * 8), (long) (bound * 8) + 1) / 8.0;
            case STR -> pick(t.strings());
            case DATE -> randomDate();
            case BOOL -> r.nextBoolean();
            case TS -> randomTimestamp();
        };
    }

    /** A time in (or a month around) the data's range: midnight, whole seconds or microseconds. */
    private LocalDateTime randomTimestamp() {
        LocalDateTime day = randomDate().atStartOfDay();
        return switch (r.nextInt(3)) {
            case 0 -> day;
            case 1 -> day.plusSeconds(r.nextInt(86_400));
            default -> day.plusNanos(r.nextLong(86_400_000_000L) * 1_000);
        };
    }

    private LocalDate randomDate() {
        long span = t.lastDate().toEpochDay() - t.firstDate().toEpochDay();
        return t.firstDate().plusDays(r.nextLong(-30, span + 31));
    }

    private <V> V pick(List<V> values) {
        return values.get(r.nextInt(values.size()));
    }

    private <V> V pick(V[] values) {
        return values[r.nextInt(values.length)];
    }

    // ---------------------------------------------------------------- the two tables

    /** The model of {@code mixed}, sampling literals from its actual values. */
    static TableModel mixedModel(OracleTables.MixedData data) {
        List<Object[]> rows = data.all();
        Map<String, List<Object>> values = new LinkedHashMap<>();
        for (int c = 0; c < OracleTables.MIXED_SCHEMA.size(); c++) {
            Set<Object> distinct = new LinkedHashSet<>();
            for (Object[] row : rows) {
                if (row[c] != null) {
                    distinct.add(row[c]);
                }
            }
            values.put(OracleTables.MIXED_SCHEMA.column(c).name(), List.copyOf(distinct));
        }
        Function<String, Function<Random, Object>> sampler = name -> {
            List<Object> v = values.get(name);
            return rnd -> v.get(rnd.nextInt(v.size()));
        };
        List<Col> cols = List.of(
                new Col("id", T.BIGINT, false, 200_000, 0, "num", sampler.apply("id")),
                new Col("i", T.INT, true, OracleTables.I_BOUND, 0, "num", sampler.apply("i")),
                new Col("b", T.BIGINT, true, OracleTables.B_BOUND, 0, "num", sampler.apply("b")),
                new Col("d", T.DEC, true, OracleTables.D_BOUND_CENTS / 100.0, 2, "num", sampler.apply("d")),
                new Col("x", T.DBL, true, OracleTables.X_BOUND, 0, "num", sampler.apply("x")),
                new Col("s", T.STR, true, 0, 0, "str", sampler.apply("s")),
                new Col("dt", T.DATE, true, 0, 0, "date", sampler.apply("dt")),
                new Col("flag", T.BOOL, true, 0, 0, "bool", sampler.apply("flag")),
                new Col("ts", T.TS, true, 0, 0, "ts", sampler.apply("ts")));
        List<Key> keys = List.of(
                new Key("i", T.INT, true), new Key("b", T.BIGINT, true), new Key("d", T.DEC, true),
                new Key("x", T.DBL, true), new Key("s", T.STR, true), new Key("dt", T.DATE, true),
                new Key("flag", T.BOOL, true),
                new Key("EXTRACT(YEAR FROM dt)", T.BIGINT, true), new Key("EXTRACT(MONTH FROM dt)", T.BIGINT, true),
                new Key("ABS(i)", T.INT, true), new Key("(i + 1)", T.INT, true),
                new Key("COALESCE(s, 'none')", T.STR, false),
                new Key("CASE WHEN i < 0 THEN 'neg' WHEN i = 0 THEN 'zero' ELSE 'positive' END", T.STR, false),
                new Key("(dt + INTERVAL '7' DAY)", T.DATE, true),
                new Key("CASE WHEN x > 0 THEN 1 ELSE 0 END", T.INT, false),
                new Key("ts", T.TS, true), new Key("date_trunc('month', ts)", T.TS, true),
                new Key("CAST(ts AS DATE)", T.DATE, true), new Key("EXTRACT(HOUR FROM ts)", T.BIGINT, true));
        List<String> strings = new ArrayList<>(OracleTables.STRINGS);
        strings.addAll(List.of("nosuch", "A", "hello", "abcd", "zz"));
        LocalDate last = OracleTables.FIRST_DATE.plusDays(OracleTables.DATE_SPAN_DAYS);
        return new TableModel(OracleTables.MIXED, OracleTables.MIXED_SCHEMA, cols, rows.size(), "id", keys, strings, OracleTables.FIRST_DATE,
                last, null);
    }

    private static final List<String> SHIP_MODES = List.of("REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB");
    private static final List<String> SHIP_INSTRUCTIONS = List.of("DELIVER IN PERSON", "COLLECT COD", "NONE",
            "TAKE BACK RETURN");
    private static final List<String> COMMENT_WORDS = List.of("carefully", "final", "furiously", "ironic", "pending",
            "quickly", "regular", "special", "deposits", "requests", "accounts", "packages", "blithely", "slyly");

    /** The model of lineitem at {@code sf} (plus its delta rows), with literals drawn from its value ranges. */
    static TableModel lineitemModel(double sf, long rows) {
        long orders = Math.max(8, (long) (6_000_000 * sf));
        long parts = Math.max(1, (long) (200_000 * sf));
        long suppliers = Math.max(1, (long) (10_000 * sf));
        LocalDate first = LocalDate.of(1992, 1, 2);
        LocalDate last = LocalDate.of(1998, 12, 31);
        Function<Random, Object> dates = rnd -> first.plusDays(rnd.nextLong(last.toEpochDay() - first.toEpochDay()));
        List<Col> cols = List.of(
                new Col("l_orderkey", T.BIGINT, false, orders, 0, "key", rnd -> rnd.nextLong(1, orders + 1)),
                new Col("l_partkey", T.BIGINT, false, parts, 0, "key", rnd -> rnd.nextLong(1, parts + 1)),
                new Col("l_suppkey", T.BIGINT, false, suppliers, 0, "key", rnd -> rnd.nextLong(1, suppliers + 1)),
                new Col("l_linenumber", T.INT, false, OracleTables.LINEITEM_DELTA_LINENUMBER, 0, "small",
                        rnd -> rnd.nextInt(1, OracleTables.LINEITEM_DELTA_LINENUMBER + 1)),
                new Col("l_quantity", T.DEC, false, 50, 2, "small",
                        rnd -> BigDecimal.valueOf(rnd.nextInt(1, 51) * 100L, 2)),
                new Col("l_extendedprice", T.DEC, false, 105_000, 2, "price",
                        rnd -> BigDecimal.valueOf(rnd.nextLong(90_000, 10_500_000), 2)),
                new Col("l_discount", T.DEC, false, 0.1, 2, "rate", rnd -> BigDecimal.valueOf(rnd.nextInt(0, 11), 2)),
                new Col("l_tax", T.DEC, false, 0.08, 2, "rate", rnd -> BigDecimal.valueOf(rnd.nextInt(0, 9), 2)),
                new Col("l_returnflag", T.STR, false, 0, 0, "flag", rnd -> List.of("A", "N", "R").get(rnd.nextInt(3))),
                new Col("l_linestatus", T.STR, false, 0, 0, "flag", rnd -> rnd.nextBoolean() ? "O" : "F"),
                new Col("l_shipdate", T.DATE, false, 0, 0, "date", dates),
                new Col("l_commitdate", T.DATE, false, 0, 0, "date", dates),
                new Col("l_receiptdate", T.DATE, false, 0, 0, "date", dates),
                new Col("l_shipinstruct", T.STR, false, 0, 0, "str",
                        rnd -> SHIP_INSTRUCTIONS.get(rnd.nextInt(SHIP_INSTRUCTIONS.size()))),
                new Col("l_shipmode", T.STR, false, 0, 0, "str",
                        rnd -> SHIP_MODES.get(rnd.nextInt(SHIP_MODES.size()))),
                new Col("l_comment", T.STR, false, 0, 0, "str",
                        rnd -> COMMENT_WORDS.get(rnd.nextInt(COMMENT_WORDS.size()))));
        List<Key> keys = List.of(
                new Key("l_returnflag", T.STR, false), new Key("l_linestatus", T.STR, false),
                new Key("l_shipmode", T.STR, false), new Key("l_shipinstruct", T.STR, false),
                new Key("l_linenumber", T.INT, false), new Key("l_quantity", T.DEC, false),
                new Key("l_discount", T.DEC, false), new Key("l_tax", T.DEC, false),
                new Key("l_suppkey", T.BIGINT, false), new Key("l_shipdate", T.DATE, false),
                new Key("EXTRACT(YEAR FROM l_shipdate)", T.BIGINT, false),
                new Key("EXTRACT(MONTH FROM l_receiptdate)", T.BIGINT, false),
                new Key("CASE WHEN l_quantity < 25 THEN 'small' ELSE 'large' END", T.STR, false),
                new Key("CASE WHEN l_shipdate > l_commitdate THEN 'late' ELSE 'on time' END", T.STR, false));
        List<String> strings = new ArrayList<>(List.of("A", "N", "R", "O", "F", "B", "fox", "zz", ""));
        strings.addAll(SHIP_MODES);
        strings.addAll(SHIP_INSTRUCTIONS);
        strings.addAll(COMMENT_WORDS);
        // About one row per order key: a window of a few hundred to a few thousand keys.
        Function<Random, String> restriction = rnd -> {
            long from = rnd.nextLong(1, orders);
            return "l_orderkey BETWEEN " + from + " AND " + (from + rnd.nextLong(50, 3000));
        };
        return new TableModel("lineitem", OracleTables.lineitemSchema(), cols, rows, null, keys, strings, first, last, restriction);
    }

    /** Counts of queries by kind and by feature, for the report. */
    static String summary(List<GeneratedQuery> queries) {
        Map<String, Integer> kinds = new TreeMap<>();
        Map<String, Integer> feats = new TreeMap<>();
        int ordered = 0;
        for (GeneratedQuery q : queries) {
            kinds.merge(q.table() + "/" + q.kind(), 1, Integer::sum);
            q.features().forEach(f -> feats.merge(f, 1, Integer::sum));
            ordered += q.ordered() && q.kind() != Kind.AGGREGATE ? 1 : 0;
        }
        return queries.size() + " queries; by table/kind " + kinds + "; compared in ORDER BY order (non-global): "
                + ordered + "; queries using each feature " + feats;
    }
}
