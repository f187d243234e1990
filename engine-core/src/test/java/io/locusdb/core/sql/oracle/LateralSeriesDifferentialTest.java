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
 * {@code LATERAL generate_series(...)} with arguments from each row, against DuckDB: inner and LEFT JOIN LATERAL,
 * NULL and empty ranges, steps, over tables in two parts and in delta parts, under aggregations, joins and sorts.
 * {@value #QUERIES} random queries and hand-written ones; every difference and every LocusDB error fails.
 */
class LateralSeriesDifferentialTest {
    static final int QUERIES = Integer.getInteger("locus.lateral.queries", 60);
    private static final long SEED = Long.getLong("locus.lateral.seed", 20_261_130L);

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
    Stream<DynamicTest> handWrittenLateralCallsAgreeWithDuckDB() {
        return Stream.of(
                "SELECT u0.id, g FROM u0, LATERAL generate_series(1, u0.k) AS s(g)",
                "SELECT u0.id, g FROM u0 CROSS JOIN LATERAL generate_series(u0.k, 8) AS s(g)",
                "SELECT u1.id, g FROM u1 LEFT JOIN LATERAL generate_series(1, u1.k) AS s(g) ON TRUE",
                "SELECT u2.id, g FROM u2, LATERAL generate_series(u2.k, 12, 3) AS s(g) WHERE g > 4",
                "SELECT u0.k, count(*), sum(g) FROM u0, LATERAL generate_series(0, u0.k) AS s(g) GROUP BY u0.k",
                "SELECT x.g, count(*) FROM (SELECT g FROM u1, LATERAL generate_series(1, u1.k) AS s(g)) x JOIN u2"
                        + " ON x.g = u2.k GROUP BY x.g",
                "SELECT u0.s, g FROM u0, LATERAL generate_series(u0.k, u0.k - 3, -1) AS s(g) WHERE u0.s IS NOT NULL")
                .map(sql -> dynamicTest(sql, () -> ResultComparison.assertAgrees(session, duck, sql, false)));
    }

    /**
     * generate_series in a select list, as PostgreSQL expands it (one row per value), against DuckDB's LATERAL form
     * of the same query: DuckDB's generate_series in a select list gives a list.
     */
    @TestFactory
    Stream<DynamicTest> seriesInTheSelectListExpandEachRow() {
        return Stream.of(
                new String[] {"SELECT generate_series(1, 5)",
                    "SELECT g AS generate_series FROM generate_series(1, 5) AS s(g)"},
                new String[] {"SELECT generate_series(3, 1, -1) AS x",
                    "SELECT x FROM generate_series(3, 1, -1) AS s(x)"},
                new String[] {"SELECT u0.id, generate_series(1, u0.k) AS g FROM u0",
                    "SELECT u0.id, g FROM u0, LATERAL generate_series(1, u0.k) AS s(g)"},
                new String[] {"SELECT id, k * 10, generate_series(k, 4) FROM u2 WHERE s IS NOT NULL",
                    "SELECT id, k * 10, g AS generate_series FROM u2, LATERAL generate_series(k, 4) AS s(g)"
                            + " WHERE s IS NOT NULL"},
                new String[] {"SELECT count(*), sum(g) FROM (SELECT generate_series(0, k) AS g FROM u1) x",
                    "SELECT count(*), sum(g) FROM u1, LATERAL generate_series(0, k) AS s(g)"})
                .map(q -> dynamicTest(q[0], () -> ResultComparison.assertAgreesOrBothDivideByZero(session, duck,
                        q[0], q[1], false)));
    }

    @Test
    void whatIsNotSupportedYetIsRefusedByName() {
        for (String sql : List.of(
                "SELECT u0.id, g FROM u0 LEFT JOIN LATERAL generate_series(1, u0.k) AS s(g) ON g > 2",
                "SELECT *, generate_series(1, 2) FROM u0",
                "SELECT generate_series(1, 2), generate_series(1, 3)",
                "SELECT k, generate_series(1, 2) FROM u0 GROUP BY k")) {
            assertThatThrownBy(() -> {
                try (QueryResult r = session.execute(sql)) {
                    r.toList();
                }
            }).as(sql).isInstanceOfSatisfying(LocusSqlException.class,
                    e -> assertThat(e.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED));
        }
    }

    @TestFactory
    Stream<DynamicTest> randomLateralCallsAgreeWithDuckDB() {
        Random random = new Random(SEED);
        String[] tables = {"u0", "u1", "u2"};
        List<DynamicTest> tests = new ArrayList<>();
        for (int q = 0; q < QUERIES; q++) {
            String t = tables[random.nextInt(tables.length)];
            String start = random.nextBoolean() ? String.valueOf(random.nextInt(4)) : t + ".k";
            String stop = start.equals(t + ".k") ? String.valueOf(random.nextInt(12)) : t + ".k";
            String step = random.nextInt(3) == 0 ? ", " + (1 + random.nextInt(3)) : "";
            String join = random.nextBoolean() ? ", LATERAL generate_series(" + start + ", " + stop + step + ") AS s(g)"
                    : " LEFT JOIN LATERAL generate_series(" + start + ", " + stop + step + ") AS s(g) ON TRUE";
            String sql = switch (random.nextInt(3)) {
                case 0 -> "SELECT " + t + ".id, g FROM " + t + join;
                case 1 -> "SELECT " + t + ".k, count(*), count(g), sum(g) FROM " + t + join + " GROUP BY " + t + ".k";
                default -> "SELECT count(*), min(g), max(g) FROM " + t + join + " WHERE " + t + ".s <> 'a'";
            };
            tests.add(dynamicTest(String.format("lateral %03d: %s", q + 1, sql),
                    () -> ResultComparison.assertAgrees(session, duck, sql, false)));
        }
        return tests.stream();
    }
}
