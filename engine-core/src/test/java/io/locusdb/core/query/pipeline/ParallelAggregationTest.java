package io.locusdb.core.query.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.TestQueries;
import io.locusdb.core.exec.ExecutionOptions;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * GROUP BY with many more groups than a task's local table holds (its tables are handed to the merge several
 * times), COUNT(DISTINCT) split into two aggregations, and ORDER BY over the aggregated rows give the answers
 * computed here from the plain rows.
 */
class ParallelAggregationTest {
    private static LocusDB db;
    /** lineitem's (l_orderkey, l_suppkey, l_quantity as a whole number, l_shipmode) as read by a plain scan. */
    private static List<Object[]> lineitem;

    @BeforeAll
    static void load() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null));
        // 300,000 rows and 75,000 orders: more groups than a local table keeps (32,768).
        try (Session session = db.connect()) {
            session.execute("LOAD TPCH SCALE 0.05 PARTS 2").close();
        }
        lineitem = new ArrayList<>();
        for (List<Object> row : rows("SELECT l_orderkey, l_suppkey, CAST(l_quantity AS BIGINT), l_shipmode"
                + " FROM lineitem")) {
            lineitem.add(row.toArray());
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static List<List<Object>> rows(String sql) {
        return TestQueries.rows(db, sql);
    }

    private static long number(Object value) {
        return ((Number) value).longValue();
    }

    @Test
    void manyGroupsAreEachAggregatedOnce() {
        Map<Long, long[]> expected = new HashMap<>();
        for (Object[] row : lineitem) {
            long[] agg = expected.computeIfAbsent(number(row[0]), k -> new long[] {0, 0, Long.MAX_VALUE});
            agg[0]++;
            agg[1] += number(row[1]);
            agg[2] = Math.min(agg[2], number(row[1]));
        }
        List<List<Object>> actual = rows("SELECT l_orderkey, count(*), sum(l_suppkey), min(l_suppkey) FROM lineitem"
                + " GROUP BY l_orderkey");
        assertThat(actual).hasSize(expected.size());
        for (List<Object> row : actual) {
            long[] agg = expected.get(number(row.get(0)));
            assertThat(agg).as("order %s", row.get(0)).isNotNull();
            assertThat(List.of(number(row.get(1)), number(row.get(2)), number(row.get(3))))
                    .as("order %s", row.get(0)).containsExactly(agg[0], agg[1], agg[2]);
        }
    }

    @Test
    void countDistinctPerGroupCountsEachValueOnce() {
        Map<Long, Set<Long>> suppliers = new HashMap<>();
        for (Object[] row : lineitem) {
            suppliers.computeIfAbsent(number(row[0]) % 1000, k -> new HashSet<>()).add(number(row[1]));
        }
        List<List<Object>> actual = rows("SELECT mod(l_orderkey, 1000), count(DISTINCT l_suppkey) FROM lineitem"
                + " GROUP BY mod(l_orderkey, 1000)");
        assertThat(actual).hasSize(suppliers.size());
        for (List<Object> row : actual) {
            assertThat(number(row.get(1))).as("key %s", row.get(0))
                    .isEqualTo(suppliers.get(number(row.get(0))).size());
        }
    }

    @Test
    void countDistinctBesideOtherAggregatesKeepsTheirValues() {
        Map<String, Set<Long>> orders = new TreeMap<>();
        Map<String, long[]> others = new TreeMap<>();
        for (Object[] row : lineitem) {
            String mode = ((String) row[3]).strip();
            orders.computeIfAbsent(mode, k -> new HashSet<>()).add(number(row[0]));
            long[] agg = others.computeIfAbsent(mode, k -> new long[] {0, Long.MIN_VALUE, 0});
            agg[0]++;
            agg[1] = Math.max(agg[1], number(row[1]));
            agg[2] += number(row[1]);
        }
        List<List<Object>> actual = rows("SELECT l_shipmode, count(DISTINCT l_orderkey), count(*), max(l_suppkey),"
                + " sum(l_suppkey) FROM lineitem GROUP BY l_shipmode ORDER BY l_shipmode");
        List<List<Object>> expected = new ArrayList<>();
        for (String mode : orders.keySet()) {
            long[] agg = others.get(mode);
            expected.add(List.of(mode, (long) orders.get(mode).size(), agg[0], agg[1], agg[2]));
        }
        assertThat(actual.stream().map(r -> List.<Object>of(((String) r.get(0)).strip(), number(r.get(1)),
                number(r.get(2)), number(r.get(3)), number(r.get(4)))).toList()).isEqualTo(expected);
        assertThat(number(rows("SELECT count(DISTINCT l_orderkey) FROM lineitem").getFirst().getFirst()))
                .isEqualTo(lineitem.stream().map(r -> number(r[0])).distinct().count());
    }

    @Test
    void orderByOverManyGroupsSortsThemAll() {
        Map<Long, Long> sums = new HashMap<>();
        for (Object[] row : lineitem) {
            sums.merge(number(row[0]), number(row[1]), Long::sum);
        }
        List<List<Object>> expected = sums.entrySet().stream()
                .sorted(Comparator.<Map.Entry<Long, Long>>comparingLong(Map.Entry::getValue).reversed()
                        .thenComparing(Map.Entry::getKey))
                .map(e -> List.<Object>of(e.getKey(), e.getValue())).toList();
        String sql = "SELECT l_orderkey, sum(l_suppkey) s FROM lineitem GROUP BY l_orderkey ORDER BY s DESC,"
                + " l_orderkey";
        assertThat(normalized(rows(sql + " LIMIT 10"))).isEqualTo(expected.subList(0, 10));
        assertThat(normalized(rows(sql + " LIMIT 500 OFFSET 20000"))).isEqualTo(expected.subList(20000, 20500));
        assertThat(normalized(rows(sql))).isEqualTo(expected);
    }

    private static List<List<Object>> normalized(List<List<Object>> rows) {
        return rows.stream().map(r -> List.<Object>of(number(r.get(0)), number(r.get(1)))).toList();
    }

    @Test
    void aBudgetedAggregationThatHardlyReducesConsolidatesItsHandedTablesAndStaysRight() {
        // Every (order, supplier) pair is about one row: local tables hand almost every row on. A 64 MiB budget
        // consolidates the handed tables every 131,072 groups instead of holding them all to the end.
        Map<List<Long>, Long> expected = new HashMap<>();
        for (Object[] row : lineitem) {
            expected.merge(List.of(number(row[0]), number(row[1])), number(row[2]), Long::sum);
        }
        List<List<Object>> actual;
        try (Session session = db.connect();
             QueryResult r = session.execute("SELECT l_orderkey, l_suppkey, sum(l_quantity) FROM lineitem"
                + " GROUP BY l_orderkey, l_suppkey", ExecutionOptions.DEFAULTS.withMemoryBudget(64L << 20))) {
            actual = r.toList();
        }
        assertThat(actual).hasSize(expected.size());
        for (List<Object> row : actual) {
            assertThat(((BigDecimal) row.get(2)).longValueExact())
                    .isEqualTo(expected.get(List.of(number(row.get(0)), number(row.get(1)))));
        }
    }

    @Test
    void theLargestLimitWithAnOffsetSkipsOnlyTheOffset() {
        long groups = lineitem.stream().map(r -> number(r[0])).distinct().count();
        assertThat(rows("SELECT l_orderkey, count(*) FROM lineitem GROUP BY l_orderkey ORDER BY l_orderkey"
                + " LIMIT 9223372036854775807 OFFSET 1")).hasSize((int) groups - 1);
        assertThat(rows("SELECT l_orderkey FROM lineitem ORDER BY l_orderkey LIMIT 9223372036854775807 OFFSET 3"))
                .hasSize(lineitem.size() - 3);
    }
}
