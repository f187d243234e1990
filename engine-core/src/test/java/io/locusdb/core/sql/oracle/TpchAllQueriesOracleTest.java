package io.locusdb.core.sql.oracle;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.locusdb.core.workload.TpchQuery;
import io.locusdb.core.workload.TpchQueryText;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * All 22 TPC-H queries (the eleven with subqueries among them: scalar subqueries correlated or not, EXISTS and NOT
 * EXISTS, IN and NOT IN, a WITH used twice) at SF {@value #SF} in two parts per table on the fake two-node
 * topology, compared with DuckDB on the same rows in their ORDER BY order: each with the specification's
 * validation parameters and with {@code locus.tpch.draws} (3) sets drawn by its rules.
 */
class TpchAllQueriesOracleTest {
    static final double SF = 0.1;

    private static OracleDatabases databases;

    @BeforeAll
    static void load() {
        databases = OracleDatabases.withTpch(SF);
    }

    @AfterAll
    static void close() {
        if (databases != null) {
            databases.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> allTpchQueriesAgreeWithDuckDB() {
        Random random = new Random(TpchJoinOracleTest.SEED);
        List<TpchQueryText> queries = new ArrayList<>();
        for (TpchQuery q : TpchQuery.all()) {
            queries.add(q.withDefaults());
            for (int i = 0; i < TpchJoinOracleTest.DRAWS; i++) {
                queries.add(q.withRandomParameters(random));
            }
        }
        return queries.stream().map(q -> dynamicTest("TPC-H " + q.describe(),
                () -> ResultComparison.assertAgrees(databases.session, databases.duck, q.sql(), true)));
    }
}
