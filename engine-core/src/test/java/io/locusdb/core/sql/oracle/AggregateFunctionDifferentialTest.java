package io.locusdb.core.sql.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.locusdb.core.Session;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import java.time.LocalDate;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Aggregates beyond COUNT, SUM, AVG, MIN and MAX against DuckDB, on tables with NULLs and duplicates in every
 * column: {@code FILTER (WHERE ...)} on plain and DISTINCT aggregates, with and without GROUP BY;
 * {@code VAR_POP}, {@code VAR_SAMP}, {@code STDDEV_POP}, {@code STDDEV_SAMP}, {@code VARIANCE}, {@code STDDEV} over
 * integers and decimals, including groups of one row and of none; {@code BOOL_AND} and {@code BOOL_OR};
 * {@code ROLLUP}, {@code CUBE} and {@code GROUPING SETS} with {@code GROUPING(...)}; {@code PERCENTILE_CONT},
 * {@code PERCENTILE_DISC} ascending and descending and {@code MEDIAN}, on groups with NULLs and on none;
 * {@code COUNT([DISTINCT] (a, b))} of rows and the standard's {@code COUNT([DISTINCT] a, b)}; and the string
 * functions {@code replace}, {@code position} and {@code starts_with}.
 */
class AggregateFunctionDifferentialTest {
    private static OracleDatabases databases;
    private static Session session;
    private static DuckOracle duck;

    @BeforeAll
    static void load() {
        databases = OracleDatabases.open();
        session = databases.session;
        duck = databases.duck;
        SetOperationDifferentialTest.createTables(databases);
    }

