package io.locusdb.core.sql.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * TPC-H Q1 and Q6 and the query shapes of the adaptive-placement experiments, on lineitem at SF 0.1 and SF 1
 * split into 1, 2 and 4 range parts on the fake two-node topology, each compared with DuckDB on the same data.
 *
 * <p>The shapes are run as prepared statements, prepared once and executed with a moderately selective (a few
 * percent of the rows) and a very selective parameter pair:
 * <ul>
 *   <li>{@code SELECT COLx FROM lineitem WHERE COLx BETWEEN ? AND ?}</li>
 *   <li>{@code SELECT COL1, SUM(CAST(COLx AS DOUBLE)) FROM lineitem WHERE COLx BETWEEN ? AND ? GROUP BY COL1}</li>
 * </ul>
 *
 * <p>Loading is shared: the configurations run one after another and each (scale factor, parts) is loaded into
 * LocusDB once, DuckDB once per scale factor; the previous database is closed when the next is needed. The scale
 * factors can be narrowed for a quick run with {@code -Dlocus.oracle.scales=0.1}.
 */
class TpchOracleTest {
    private static final List<Double> SCALES = Arrays.stream(System.getProperty("locus.oracle.scales", "0.1,1")
            .split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Double::parseDouble).toList();
    private static final List<Integer> PARTS = List.of(1, 2, 4);

    static final String Q1 = """
            SELECT
              l_returnflag,
              l_linestatus,
              SUM(l_quantity) AS sum_qty,
              SUM(l_extendedprice) AS sum_base_price,
              SUM(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
              SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
              AVG(l_quantity) AS avg_qty,
              AVG(l_extendedprice) AS avg_price,
              AVG(l_discount) AS avg_disc,
              COUNT(*) AS count_order
            FROM lineitem
            WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY
            GROUP BY l_returnflag, l_linestatus
            ORDER BY l_returnflag, l_linestatus""";

    static final String Q6 = """
            SELECT SUM(l_extendedprice * l_discount) AS revenue
            FROM lineitem
            WHERE l_shipdate >= DATE '1994-01-01'
              AND l_shipdate < DATE '1994-01-01' + INTERVAL '1' YEAR
              AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01
              AND l_quantity < 24""";

    /** A query of this suite: plain ({@code parameterSets} empty) or prepared once and run with each set. */
    record OracleQuery(String name, String sql, boolean ordered, List<Object[]> parameterSets) {
    }

