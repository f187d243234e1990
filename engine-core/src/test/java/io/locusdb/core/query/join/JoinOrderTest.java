package io.locusdb.core.query.join;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Multi-way joins are ordered by cost from what storage knows, not by the text: a selective input joins the large
 * one first, conditions implied by an OR reach the inputs, and columns equated in a chain can be joined pairwise.
 */
class JoinOrderTest {
    private static LocusDB db;
    private static Session session;

    @BeforeAll
    static void load() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null));
        session = db.connect();
        session.execute("LOAD TPCH SCALE 0.01 PARTS 2").close();
        session.execute("CREATE TABLE t1 (x INTEGER, y INTEGER, label VARCHAR)").close();
        session.execute("CREATE TABLE t2 (z INTEGER)").close();
        session.execute("INSERT INTO t1 VALUES (1, 1, 'same'), (2, 3, 'differ'), (4, 4, 'same, no z'),"
                + " (NULL, NULL, 'nulls')").close();
        session.execute("INSERT INTO t2 VALUES (1), (2), (3), (NULL)").close();
    }

    @AfterAll
    static void close() {
        session.close();
        db.close();
    }

    private static List<String> explain(String sql) {
        List<String> lines = new ArrayList<>();
        try (QueryResult r = session.execute("EXPLAIN " + sql)) {
            r.toList().forEach(row -> lines.add((String) row.getFirst()));
        }
        return lines;
    }

    /** The join lines of a plan, outermost first (EXPLAIN prints the tree top-down). */
    private static List<String> joins(List<String> plan) {
        return plan.stream().filter(line -> line.contains("HashJoin")).map(String::strip).toList();
    }

    private static List<List<Object>> rows(String sql) {
        try (QueryResult r = session.execute(sql)) {
            return r.toList();
        }
    }

    @Test
    void aSelectiveInputIsJoinedToTheLargeOneFirstWhateverTheOrderOfTheText() {
        String where = " WHERE p_partkey = l_partkey AND s_suppkey = l_suppkey AND p_type = 'ECONOMY ANODIZED STEEL'";
        List<String> written = joins(explain("SELECT count(*) FROM lineitem, supplier, part" + where));
        List<String> reversed = joins(explain("SELECT count(*) FROM part, supplier, lineitem" + where));
        assertThat(written).hasSize(2).isEqualTo(reversed);
        // The part join (one type in 150) sits below the supplier join, which every lineitem row passes.
        assertThat(written.getLast()).contains("partkey");
        assertThat(written.getFirst()).contains("suppkey");
        assertThat(rows("SELECT count(*) FROM lineitem, supplier, part" + where))
                .isEqualTo(rows("SELECT count(*) FROM lineitem JOIN part ON p_partkey = l_partkey"
                        + " WHERE p_type = 'ECONOMY ANODIZED STEEL'"));
    }

    @Test
    void anOrOfConditionsOnTwoInputsAlsoFiltersEachInputByItsOwnPart() {
        List<String> plan = explain("SELECT count(*) FROM supplier, customer, nation n1, nation n2"
                + " WHERE s_nationkey = n1.n_nationkey AND c_nationkey = n2.n_nationkey"
                + " AND ((n1.n_name = 'FRANCE' AND n2.n_name = 'GERMANY')"
                + " OR (n1.n_name = 'GERMANY' AND n2.n_name = 'FRANCE'))");
        // Both nation scans select the two names by their codes, before any join.
        assertThat(plan.stream().filter(line -> line.contains("phase 1") && line.contains("n_name = 'FRANCE'")
                && line.contains("n_name = 'GERMANY'"))).hasSize(2);
        long expected = (long) rows("SELECT count(*) FROM supplier JOIN nation ON s_nationkey = n_nationkey"
                + " WHERE n_name = 'FRANCE'").getFirst().getFirst()
                * (long) rows("SELECT count(*) FROM customer JOIN nation ON c_nationkey = n_nationkey"
                + " WHERE n_name = 'GERMANY'").getFirst().getFirst()
                + (long) rows("SELECT count(*) FROM supplier JOIN nation ON s_nationkey = n_nationkey"
                + " WHERE n_name = 'GERMANY'").getFirst().getFirst()
                * (long) rows("SELECT count(*) FROM customer JOIN nation ON c_nationkey = n_nationkey"
                + " WHERE n_name = 'FRANCE'").getFirst().getFirst();
        assertThat(rows("SELECT count(*) FROM supplier, customer, nation n1, nation n2"
                + " WHERE s_nationkey = n1.n_nationkey AND c_nationkey = n2.n_nationkey"
                + " AND ((n1.n_name = 'FRANCE' AND n2.n_name = 'GERMANY')"
                + " OR (n1.n_name = 'GERMANY' AND n2.n_name = 'FRANCE'))").getFirst().getFirst())
                .isEqualTo(expected);
    }

    @Test
    void columnsEquatedInAChainMayBeJoinedByAnyPair() {
        // c_nationkey = s_nationkey and s_nationkey = n_nationkey: customer may join nation directly.
        List<String> plan = joins(explain("SELECT count(*) FROM customer, supplier, nation, region"
                + " WHERE c_nationkey = s_nationkey AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey"
                + " AND r_name = 'ASIA'"));
        assertThat(plan).hasSize(3);
        Map<Object, Long> customers = counts("SELECT c_nationkey, count(*) FROM customer GROUP BY c_nationkey");
        Map<Object, Long> suppliers = counts("SELECT s_nationkey, count(*) FROM supplier GROUP BY s_nationkey");
        long expected = 0;
        for (List<Object> nation : rows("SELECT n_nationkey FROM nation JOIN region ON n_regionkey = r_regionkey"
                + " WHERE r_name = 'ASIA'")) {
            expected += customers.getOrDefault(nation.getFirst(), 0L) * suppliers.getOrDefault(nation.getFirst(), 0L);
        }
        assertThat(rows("SELECT count(*) FROM customer, supplier, nation, region"
                + " WHERE c_nationkey = s_nationkey AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey"
                + " AND r_name = 'ASIA'").getFirst().getFirst()).isEqualTo(expected);
    }

    private static Map<Object, Long> counts(String sql) {
        Map<Object, Long> counts = new HashMap<>();
        rows(sql).forEach(row -> counts.put(row.get(0), (Long) row.get(1)));
        return counts;
    }

    @Test
    void twoColumnsOfOneInputEqualThroughAnotherInputFilterThatInput() {
        // t1.x = t2.z AND t2.z = t1.y implies t1.x = t1.y: only rows with x = y (and z equal to both) remain.
        assertThat(rows("SELECT label, z FROM t1, t2 WHERE t1.x = t2.z AND t2.z = t1.y ORDER BY label"))
                .containsExactly(List.of("same", 1));
    }

    @Test
    void aJoinOfMoreInputsThanTheExhaustiveSearchTakesIsOrderedGreedilyWithoutCrossProducts() {
        int tables = 20;
        List<String> from = new ArrayList<>();
        List<String> where = new ArrayList<>();
        for (int t = 1; t <= tables; t++) {
            session.execute("CREATE TABLE chain" + t + " (a INTEGER, b INTEGER)").close();
            session.execute("INSERT INTO chain" + t + " VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)").close();
            // Written in an order where neighbours in the text share no condition.
            from.add("chain" + ((t * 7) % tables + 1));
            if (t < tables) {
                where.add("chain" + t + ".b = chain" + (t + 1) + ".a");
            }
        }
        String sql = "SELECT count(*) FROM " + String.join(", ", from) + " WHERE " + String.join(" AND ", where)
                + " AND chain" + tables + ".b > 2";

        List<String> plan = explain(sql);
        assertThat(joins(plan)).hasSize(tables - 1).allSatisfy(line -> assertThat(line).contains("on b = a"));
        assertThat(rows(sql)).containsExactly(List.of(3L));
    }
}
