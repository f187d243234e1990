package io.locusdb.core.sql.oracle;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The TPC-H queries that join without subqueries in expressions (Q3, Q5, Q7, Q8, Q9, Q10, Q12, Q14, Q19; Q7-Q9
 * with their derived tables in FROM), at SF {@value #SF} in two parts per table on the fake two-node topology,
 * compared with DuckDB on the same generated rows. The substitution parameters are the specification's defaults.
 */
class TpchJoinOracleTest {
    static final double SF = 0.01;

    static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put("Q3", """
                SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate, o_shippriority
                FROM customer, orders, lineitem
                WHERE c_mktsegment = 'BUILDING' AND c_custkey = o_custkey AND l_orderkey = o_orderkey
                  AND o_orderdate < DATE '1995-03-15' AND l_shipdate > DATE '1995-03-15'
                GROUP BY l_orderkey, o_orderdate, o_shippriority
                ORDER BY revenue DESC, o_orderdate, l_orderkey
                LIMIT 10""");
        QUERIES.put("Q5", """
                SELECT n_name, sum(l_extendedprice * (1 - l_discount)) AS revenue
                FROM customer, orders, lineitem, supplier, nation, region
                WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND l_suppkey = s_suppkey
                  AND c_nationkey = s_nationkey AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey
                  AND r_name = 'ASIA' AND o_orderdate >= DATE '1994-01-01'
                  AND o_orderdate < DATE '1994-01-01' + INTERVAL '1' YEAR
                GROUP BY n_name
                ORDER BY revenue DESC""");
        QUERIES.put("Q7", """
                SELECT supp_nation, cust_nation, l_year, sum(volume) AS revenue
                FROM (
                  SELECT n1.n_name AS supp_nation, n2.n_name AS cust_nation, extract(year FROM l_shipdate) AS l_year,
                         l_extendedprice * (1 - l_discount) AS volume
                  FROM supplier, lineitem, orders, customer, nation n1, nation n2
                  WHERE s_suppkey = l_suppkey AND o_orderkey = l_orderkey AND c_custkey = o_custkey
                    AND s_nationkey = n1.n_nationkey AND c_nationkey = n2.n_nationkey
                    AND ((n1.n_name = 'FRANCE' AND n2.n_name = 'GERMANY')
                      OR (n1.n_name = 'GERMANY' AND n2.n_name = 'FRANCE'))
                    AND l_shipdate BETWEEN DATE '1995-01-01' AND DATE '1996-12-31'
                ) AS shipping
                GROUP BY supp_nation, cust_nation, l_year
                ORDER BY supp_nation, cust_nation, l_year""");
        QUERIES.put("Q8", """
                SELECT o_year, CAST(sum(CASE WHEN nation = 'BRAZIL' THEN volume ELSE 0 END) AS DOUBLE)
                       / CAST(sum(volume) AS DOUBLE) AS mkt_share
                FROM (
                  SELECT extract(year FROM o_orderdate) AS o_year, l_extendedprice * (1 - l_discount) AS volume,
                         n2.n_name AS nation
                  FROM part, supplier, lineitem, orders, customer, nation n1, nation n2, region
                  WHERE p_partkey = l_partkey AND s_suppkey = l_suppkey AND l_orderkey = o_orderkey
                    AND o_custkey = c_custkey AND c_nationkey = n1.n_nationkey AND n1.n_regionkey = r_regionkey
                    AND r_name = 'AMERICA' AND s_nationkey = n2.n_nationkey
                    AND o_orderdate BETWEEN DATE '1995-01-01' AND DATE '1996-12-31'
                    AND p_type = 'ECONOMY ANODIZED STEEL'
                ) AS all_nations
                GROUP BY o_year
                ORDER BY o_year""");
        QUERIES.put("Q9", """
                SELECT nation, o_year, sum(amount) AS sum_profit
                FROM (
                  SELECT n_name AS nation, extract(year FROM o_orderdate) AS o_year,
                         l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity AS amount
                  FROM part, supplier, lineitem, partsupp, orders, nation
                  WHERE s_suppkey = l_suppkey AND ps_suppkey = l_suppkey AND ps_partkey = l_partkey
                    AND p_partkey = l_partkey AND o_orderkey = l_orderkey AND s_nationkey = n_nationkey
                    AND p_name LIKE '%green%'
                ) AS profit
                GROUP BY nation, o_year
                ORDER BY nation, o_year DESC""");
        QUERIES.put("Q10", """
                SELECT c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) AS revenue, c_acctbal, n_name,
                       c_address, c_phone, c_comment
                FROM customer, orders, lineitem, nation
                WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND o_orderdate >= DATE '1993-10-01'
                  AND o_orderdate < DATE '1993-10-01' + INTERVAL '3' MONTH AND l_returnflag = 'R'
                  AND c_nationkey = n_nationkey
                GROUP BY c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment
                ORDER BY revenue DESC, c_custkey
                LIMIT 20""");
        QUERIES.put("Q12", """
                SELECT l_shipmode,
                       sum(CASE WHEN o_orderpriority = '1-URGENT' OR o_orderpriority = '2-HIGH' THEN 1 ELSE 0 END)
                         AS high_line_count,
                       sum(CASE WHEN o_orderpriority <> '1-URGENT' AND o_orderpriority <> '2-HIGH' THEN 1 ELSE 0 END)
                         AS low_line_count
                FROM orders, lineitem
                WHERE o_orderkey = l_orderkey AND l_shipmode IN ('MAIL', 'SHIP')
                  AND l_commitdate < l_receiptdate AND l_shipdate < l_commitdate
                  AND l_receiptdate >= DATE '1994-01-01' AND l_receiptdate < DATE '1994-01-01' + INTERVAL '1' YEAR
                GROUP BY l_shipmode
                ORDER BY l_shipmode""");
        // DECIMAL / DECIMAL is exact with 6 fraction digits in LocusDB, DOUBLE in DuckDB (README): both DOUBLE here.
        QUERIES.put("Q14", """
                SELECT 100.00 * CAST(sum(CASE WHEN p_type LIKE 'PROMO%' THEN l_extendedprice * (1 - l_discount)
                                              ELSE 0 END) AS DOUBLE)
                       / CAST(sum(l_extendedprice * (1 - l_discount)) AS DOUBLE) AS promo_revenue
                FROM lineitem, part
                WHERE l_partkey = p_partkey AND l_shipdate >= DATE '1995-09-01'
                  AND l_shipdate < DATE '1995-09-01' + INTERVAL '1' MONTH""");
        QUERIES.put("Q19", """
                SELECT sum(l_extendedprice * (1 - l_discount)) AS revenue
                FROM lineitem, part
                WHERE (p_partkey = l_partkey AND p_brand = 'Brand#12'
                       AND p_container IN ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG') AND l_quantity >= 1
                       AND l_quantity <= 1 + 10 AND p_size BETWEEN 1 AND 5 AND l_shipmode IN ('AIR', 'AIR REG')
                       AND l_shipinstruct = 'DELIVER IN PERSON')
                   OR (p_partkey = l_partkey AND p_brand = 'Brand#23'
                       AND p_container IN ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK') AND l_quantity >= 10
                       AND l_quantity <= 10 + 10 AND p_size BETWEEN 1 AND 10 AND l_shipmode IN ('AIR', 'AIR REG')
                       AND l_shipinstruct = 'DELIVER IN PERSON')
                   OR (p_partkey = l_partkey AND p_brand = 'Brand#34'
                       AND p_container IN ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG') AND l_quantity >= 20
                       AND l_quantity <= 20 + 10 AND p_size BETWEEN 1 AND 15 AND l_shipmode IN ('AIR', 'AIR REG')
                       AND l_shipinstruct = 'DELIVER IN PERSON')""");
    }

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
        return QUERIES.entrySet().stream().map(q -> dynamicTest("TPC-H " + q.getKey(),
                () -> ResultComparison.assertAgrees(session, duck, q.getValue(), true)));
    }
}
