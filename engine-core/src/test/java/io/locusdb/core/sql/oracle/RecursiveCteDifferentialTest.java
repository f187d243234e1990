package io.locusdb.core.sql.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * WITH RECURSIVE against DuckDB: series, walks of a graph with cycles and NULL ends (UNION stops at rows seen
 * before, UNION ALL with a depth bound), trees built into paths, recursions whose seed and recursive part have
 * different column types (an INTEGER beside a BIGINT), joined with tables in two parts and in delta parts, under
 * aggregations, joins, sorts and limits. {@value #QUERIES} random queries and hand-written ones; every difference
 * and every LocusDB error fails.
 */
class RecursiveCteDifferentialTest {
    static final int QUERIES = Integer.getInteger("locus.recursive.queries", 120);
    private static final long SEED = Long.getLong("locus.recursive.seed", 20_261_129L);

    private static OracleDatabases databases;
    private static Session session;
    private static DuckOracle duck;

    @BeforeAll
    static void load() {
        databases = OracleDatabases.open();
        session = databases.session;
        duck = databases.duck;
        SetOperationDifferentialTest.createTables(databases);
        // A graph of 40 nodes with cycles, self-loops, NULL ends and repeated edges.
        Random random = new Random(SEED);
        StringBuilder edges = new StringBuilder("INSERT INTO edges VALUES ");
        for (int i = 0; i < 90; i++) {
            String dst = random.nextInt(15) == 0 ? "NULL" : String.valueOf(random.nextInt(40));
            edges.append(i == 0 ? "" : ", ").append('(').append(random.nextInt(40)).append(", ").append(dst)
                    .append(", ").append(1 + random.nextInt(9)).append(')');
        }
        for (String sql : List.of("CREATE TABLE edges (src INTEGER, dst INTEGER, w INTEGER)", edges.toString(),
                "CREATE TABLE staff (id BIGINT, boss BIGINT, name VARCHAR(12))",
                "INSERT INTO staff VALUES (1, NULL, 'root'), (2, 1, 'a'), (3, 1, 'b'), (4, 2, 'aa'), (5, 2, 'ab'),"
                        + " (6, 4, 'aaa'), (7, 3, 'ba'), (8, 7, 'baa'), (9, NULL, 'other'), (10, 9, 'oa')")) {
            databases.execute(sql);
            duck.execute(sql);
        }
    }

    @AfterAll
    static void close() {
        if (databases != null) {
            databases.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> handWrittenRecursionsAgreeWithDuckDB() {
        return Stream.of(
                "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 100) SELECT sum(n),"
                        + " count(*), max(n) FROM s",
                "WITH RECURSIVE s(n) AS (SELECT 1 UNION SELECT (n * 7) % 11 FROM s) SELECT n FROM s",
                "WITH RECURSIVE r(x) AS (SELECT 3 UNION SELECT e.dst FROM edges e JOIN r ON e.src = r.x)"
                        + " SELECT x FROM r",
                "WITH RECURSIVE w(x, d) AS (SELECT src, 0 FROM edges WHERE src = 5 UNION ALL SELECT e.dst, w.d + 1"
                        + " FROM edges e JOIN w ON e.src = w.x WHERE w.d < 4) SELECT x, d, count(*) FROM w GROUP BY x, d",
                "WITH RECURSIVE chain(id, name, depth, path) AS (SELECT id, name, 0, CAST(name AS VARCHAR) FROM staff"
                        + " WHERE boss IS NULL UNION ALL SELECT s.id, s.name, c.depth + 1, c.path || '/' || s.name"
                        + " FROM staff s JOIN chain c ON s.boss = c.id) SELECT * FROM chain",
                "WITH RECURSIVE up(id, boss) AS (SELECT id, boss FROM staff WHERE id = 8 UNION ALL SELECT s.id,"
                        + " s.boss FROM staff s JOIN up ON s.id = up.boss) SELECT id FROM up",
                "WITH RECURSIVE c(k) AS (SELECT k FROM u0 WHERE k = 2 UNION SELECT u1.k FROM u1 JOIN c ON u1.k = c.k"
                        + " + 1) SELECT k FROM c",
                "WITH RECURSIVE c(k, s) AS (SELECT k, s FROM u2 WHERE k < 2 UNION SELECT u0.k, u0.s FROM u0 JOIN c"
                        + " ON u0.k = c.k + 2 WHERE u0.s IS NOT NULL) SELECT k, count(*) FROM c GROUP BY k",
                "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 30) SELECT a.n, u0.id"
                        + " FROM s a JOIN u0 ON a.n = u0.id WHERE u0.k IS NOT NULL",
                "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 10),"
                        + " t(m) AS (SELECT n FROM s WHERE n % 2 = 0) SELECT count(*), sum(a.n * b.m) FROM s a, t b",
                "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3) SELECT n FROM s WHERE"
                        + " n > 5",
                "WITH RECURSIVE s(n) AS (SELECT k FROM u0 WHERE k > 100 UNION ALL SELECT n + 1 FROM s) SELECT"
                        + " count(*) FROM s",
                "WITH RECURSIVE f(a, b, i) AS (SELECT CAST(0 AS BIGINT), CAST(1 AS BIGINT), 1 UNION ALL SELECT b,"
                        + " a + b, i + 1 FROM f WHERE i < 60) SELECT max(b), count(*) FROM f",
                "WITH RECURSIVE d(day) AS (SELECT DATE '2024-02-27' UNION ALL SELECT day + 1 FROM d WHERE day <"
                        + " DATE '2024-03-03') SELECT day FROM d",
                // Read twice: each reading's recursion computes its own rounds.
                "WITH RECURSIVE r(x) AS (SELECT 3 UNION SELECT e.dst FROM edges e JOIN r ON e.src = r.x)"
                        + " SELECT a.x, count(*) FROM r a JOIN r b ON a.x = b.x GROUP BY a.x",
                "WITH RECURSIVE r(x, p) AS (SELECT 0, CAST('0' AS VARCHAR) UNION SELECT e.dst, r.p || '>'"
                        + " || CAST(e.dst AS VARCHAR) FROM edges e JOIN r ON e.src = r.x WHERE length(r.p) < 12)"
                        + " SELECT count(*), count(DISTINCT x) FROM r")
                .map(sql -> dynamicTest(sql, () -> ResultComparison.assertAgrees(session, duck, sql, false)));
    }

    @TestFactory
    Stream<DynamicTest> orderedRecursionsAgreeWithDuckDB() {
        return Stream.of(
                "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 2 FROM s WHERE n < 40) SELECT n FROM s"
                        + " ORDER BY n DESC LIMIT 5",
                "WITH RECURSIVE chain(id, depth) AS (SELECT id, 0 FROM staff WHERE boss IS NULL UNION ALL SELECT"
                        + " s.id, c.depth + 1 FROM staff s JOIN chain c ON s.boss = c.id) SELECT id, depth FROM chain"
                        + " ORDER BY depth, id")
                .map(sql -> dynamicTest(sql, () -> ResultComparison.assertAgrees(session, duck, sql, true)));
    }

    @TestFactory
    Stream<DynamicTest> randomRecursionsAgreeWithDuckDB() {
        Random random = new Random(SEED * 31 + 7);
        List<DynamicTest> tests = new ArrayList<>();
        for (int q = 0; q < QUERIES; q++) {
            String sql = query(random);
            tests.add(dynamicTest(String.format("recursion %03d: %s", q + 1, sql),
                    () -> ResultComparison.assertAgrees(session, duck, sql, false)));
        }
        return tests.stream();
    }

    private static String query(Random random) {
        String union = random.nextBoolean() ? "UNION" : "UNION ALL";
        String body = switch (random.nextInt(4)) {
            // Walks of a graph with cycles end by UNION alone (no row twice) ...
            case 0 -> "r(x) AS (SELECT " + random.nextInt(40) + " UNION SELECT e.dst FROM edges e JOIN r"
                    + " ON e.src = r.x" + (random.nextBoolean() ? "" : " WHERE e.w > " + (2 + random.nextInt(6))) + ")";
            // ... or by a depth bound.
            case 1 -> "r(x, d) AS (SELECT src, 0 FROM edges WHERE src < " + random.nextInt(10) + " " + union
                    + " SELECT e.dst, r.d + 1 FROM edges e JOIN r ON e.src = r.x WHERE r.d < " + (1 + random.nextInt(4))
                    + ")";
            case 2 -> "r(x) AS (SELECT " + random.nextInt(5) + " " + union + " SELECT x + " + (1 + random.nextInt(3))
                    + " FROM r WHERE x < " + (10 + random.nextInt(90)) + ")";
            // Each key has many rows in u1: with UNION ALL the rows would multiply round by round.
            default -> "r(x, s) AS (SELECT k, s FROM " + (random.nextBoolean() ? "u0" : "u2") + " WHERE k = "
                    + random.nextInt(6) + " UNION SELECT u1.k, u1.s FROM u1 JOIN r ON u1.k = r.x + 1)";
        };
        String outer = switch (random.nextInt(4)) {
            case 0 -> "SELECT * FROM r";
            case 1 -> "SELECT x, count(*) FROM r GROUP BY x";
            case 2 -> "SELECT count(*), count(DISTINCT x), sum(x) FROM r";
            default -> "SELECT r.x, u2.id FROM r JOIN u2 ON r.x = u2.k";
        };
        return "WITH RECURSIVE " + body + " " + outer;
    }

    @Test
    void aRecursionThatNeverEndsStopsAtItsRoundLimit() {
        assertThatThrownBy(() -> {
            try (QueryResult r = session.execute("WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s)"
                    + " SELECT count(*) FROM s")) {
                r.toList();
            }
        }).isInstanceOfSatisfying(LocusSqlException.class,
                e -> assertThat(e.state()).isEqualTo(SqlState.PROGRAM_LIMIT_EXCEEDED));
    }

    @Test
    void explainShowsTheSeedAndTheRecursivePart() {
        try (QueryResult r = session.execute("EXPLAIN WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s"
                + " WHERE n < 5) SELECT sum(n) FROM s")) {
            assertThat(r.toList().toString()).contains("RecursiveUnionAll: s", "seed:", "recursive part:",
                    "WorkingTable: s");
        }
    }
}
