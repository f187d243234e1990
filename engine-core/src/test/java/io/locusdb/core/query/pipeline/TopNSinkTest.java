package io.locusdb.core.query.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ORDER BY ... LIMIT over a scan or a join keeps only each task's first rows: the answer is the one a full sort
 * gives, for every direction, NULL placement and offset.
 */
class TopNSinkTest {
    private static LocusDB db;
    private static Session session;

    @BeforeAll
    static void load() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null));
        session = db.connect();
        session.execute("LOAD TPCH SCALE 0.01 PARTS 2").close();
        session.execute("CREATE TABLE t (k INTEGER, v INTEGER, s VARCHAR)").close();
        StringBuilder insert = new StringBuilder("INSERT INTO t VALUES ");
        for (int i = 0; i < 10_000; i++) {
            insert.append(i == 0 ? "" : ", ").append('(').append(i).append(", ")
                    .append(i % 7 == 0 ? "NULL" : String.valueOf((i * 37) % 101)).append(", '")
                    .append((char) ('a' + i % 26)).append("')");
        }
        session.execute(insert.toString()).close();
        // The same rows in parts of their own (dictionaries, NULL codes), not in a delta: the scan tests codes
        // against a top-N task's cut-off before it decodes a row.
        session.execute("CREATE TABLE u (k INTEGER, v INTEGER, s VARCHAR)").close();
        session.execute("INSERT INTO u SELECT * FROM t").close();
        session.execute("ALTER TABLE u PARTITION INTO 2 PARTS").close();
    }

    @AfterAll
    static void close() {
        session.close();
        db.close();
    }

    private static List<List<Object>> rows(String sql) {
        try (QueryResult r = session.execute(sql)) {
            return r.toList();
        }
    }

    private static void agreesWithAFullSort(String select, String orderBy, int offset, int limit) {
        List<List<Object>> all = rows(select + " ORDER BY " + orderBy);
        List<List<Object>> top = rows(select + " ORDER BY " + orderBy + " LIMIT " + limit + " OFFSET " + offset);
        assertThat(top).as(orderBy + " LIMIT " + limit + " OFFSET " + offset)
                .isEqualTo(all.subList(Math.min(offset, all.size()), Math.min(offset + limit, all.size())));
    }

    @Test
    void aScanWithLimitGivesTheFirstRowsOfTheFullSort() {
        String select = "SELECT l_orderkey, l_linenumber, l_extendedprice, l_shipmode FROM lineitem";
        agreesWithAFullSort(select, "l_extendedprice DESC, l_orderkey, l_linenumber", 0, 10);
        agreesWithAFullSort(select, "l_shipmode, l_extendedprice, l_orderkey, l_linenumber", 3, 7);
        agreesWithAFullSort(select, "l_orderkey DESC, l_linenumber DESC", 0, 1);
        // More than a task's buffer holds before it sorts.
        agreesWithAFullSort(select, "l_extendedprice, l_orderkey, l_linenumber", 5_000, 3_000);
        agreesWithAFullSort(select, "l_extendedprice, l_orderkey, l_linenumber", 0, 0);
    }

    @Test
    void nullsGoWhereTheOrderSays() {
        agreesWithAFullSort("SELECT k, v FROM t", "v, k", 0, 20);
        agreesWithAFullSort("SELECT k, v FROM t", "v DESC, k", 0, 20);
        agreesWithAFullSort("SELECT k, v FROM t", "v NULLS FIRST, k DESC", 10, 2_000);
        agreesWithAFullSort("SELECT k, v FROM t", "v DESC NULLS LAST, k", 9_990, 100);
    }

    @Test
    void aCutOffOnTheScannedColumnsCodesKeepsTiesAndNullsWhereTheyBelong() {
        // Rows arrive in k order: "k DESC" makes a later row win a tie on v, so a cut-off must keep ties.
        for (String order : List.of("v, k", "v DESC, k", "v DESC, k DESC", "v NULLS FIRST, k DESC",
                "v DESC NULLS LAST, k DESC", "v ASC NULLS LAST, k DESC", "v DESC NULLS FIRST, k")) {
            for (int[] window : new int[][] {{0, 1}, {0, 50}, {100, 300}, {1_400, 10}, {9_000, 2_000}}) {
                agreesWithAFullSort("SELECT k, v, s FROM u", order, window[0], window[1]);
            }
        }
        agreesWithAFullSort("SELECT l_orderkey, l_linenumber, l_shipdate FROM lineitem",
                "l_shipdate DESC, l_orderkey DESC, l_linenumber", 0, 1_000);
        agreesWithAFullSort("SELECT l_orderkey, l_linenumber, l_shipdate FROM lineitem",
                "l_shipdate, l_orderkey DESC, l_linenumber", 7, 4_500);
    }

    @Test
    void aJoinWithLimitGivesTheFirstRowsOfTheFullSort() {
        agreesWithAFullSort("SELECT o_orderkey, o_totalprice, c_name FROM orders JOIN customer"
                + " ON o_custkey = c_custkey WHERE c_mktsegment = 'BUILDING'", "o_totalprice DESC, o_orderkey", 0, 10);
        agreesWithAFullSort("SELECT s, k FROM t WHERE v > 50", "s, k DESC", 4, 25);
    }

    @Test
    void explainShowsTheTopNPerTask() {
        List<List<Object>> plan = rows("EXPLAIN SELECT k FROM t ORDER BY v DESC LIMIT 10");
        assertThat(plan.toString()).contains("top 10 kept per pipeline task");
        // A LIMIT of any size: a task's rows past its cut-off are dropped as they arrive.
        List<List<Object>> big = rows("EXPLAIN SELECT k FROM t ORDER BY v DESC LIMIT 1000000");
        assertThat(big.toString()).contains("top 1000000 kept per pipeline task");
    }

    @Test
    void aLimitBeyondTheRowsSortsEverything() {
        agreesWithAFullSort("SELECT k, v FROM t", "v, k", 0, 200_000);
        agreesWithAFullSort("SELECT k, v FROM t", "v DESC, k", 9_000, 200_000);
    }

    @Test
    void aLimitThatEveryTaskFillsDropsOnlyRowsPastTheCutOff() {
        // Ties on the first key at the cut-off: the second key decides among them.
        agreesWithAFullSort("SELECT l_orderkey, l_linenumber, l_quantity FROM lineitem",
                "l_quantity, l_orderkey DESC, l_linenumber", 0, 5_000);
        agreesWithAFullSort("SELECT l_orderkey, l_linenumber, l_shipmode FROM lineitem",
                "l_shipmode DESC, l_orderkey, l_linenumber", 100, 20_000);
    }
}
