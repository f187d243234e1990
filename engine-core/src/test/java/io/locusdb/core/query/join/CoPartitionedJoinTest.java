package io.locusdb.core.query.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.exec.ExecutionOptions;
import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.exec.stealing.StealingPolicies;
import io.locusdb.core.query.scan.MaterializeJob;
import io.locusdb.core.query.scan.PartScanJob;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.query.pipeline.QueryRunner;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.TestStorage;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Joins of orders and lineitem, which TPC-H loads into one table group (RANGE on the order key, same bounds), on the
 * fake two-node topology with no stealing: the join on the order key runs per table-group part, every build and
 * probe task on its part's node, and answers what the same join across parts answers.
 */
class CoPartitionedJoinTest {
    private static final String TYPE_C = "SELECT count(*), sum(l_quantity) FROM orders JOIN lineitem"
            + " ON o_orderkey = l_orderkey WHERE l_quantity BETWEEN ? AND ?";
    private static LocusDB db;
    private static Session session;

    @BeforeAll
    static void load() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null)
                .withExecutor(b -> b.stealing(StealingPolicies.never())));
        session = db.connect();
        session.execute("LOAD TPCH SCALE 0.01 PARTS 2").close();
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
    void explainShowsTheJoinRunsPerTableGroupPart() {
        List<String> plan = rows("EXPLAIN " + TYPE_C.replace("?", "1")).stream().map(r -> (String) r.get(0))
                .toList();
        assertThat(plan).anyMatch(line -> line.contains("co-partitioned (table group tpch_orders)"));
        assertThat(plan).anyMatch(line -> line.contains("part 1:") && line.contains("node 1"));
    }

    @Test
    void everyBuildAndProbeTaskRunsOnItsPartsNode() {
        List<TaskRecord> tasks;
        long count;
        try (QueryResult r = session.execute("SELECT count(*) FROM orders JOIN lineitem ON o_orderkey = l_orderkey"
                + " WHERE o_orderpriority = '1-URGENT'")) {
            count = (Long) r.toList().getFirst().getFirst();
            tasks = r.tasks();
        }
        assertThat(count).isPositive();
        assertThat(tasks).extracting(TaskRecord::taskClass).contains(QueryRunner.JOIN_BUILD_TASK_CLASS,
                PartScanJob.TASK_CLASS, MaterializeJob.TASK_CLASS);
        assertThat(tasks).filteredOn(t -> Set.of(QueryRunner.JOIN_BUILD_TASK_CLASS, PartScanJob.TASK_CLASS,
                        MaterializeJob.TASK_CLASS).contains(t.taskClass()))
                .allSatisfy(t -> {
                    assertThat(t.ranOnNode()).as("%s", t).isEqualTo(t.homeNode());
                    assertThat(t.stolen()).isFalse();
                });
        assertThat(tasks).filteredOn(t -> t.taskClass().equals(QueryRunner.JOIN_BUILD_TASK_CLASS))
                .extracting(TaskRecord::homeNode).containsExactlyInAnyOrder(0, 1);
    }

    @Test
    void onlyTheColumnsTheQueryUsesAreDecoded() {
        List<String> plan = rows("EXPLAIN " + TYPE_C.replace("?", "1")).stream().map(r -> (String) r.get(0))
                .toList();
        assertThat(plan).filteredOn(line -> line.contains("phase 2")).allSatisfy(line ->
                assertThat(line).doesNotContain("l_comment", "o_comment"));
    }

    @Test
    void aHashTableOverTheQueryMemoryBudgetFailsTheQueryWith53200() {
        String join = "SELECT count(*) FROM lineitem a JOIN lineitem b ON a.l_partkey = b.l_partkey";
        assertThatThrownBy(() -> {
            try (QueryResult r = session.execute(join, ExecutionOptions.DEFAULTS.withMemoryBudget(256 * 1024))) {
                r.toList();
            }
        }).isInstanceOfSatisfying(LocusSqlException.class,
                e -> assertThat(e.state()).isEqualTo(SqlState.OUT_OF_MEMORY));
        assertThat(rows("SELECT count(*) FROM orders")).containsExactly(List.of(15_000L));
    }
}
