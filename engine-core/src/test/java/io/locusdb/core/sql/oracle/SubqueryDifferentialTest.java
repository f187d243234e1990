package io.locusdb.core.sql.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Subqueries in expressions against DuckDB, on tables with NULLs and duplicates in every column: IN and NOT IN
 * with SQL's NULL semantics (a NULL in the subquery makes NOT IN unknown), EXISTS and NOT EXISTS correlated or not,
 * scalar subqueries in WHERE, SELECT and HAVING, correlated on one or two columns, ANY and ALL, and nested
 * subqueries. Every one is decorrelated into joins and aggregations; every difference and every error fails.
 */
class SubqueryDifferentialTest {
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

    private static final String OUTER_BUILT_EXISTS = "SELECT a.id, a.k FROM u2 a WHERE a.id < 9 AND EXISTS"
            + " (SELECT * FROM u0 b WHERE b.k = a.k AND b.s <> a.s)";
    private static final String OUTER_BUILT_NOT_EXISTS = "SELECT a.id, a.s FROM u2 a WHERE a.id < 9 AND NOT EXISTS"
            + " (SELECT * FROM u0 b WHERE b.k = a.k AND b.d > a.d)";

    @TestFactory
    Stream<DynamicTest> subqueriesAgreeWithDuckDB() {
        return Stream.of(
                "SELECT id, k FROM u0 WHERE k IN (SELECT k FROM u1)",
                "SELECT id, k FROM u0 WHERE k NOT IN (SELECT k FROM u1)",
                "SELECT id, k FROM u0 WHERE k NOT IN (SELECT k FROM u1 WHERE k IS NOT NULL)",
                "SELECT id, s FROM u0 WHERE s IN (SELECT s FROM u2 WHERE k > 3)",
                "SELECT id, s FROM u0 WHERE s NOT IN (SELECT s FROM u2 WHERE s IS NOT NULL AND k > 3)",
                "SELECT id FROM u0 WHERE (k, s) IN (SELECT k, s FROM u1)",
                "SELECT id FROM u0 a WHERE EXISTS (SELECT * FROM u1 b WHERE b.k = a.k AND b.s <> a.s)",
                "SELECT id FROM u0 a WHERE NOT EXISTS (SELECT * FROM u1 b WHERE b.k = a.k)",
                "SELECT id FROM u0 a WHERE NOT EXISTS (SELECT * FROM u2 b WHERE b.k = a.k AND b.d > a.d)",
                "SELECT count(*) FROM u0 WHERE EXISTS (SELECT * FROM u1 WHERE k > 100)",
                "SELECT id, d FROM u0 WHERE d > (SELECT avg(d) FROM u1)",
                "SELECT id, d FROM u0 a WHERE d > (SELECT avg(d) FROM u1 b WHERE b.k = a.k)",
                "SELECT id, d FROM u0 a WHERE d >= (SELECT max(d) FROM u2 b WHERE b.k = a.k AND b.s = a.s)",
                "SELECT id, (SELECT count(*) FROM u1 b WHERE b.k = a.k) AS c FROM u0 a",
                "SELECT id, (SELECT max(s) FROM u2 b WHERE b.id = a.id) AS m FROM u1 a",
                "SELECT k, count(*) FROM u0 GROUP BY k HAVING count(*) > (SELECT count(*) FROM u2) / 20",
                "SELECT id FROM u0 WHERE k > ANY (SELECT k FROM u2 WHERE id < 10)",
                "SELECT id FROM u0 WHERE k < ALL (SELECT k FROM u2 WHERE id < 10)",
                "SELECT id FROM u0 WHERE k = ANY (SELECT k FROM u1 WHERE s = 'a')",
                "SELECT id FROM u0 WHERE k IN (SELECT k FROM u1 WHERE s IN (SELECT s FROM u2 WHERE d > 0))",
                "SELECT id FROM u0 a WHERE k IN (SELECT k FROM u1 b WHERE b.s = a.s)",
                "SELECT id FROM u0 WHERE k IN (SELECT k FROM u1) OR s = 'zz'",
                "SELECT id, k IN (SELECT k FROM u2) AS found FROM u0",
                "SELECT id FROM u0 WHERE k = (SELECT min(k) FROM u1)",
                // A grouped scan joined with a few rows: grouped only for the keys those rows have.
                "SELECT a.id, b.c, b.m FROM u2 a LEFT JOIN (SELECT k, count(*) AS c, max(d) AS m FROM u0 GROUP BY k) b"
                        + " ON a.k = b.k WHERE a.id < 4",
                "SELECT a.id, b.c FROM (SELECT k, count(*) AS c FROM u0 GROUP BY k) b RIGHT JOIN u2 a ON a.k = b.k"
                        + " WHERE a.id < 4",
                "SELECT a.id FROM u2 a WHERE a.id < 6 AND NOT EXISTS (SELECT * FROM u0 b WHERE b.k = a.k)",
                // Correlated EXISTS as SEMI and ANTI joins: a few outer rows against a whole table (the outer side
                // built, its rows marked by the probes), residuals that are NULL for some pairs, several in a row,
                // a LIMIT and a select list that do not decide existence, and shapes left to the decorrelator.
                OUTER_BUILT_EXISTS,
                OUTER_BUILT_NOT_EXISTS,
                "SELECT a.id FROM u1 a WHERE EXISTS (SELECT 1 FROM u2 b WHERE b.k = a.k AND b.id <> a.id)"
                        + " AND NOT EXISTS (SELECT b.d / 0 FROM u0 b WHERE b.k = a.k AND b.s = a.s LIMIT 1)",
                "SELECT a.id FROM u2 a WHERE a.s = 'a' AND EXISTS (SELECT * FROM u0 b WHERE b.k = a.k"
                        + " AND b.s = a.s AND b.d IS NULL)",
                "SELECT count(*) FROM u2 a WHERE NOT EXISTS (SELECT * FROM u0 b WHERE b.k = a.k AND b.id = a.id)",
                "SELECT a.id FROM u0 a WHERE a.id < 20 AND (a.k = 1 OR EXISTS (SELECT * FROM u2 b WHERE b.k = a.k"
                        + " AND b.s <> a.s))",
                "SELECT a.id FROM u0 a WHERE EXISTS (SELECT * FROM u2 b WHERE b.k = a.k AND EXISTS"
                        + " (SELECT * FROM u1 c WHERE c.k = b.k AND c.s = a.s))",
                "SELECT a.k, count(*) FROM u0 a JOIN u1 c ON a.k = c.k WHERE NOT EXISTS (SELECT * FROM u2 b"
                        + " WHERE b.k = a.k AND b.s <> c.s) GROUP BY a.k",
                "SELECT a.id, b.c FROM u2 a JOIN (SELECT s, count(*) AS c FROM u0 GROUP BY s) b ON a.s = b.s"
                        + " WHERE a.id = 3")
                .map(sql -> dynamicTest(sql, () -> ResultComparison.assertAgrees(session, duck, sql, false)));
    }