    record Config(double sf, int parts) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "SF %s, %d part(s)", sf, parts);
        }
    }

    private static Config loaded;
    private static LocusDB locus;
    private static Session session;
    private static double duckScale = -1;
    private static DuckOracle duck;

    @TestFactory
    Stream<DynamicContainer> tpchQueriesAgreeWithDuckDB() {
        List<DynamicContainer> containers = new ArrayList<>();
        for (double sf : SCALES) {
            for (int parts : PARTS) {
                Config config = new Config(sf, parts);
                List<DynamicTest> tests = new ArrayList<>();
                for (OracleQuery q : queries(sf)) {
                    tests.add(dynamicTest(q.name(), () -> {
                        use(config);
                        if (q.parameterSets().isEmpty()) {
                            ResultComparison.assertAgrees(session, duck, q.sql(), q.ordered());
                        } else {
                            ResultComparison.assertAgreesPrepared(session, duck, q.sql(), q.ordered(),
                                    q.parameterSets());
                        }
                    }));
                }
                containers.add(dynamicContainer(config.toString(), tests));
            }
        }
        return containers.stream();
    }

    /** The queries at scale factor {@code sf}; parameters are chosen so results stay moderate at SF 1. */
    static List<OracleQuery> queries(double sf) {
        long partCount = (long) (200_000 * sf);
        long fromPart = partCount / 10;
        List<OracleQuery> q = new ArrayList<>();
        q.add(new OracleQuery("TPC-H Q1", Q1, true, List.of()));
        q.add(new OracleQuery("TPC-H Q6", Q6, true, List.of()));

        q.add(shape("SELECT l_quantity FROM lineitem WHERE l_quantity BETWEEN ? AND ?", false,
                new Object[] {dec("10.00"), dec("11.00")}, new Object[] {dec("50.00"), dec("50.00")}));
        q.add(shape("SELECT l_extendedprice FROM lineitem WHERE l_extendedprice BETWEEN ? AND ?", false,
                new Object[] {dec("30000.00"), dec("31000.00")}, new Object[] {dec("50000.00"), dec("50010.00")}));
        q.add(shape("SELECT l_shipdate FROM lineitem WHERE l_shipdate BETWEEN ? AND ?", false,
                new Object[] {LocalDate.of(1995, 3, 1), LocalDate.of(1995, 3, 31)},
                new Object[] {LocalDate.of(1996, 2, 29), LocalDate.of(1996, 2, 29)}));
        q.add(shape("SELECT l_partkey FROM lineitem WHERE l_partkey BETWEEN ? AND ?", false,
                new Object[] {fromPart, fromPart + partCount / 50}, new Object[] {777L, 777L}));

        q.add(shape("SELECT l_returnflag, SUM(CAST(l_extendedprice AS DOUBLE)) FROM lineitem"
                        + " WHERE l_extendedprice BETWEEN ? AND ? GROUP BY l_returnflag", false,
                new Object[] {dec("10000.00"), dec("12000.00")}, new Object[] {dec("50000.00"), dec("50010.00")}));
        q.add(shape("SELECT l_shipmode, SUM(CAST(l_quantity AS DOUBLE)) FROM lineitem"
                        + " WHERE l_quantity BETWEEN ? AND ? GROUP BY l_shipmode", false,
                new Object[] {dec("1.00"), dec("2.00")}, new Object[] {dec("50.00"), dec("50.00")}));
        q.add(shape("SELECT l_suppkey, SUM(CAST(l_extendedprice AS DOUBLE)) FROM lineitem"
                        + " WHERE l_extendedprice BETWEEN ? AND ? GROUP BY l_suppkey", false,
                new Object[] {dec("20000.00"), dec("21500.00")}, new Object[] {dec("70000.00"), dec("70020.00")}));
        q.add(shape("SELECT l_suppkey, SUM(CAST(l_quantity AS DOUBLE)) FROM lineitem"
                        + " WHERE l_quantity BETWEEN ? AND ? GROUP BY l_suppkey", false,
                new Object[] {dec("49.00"), dec("50.00")}, new Object[] {dec("7.00"), dec("7.00")}));
        // The paper's shape with the grouping column also bounding the range: a different pushed-down column.
        q.add(shape("SELECT l_returnflag, SUM(CAST(l_quantity AS DOUBLE)) FROM lineitem"
                        + " WHERE l_shipdate BETWEEN ? AND ? GROUP BY l_returnflag", false,
                new Object[] {LocalDate.of(1995, 6, 1), LocalDate.of(1995, 7, 15)},
                new Object[] {LocalDate.of(1992, 1, 2), LocalDate.of(1992, 1, 2)}));
        // Many groups (about 60 % of the orders): local tables overflow the cache-sized limit and are merged while
        // the scan goes on, and with several parts every order's lines meet in one result partition.
        q.add(shape("SELECT l_orderkey, COUNT(*), SUM(l_quantity), MAX(l_shipmode) FROM lineitem"
                        + " WHERE l_orderkey BETWEEN ? AND ? GROUP BY l_orderkey", false,
                new Object[] {1L, (long) (6_000_000 * sf * 0.6)}));
        return q;
    }

    private static OracleQuery shape(String sql, boolean ordered, Object[]... parameterSets) {
        return new OracleQuery(sql, sql, ordered, List.of(parameterSets));
    }

    private static BigDecimal dec(String value) {
        return new BigDecimal(value);
    }

    /** Makes LocusDB hold lineitem for {@code config} and DuckDB for its scale factor, loading only on change. */
    private static synchronized void use(Config config) {
        if (!config.equals(loaded)) {
            closeLocus();
            locus = OracleTables.openLocus();
            assertThat(locus.topology().nodeCount()).as("the fake two-node topology").isEqualTo(2);
            Table lineitem = OracleTables.registerLineitem(locus, config.sf(), config.parts());
            List<TablePart> parts = lineitem.version().parts();
            assertThat(parts).as("lineitem parts for %s", config).hasSize(config.parts());
            for (int p = 0; p < parts.size(); p++) {
                assertThat(parts.get(p).homeNode()).as("node of part %d for %s", p, config).isEqualTo(p % 2);
            }
            session = locus.connect();
            loaded = config;
        }
        if (duckScale != config.sf()) {
            if (duck != null) {
                duck.close();
                duck = null;
            }
            duckScale = -1;
            duck = DuckOracle.open();
            duck.loadLineitem(config.sf());
            duckScale = config.sf();
        }
    }

    private static void closeLocus() {
        loaded = null;
        if (session != null) {
            session.close();
            session = null;
        }
        if (locus != null) {
            locus.close();
            locus = null;
        }
    }

    @AfterAll
    static void close() {
        try {
            closeLocus();
        } finally {
            if (duck != null) {
                duck.close();
                duck = null;
            }
            duckScale = -1;
        }
    }
}