    @AfterAll
    static void close() {
        if (databases != null) {
            databases.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> aggregatesAgreeWithDuckDB() {
        return Stream.of(
                "SELECT k, count(*) FILTER (WHERE s = 'a'), sum(d) FILTER (WHERE k > 3),"
                        + " count(DISTINCT s) FILTER (WHERE d > 0) FROM u0 GROUP BY k",
                "SELECT count(*) FILTER (WHERE k IS NULL), max(s) FILTER (WHERE id < 50),"
                        + " avg(d) FILTER (WHERE s <> 'b'), min(k) FILTER (WHERE s IS NULL) FROM u1",
                "SELECT count(*) FILTER (WHERE k > 1000), sum(k) FILTER (WHERE k > 1000) FROM u2",
                "SELECT s, count(id) FILTER (WHERE d < 0) AS negatives, count(*) FROM u0 GROUP BY s",
                "SELECT k, stddev_samp(d), var_pop(d), stddev_pop(k), variance(d), stddev(d), var_samp(k) FROM u0"
                        + " GROUP BY k",
                "SELECT stddev_samp(d), var_pop(k), stddev_pop(d) FROM u1",
                "SELECT id, var_samp(d), var_pop(d), stddev_samp(k) FROM u2 GROUP BY id",
                "SELECT stddev_samp(d) FROM u1 WHERE k > 1000",
                "SELECT s, stddev_pop(d) FILTER (WHERE k < 5), variance(k) FILTER (WHERE d > 0) FROM u0 GROUP BY s",
                "SELECT s, bool_and(k > 3), bool_or(d > 0), bool_and(k IS NOT NULL) FROM u0 GROUP BY s",
                "SELECT bool_or(s = 'zz'), bool_and(id >= 0) FROM u2",
                "SELECT k, s, count(*), sum(d) FROM u0 GROUP BY ROLLUP (k, s)",
                "SELECT k, s, count(*), grouping(k), grouping(s), grouping(k, s) FROM u1 GROUP BY CUBE (k, s)",
                "SELECT k, s, min(d) FROM u2 GROUP BY GROUPING SETS ((k), (s), ())",
                "SELECT k, count(DISTINCT s) FROM u0 GROUP BY ROLLUP (k)",
                "SELECT k, sum(d) FROM u0 WHERE k > 1000 GROUP BY ROLLUP (k)",
                "SELECT replace(s, 'a', 'xy'), position('b' IN s), starts_with(s, 'a'), upper(s) FROM u0",
                "SELECT s, percentile_cont(0.5) WITHIN GROUP (ORDER BY k), percentile_disc(0.5) WITHIN GROUP"
                        + " (ORDER BY k), percentile_cont(0.9) WITHIN GROUP (ORDER BY id) FROM u0 GROUP BY s",
                "SELECT k, percentile_disc(0.25) WITHIN GROUP (ORDER BY d), percentile_cont(0.1) WITHIN GROUP"
                        + " (ORDER BY k DESC), percentile_disc(0.75) WITHIN GROUP (ORDER BY id DESC)"
                        + " FROM u1 GROUP BY k",
                "SELECT percentile_cont(0) WITHIN GROUP (ORDER BY d), percentile_cont(1) WITHIN GROUP (ORDER BY d),"
                        + " percentile_disc(0) WITHIN GROUP (ORDER BY k) FROM u2",
                "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY k) FROM u2 WHERE k > 1000",
                "SELECT s, median(k), median(id) FROM u0 GROUP BY s",
                "SELECT k, count(DISTINCT (s, d)), count((s, d)), count(DISTINCT s) FROM u0 GROUP BY k",
                "SELECT count(DISTINCT (k, s, d)), count(DISTINCT (k, s)) FROM u1",
                "SELECT s, count(DISTINCT (k, d)) FILTER (WHERE id > 10), avg(d) FROM u0 GROUP BY s",
                "SELECT count(DISTINCT (k, s)) FROM u2 WHERE k > 1000",
                "SELECT 1 AS one FROM u2 WHERE k > 1000 GROUP BY GROUPING SETS ((k), ())",
                "SELECT s FROM u0 GROUP BY GROUPING SETS ((s), ())")
                .map(sql -> dynamicTest(sql, () -> ResultComparison.assertAgrees(session, duck, sql, false)));
    }

    /**
     * MODE(x) against DuckDB where each group has one most frequent value (DuckDB leaves ties open), and
     * PostgreSQL's rule for ties (the least) and ordered-set spelling on their own.
     */
    @Test
    void modeIsTheMostFrequentValueAndTheLeastOfATie() {
        String create = "CREATE TABLE modes (g INTEGER, n INTEGER, s VARCHAR, x DOUBLE, d DATE)";
        databases.execute(create);
        duck.execute(create);
        StringBuilder rows = new StringBuilder();
        Random random = new Random(7);
        for (int g = 0; g < 12; g++) {
            int top = random.nextInt(100);
            for (int i = 0; i < 9; i++) {
                int v = i < 5 ? top : 100 + g * 10 + i;
                boolean nothing = random.nextInt(6) == 0;
                rows.append(rows.isEmpty() ? "" : ", ").append('(').append(g).append(", ")
                        .append(nothing ? "NULL" : v).append(", ").append(nothing ? "NULL" : "'w" + v + "'")
                        .append(", ").append(nothing ? "NULL" : v / 4.0).append(", ")
                        .append(nothing ? "NULL" : "DATE '" + LocalDate.of(2024, 1, 1).plusDays(v) + "'").append(')');
            }
        }
        databases.execute("INSERT INTO modes VALUES " + rows);
        duck.execute("INSERT INTO modes VALUES " + rows);
        for (String sql : List.of("SELECT g, mode(n), mode(s), mode(x), mode(d) FROM modes GROUP BY g",
                "SELECT mode(n) FILTER (WHERE g = 3), mode(s) FILTER (WHERE g = 5), count(*) FROM modes",
                "SELECT g, mode(s) FROM modes WHERE g > 100 GROUP BY g")) {
            ResultComparison.assertAgrees(session, duck, sql, false);
        }
        assertThat(ResultComparison.locusRows(session, "SELECT mode(v), mode() WITHIN GROUP (ORDER BY w)"
                + " FROM (VALUES (3, 'b'), (1, 'a'), (3, 'b'), (1, 'a'), (2, NULL)) t(v, w)").rows())
                .containsExactly(List.of(1, "a"));
        assertThatThrownBy(() -> ResultComparison.locusRows(session, "SELECT mode() WITHIN GROUP (ORDER BY n DESC)"
                + " FROM modes")).hasCauseInstanceOf(LocusSqlException.class).satisfies(e -> assertThat(
                ((LocusSqlException) e.getCause()).state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED));
    }

    /**
     * The standard's COUNT of several values (rows where none is NULL), which DuckDB writes as a row count with a
     * filter.
     */
    @TestFactory
    Stream<DynamicTest> countsOfSeveralValuesAgreeWithDuckDbsRowCounts() {
        String present = " FILTER (WHERE s IS NOT NULL AND d IS NOT NULL)";
        return Stream.of(
                new String[] {"SELECT k, count(DISTINCT s, d), count(s, d), sum(d) FROM u0 GROUP BY k",
                        "SELECT k, count(DISTINCT (s, d))" + present + ", count(*)" + present + ", sum(d) FROM u0"
                                + " GROUP BY k"},
                new String[] {"SELECT count(DISTINCT s, d), count(DISTINCT k) FROM u1",
                        "SELECT count(DISTINCT (s, d))" + present + ", count(DISTINCT k) FROM u1"},
                new String[] {"SELECT s, count(DISTINCT k, d, id) FROM u0 GROUP BY s",
                        "SELECT s, count(DISTINCT (k, d, id)) FILTER (WHERE k IS NOT NULL AND d IS NOT NULL"
                                + " AND id IS NOT NULL) FROM u0 GROUP BY s"})
                .map(pair -> dynamicTest(pair[0], () -> ResultComparison.assertAgreesOrBothDivideByZero(session,
                        duck, pair[0], pair[1], false)));
    }
}
