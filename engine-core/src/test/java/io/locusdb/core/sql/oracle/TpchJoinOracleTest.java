package io.locusdb.core.sql.oracle;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.workload.TpchQuery;
import io.locusdb.core.workload.TpchQueryText;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The TPC-H queries that join without subqueries in expressions (Q3, Q5, Q7, Q8, Q9, Q10, Q12, Q14, Q19; Q7-Q9
 * with their derived tables in FROM), at SF {@value #SF} in two parts per table on the fake two-node topology,
 * compared with DuckDB on the same generated rows: each with the specification's validation parameters and with
 * {@code locus.tpch.draws} (3) sets drawn by the specification's rules from the seed {@code locus.tpch.seed}.
 * {@link TpchJoinSf1OracleTest} runs them at SF 1.
 */
class TpchJoinOracleTest {
    static final double SF = 0.01;

    /** Random substitution parameters: a fixed seed by default, so that a failure can be rerun. */
    static final long SEED = Long.getLong("locus.tpch.seed", 20261125L);
    static final int DRAWS = Integer.getInteger("locus.tpch.draws", 3);

    private static LocusDB locus;
    private static Session session;
    private static DuckOracle duck;

    @BeforeAll
    static void load() {
        locus = OracleTables.openLocus();
        session = locus.connect();
        try (QueryResult r = session.execute("LOAD TPCH SCALE " + SF + " PARTS 2")) {
            r.updateCount();
        }
        duck = DuckOracle.open();
        duck.loadTpch(SF);
    }

    @AfterAll
    static void close() {
        if (session != null) {
            session.close();
        }
        if (locus != null) {
            locus.close();
        }
        if (duck != null) {
            duck.close();
        }
    }

    /** Joins of orders and lineitem on the order key: co-partitioned (one table group, same range bounds). */
    static final Map<String, String> CO_PARTITIONED = new LinkedHashMap<>();

    static {
        for (String type : new String[] {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"}) {
            CO_PARTITIONED.put(type, "SELECT o_orderstatus, l_linestatus, count(*), count(o_orderkey),"
                    + " count(l_orderkey), sum(l_quantity) FROM orders " + type + " lineitem ON o_orderkey = l_orderkey"
                    + " AND l_linenumber = 1 AND o_orderstatus = 'F' GROUP BY o_orderstatus, l_linestatus");
        }
    }

    @TestFactory
    Stream<DynamicTest> coPartitionedJoinsAgreeWithDuckDB() {
        Stream<DynamicTest> joins = CO_PARTITIONED.entrySet().stream().map(q -> dynamicTest(q.getKey(),
                () -> ResultComparison.assertAgrees(session, duck, q.getValue(), false)));
        // The adaptive-placement paper's query type (c): an equi-join on the ID, prepared once, run with parameters.
        DynamicTest typeC = dynamicTest("query type (c), prepared", () -> ResultComparison.assertAgreesPrepared(
                session, duck, "SELECT count(*), sum(l_extendedprice) FROM orders JOIN lineitem"
                        + " ON o_orderkey = l_orderkey WHERE l_quantity BETWEEN ? AND ?", false,
                List.of(new Object[] {new BigDecimal("5"), new BigDecimal("20")},
                        new Object[] {new BigDecimal("49"), new BigDecimal("50")})));
        return Stream.concat(joins, Stream.of(typeC));
    }

    @TestFactory
    Stream<DynamicTest> tpchJoinQueriesAgreeWithDuckDB() {
        return queriesToRun(SEED, DRAWS).stream().map(q -> dynamicTest("TPC-H " + q.describe(),
                () -> ResultComparison.assertAgrees(session, duck, q.sql(), true)));
    }

    /** Every join query with the validation parameters, then {@code draws} random parameter sets of each. */
    static List<TpchQueryText> queriesToRun(long seed, int draws) {
        Random random = new Random(seed);
        List<TpchQueryText> queries = new ArrayList<>();
        for (TpchQuery q : TpchQuery.joins()) {
            queries.add(q.withDefaults());
            for (int i = 0; i < draws; i++) {
                queries.add(q.withRandomParameters(random));
            }
        }
        return queries;
    }
}
