package io.locusdb.core.query.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.exec.stealing.StealingPolicies;
import io.locusdb.core.query.scan.MaterializeJob;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.query.pipeline.QueryRunner;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Multi-way joins run as one pipeline: the scan at the bottom of the probe chain probes every hash table on the way
 * up and aggregates locally per task, so no intermediate join result is collected; outer joins' unmatched build rows
 * still pass through the joins above them.
 */
class JoinPipelineTest {
    private static LocusDB db;
    private static Session session;

    @BeforeAll
    static void load() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null)
                .withExecutor(b -> b.stealing(StealingPolicies.never())));
        session = db.connect();
        session.execute("LOAD TPCH SCALE 0.01 PARTS 2").close();
        session.execute("CREATE TABLE pa (k INTEGER, v VARCHAR)").close();
        session.execute("CREATE TABLE pb (k INTEGER, g INTEGER)").close();
        session.execute("CREATE TABLE pc (g INTEGER, label VARCHAR)").close();
        session.execute("INSERT INTO pa VALUES (1, 'one'), (2, 'two'), (2, 'deux'), (3, 'three'), (NULL, 'none')")
                .close();
        session.execute("INSERT INTO pb VALUES (2, 20), (3, 30), (4, 40), (4, 41), (NULL, 50)").close();
        session.execute("INSERT INTO pc VALUES (20, 'twenty'), (40, 'forty'), (60, 'sixty')").close();
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

    @Test
    void aFourWayJoinUnderAGroupByCollectsNoIntermediateResult() {
        String q5 = "SELECT n_name, sum(l_extendedprice * (1 - l_discount)) AS revenue"
                + " FROM customer, orders, lineitem, nation"
                + " WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND c_nationkey = n_nationkey"
                + " AND o_orderdate >= DATE '1994-01-01' AND o_orderdate < DATE '1995-01-01'"
                + " GROUP BY n_name ORDER BY revenue DESC";
        List<TaskRecord> tasks;
        List<List<Object>> result;
        try (QueryResult r = session.execute(q5)) {
            result = r.toList();
            tasks = r.tasks();
        }
        assertThat(result).hasSizeGreaterThan(5);
        assertThat(tasks).extracting(TaskRecord::taskClass)
                .contains(MaterializeJob.TASK_CLASS, QueryRunner.MERGE_TASK_CLASS)
                .doesNotContain(QueryRunner.JOIN_PROBE_TASK_CLASS);
        // Every customer has a nation: the groups add up to the revenue of the year's orders.
        double total = result.stream().mapToDouble(row -> ((Number) row.get(1)).doubleValue()).sum();
        double year = ((Number) rows("SELECT sum(l_extendedprice * (1 - l_discount)) FROM orders JOIN lineitem"
                + " ON l_orderkey = o_orderkey"
                + " WHERE o_orderdate >= DATE '1994-01-01' AND o_orderdate < DATE '1995-01-01'")
                .getFirst().getFirst()).doubleValue();
        assertThat(total).isCloseTo(year, within(0.01));
    }

    @Test
    void explainSaysTheProbeSideIsPipelined() {
        List<String> plan = rows("EXPLAIN SELECT c_mktsegment, count(*) FROM customer, orders, lineitem"
                + " WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND c_acctbal > 9000"
                + " GROUP BY c_mktsegment").stream().map(r -> (String) r.get(0)).toList();
        assertThat(plan).anyMatch(line -> line.contains("pipelined"));
        assertThat(plan).anyMatch(line -> line.contains("Aggregate [local hash tables per pipeline task"));
    }

    @Test
    void unmatchedBuildRowsOfAnOuterJoinPassThroughTheJoinsAbove() {
        assertThat(rows("SELECT pa.v, pb.g, pc.label FROM pa FULL JOIN pb ON pa.k = pb.k"
                + " LEFT JOIN pc ON pb.g = pc.g ORDER BY pa.v NULLS LAST, pb.g NULLS LAST")).containsExactly(
                List.of("deux", 20, "twenty"),
                nullable("none", null, null),
                nullable("one", null, null),
                nullable("three", 30, null),
                List.of("two", 20, "twenty"),
                nullable(null, 40, "forty"),
                nullable(null, 41, null),
                nullable(null, 50, null));
    }

    @Test
    void aGroupByOverAnOuterJoinChainCountsTheNullExtendedRows() {
        assertThat(rows("SELECT pc.label, count(*), count(pa.v) FROM pa RIGHT JOIN pb ON pa.k = pb.k"
                + " FULL JOIN pc ON pb.g = pc.g GROUP BY pc.label ORDER BY pc.label NULLS FIRST")).containsExactly(
                nullable(null, 3L, 1L),
                List.of("forty", 1L, 0L),
                List.of("sixty", 1L, 0L),
                List.of("twenty", 2L, 2L));
    }

    @Test
    void aSmallBuildSideIsCopiedToEveryNodeAndEachProbeTaskReadsItsNodesCopy() {
        String sql = "SELECT count(*), sum(p_size) FROM lineitem JOIN part ON l_partkey = p_partkey";
        List<String> plan = rows("EXPLAIN " + sql).stream().map(r -> (String) r.get(0)).toList();
        assertThat(plan).anyMatch(line -> line.contains("broadcast per node") && line.contains("memory of node(s) 1"));
        long segmentsBefore = db.memory().usage().liveSegments();
        List<TaskRecord> tasks;
        List<List<Object>> result;
        try (QueryResult r = session.execute(sql)) {
            result = r.toList();
            tasks = r.tasks();
        }
        assertThat(result.getFirst().getFirst()).isEqualTo(rows("SELECT count(*) FROM lineitem").getFirst()
                .getFirst());
        assertThat(tasks).filteredOn(t -> t.taskClass().equals(QueryRunner.JOIN_BUILD_TASK_CLASS))
                .extracting(TaskRecord::homeNode).containsExactlyInAnyOrder(0, 1);
        assertThat(tasks).filteredOn(t -> t.taskClass().equals(QueryRunner.JOIN_BUILD_TASK_CLASS))
                .allSatisfy(t -> assertThat(t.ranOnNode()).isEqualTo(t.homeNode()));
        // The copies' off-heap memory goes back when the query ends.
        assertThat(db.memory().usage().liveSegments()).isEqualTo(segmentsBefore);
    }

    @Test
    void aBuildSideTooLargeToCopyIsPartitionedByHashAcrossTheNodes() {
        String sql = "SELECT count(*), sum(a.o_custkey - b.o_custkey) FROM orders a JOIN orders b"
                + " ON a.o_orderkey = b.o_orderkey";
        List<String> plan = rows("EXPLAIN " + sql).stream().map(r -> (String) r.get(0)).toList();
        assertThat(plan).anyMatch(line -> line.contains("partitioned by hash across nodes 0, 1"));
        List<TaskRecord> tasks;
        List<List<Object>> result;
        try (QueryResult r = session.execute(sql)) {
            result = r.toList();
            tasks = r.tasks();
        }
        assertThat(result).containsExactly(List.of(15_000L, 0L));
        assertThat(tasks).filteredOn(t -> t.taskClass().equals(QueryRunner.JOIN_BUILD_TASK_CLASS))
                .extracting(TaskRecord::homeNode).containsExactlyInAnyOrder(0, 1);
        assertThat(tasks).filteredOn(t -> t.taskClass().equals(QueryRunner.JOIN_BUILD_TASK_CLASS))
                .allSatisfy(t -> assertThat(t.ranOnNode()).isEqualTo(t.homeNode()));
    }

    @Test
    void inputEstimatesComeFromThePartsDictionaries() {
        long actual = (Long) rows("SELECT count(*) FROM lineitem WHERE l_shipdate < DATE '1993-01-01'")
                .getFirst().getFirst();
        String join = rows("EXPLAIN SELECT count(*) FROM lineitem JOIN part ON l_partkey = p_partkey"
                + " WHERE l_shipdate < DATE '1993-01-01'").stream().map(r -> (String) r.get(0))
                .filter(line -> line.contains("HashJoin")).findFirst().orElseThrow();
        Matcher estimate = Pattern.compile("estimated rows: left ([0-9,]+), right ([0-9,]+)").matcher(join);
        assertThat(estimate.find()).as(join).isTrue();
        long left = Long.parseLong(estimate.group(1).replace(",", ""));
        long right = Long.parseLong(estimate.group(2).replace(",", ""));
        // Shipping dates spread evenly over the dictionary: the share of IDs below the bound is the share of rows.
        assertThat((double) left).isCloseTo(actual, within(actual * 0.2));
        assertThat(right).isEqualTo(2_000L);
    }

    private static List<Object> nullable(Object... values) {
        return Arrays.asList(values);
    }
}
