package io.locusdb.core.sql.oracle;

import static org.assertj.core.api.Assumptions.assumeThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.workload.TpchQuery;
import io.locusdb.core.workload.TpchQueryText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The TPC-H join queries at SF 1, every table in two parts on the fake two-node topology (orders and lineitem
 * co-partitioned), against DuckDB on the same generated rows: each query with one set of substitution parameters
 * drawn by the specification's rules from {@code locus.tpch.seed} (a different stream from the SF 0.01 suite's).
 * The validation parameters run at SF 0.01 ({@link TpchJoinOracleTest}) and in {@code ./locus bench query}.
 *
 * <p>Runs when {@code locus.oracle.scales} (the lineitem suite's scale list, default "0.1,1") contains 1, so
 * {@code -Dlocus.oracle.scales=0.1} keeps a quick run quick.
 */
class TpchJoinSf1OracleTest {
    private static final double SF = 1;

    private static LocusDB locus;
    private static Session session;
    private static DuckOracle duck;

    @BeforeAll
    static void load() {
        boolean wanted = Arrays.stream(System.getProperty("locus.oracle.scales", "0.1,1").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).mapToDouble(Double::parseDouble).anyMatch(s -> s == SF);
        assumeThat(wanted).as("SF 1 is in locus.oracle.scales").isTrue();
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

    @TestFactory
    Stream<DynamicTest> tpchJoinQueriesAgreeWithDuckDBAtScaleFactorOne() {
        Random random = new Random(TpchJoinOracleTest.SEED + 1);
        List<TpchQueryText> queries = new ArrayList<>();
        for (TpchQuery q : TpchQuery.joins()) {
            queries.add(q.withRandomParameters(random));
        }
        return queries.stream().map(q -> dynamicTest("TPC-H SF 1 " + q.describe(),
                () -> ResultComparison.assertAgrees(session, duck, q.sql(), true)));
    }
}