    @Test
    void aGroupedScanJoinedWithFewRowsIsFirstReducedToTheirKeys() {
        try (QueryResult r = session.execute("EXPLAIN SELECT a.id, b.c FROM u2 a LEFT JOIN (SELECT k, count(*) AS c"
                + " FROM u0 GROUP BY k) b ON a.k = b.k WHERE a.id < 4")) {
            assertThat(r.toList().toString()).contains("HashJoin SEMI");
        }
    }

    @Test
    void aFewOuterRowsAreBuiltAndTheSubqueryTableProbesThem() {
        for (String sql : List.of(OUTER_BUILT_EXISTS, OUTER_BUILT_NOT_EXISTS)) {
            try (QueryResult r = session.execute("EXPLAIN " + sql)) {
                String plan = r.toList().toString();
                assertThat(plan).containsPattern("HashJoin (SEMI|ANTI) on k = k; residual")
                        .contains("build: left input").doesNotContain("Aggregate");
            }
        }
    }

    @Test
    void aScalarSubqueryOfSeveralRowsIsAnError() {
        assertThatThrownBy(() -> {
            try (QueryResult r = session.execute("SELECT id FROM u0 WHERE k = (SELECT k FROM u1)")) {
                r.toList();
            }
        }).isInstanceOfSatisfying(LocusSqlException.class,
                e -> assertThat(e.state()).isEqualTo(SqlState.CARDINALITY_VIOLATION));
    }
}
