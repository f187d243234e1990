package io.locusdb.core;

import io.locusdb.core.exec.ExecutionOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.storage.TestStorage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A query's operators charge what they hold to its memory budget; going over fails the query with 53200. */
class QueryMemoryBudgetTest {
    private static LocusDB db;

    @BeforeAll
    static void open() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withExecutor(b -> b.pinWorkers(false)));
        try (Session s = db.connect()) {
            s.execute("LOAD TPCH SCALE 0.01 PARTS 2");
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static long count(Session s, String sql, ExecutionOptions options) {
        try (QueryResult r = s.execute(sql, options)) {
            return r.toList().size();
        }
    }

    @Test
    void aGroupByWithManyGroupsOverItsBudgetFailsWithOutOfMemory() {
        try (Session s = db.connect()) {
            String manyGroups = "SELECT l_orderkey, sum(l_quantity) FROM lineitem GROUP BY l_orderkey";
            assertThatThrownBy(() -> count(s, manyGroups, ExecutionOptions.DEFAULTS.withMemoryBudget(64 * 1024)))
                    .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                        assertThat(e.sqlState()).isEqualTo("53200");
                        assertThat(e.getMessage()).contains("memory budget");
                    });
            // The same query within a generous budget, and the session still works after the failure.
            assertThat(count(s, manyGroups, ExecutionOptions.DEFAULTS.withMemoryBudget(256L << 20)))
                    .isEqualTo(15_000);
        }
    }

    @Test
    void aSortedScanHoldsItsRowsAndIsChargedForThem() {
        try (Session s = db.connect()) {
            String sorted = "SELECT l_comment, l_orderkey FROM lineitem ORDER BY l_comment";
            assertThatThrownBy(() -> count(s, sorted, ExecutionOptions.DEFAULTS.withMemoryBudget(100_000)))
                    .isInstanceOfSatisfying(LocusSqlException.class, e -> assertThat(e.sqlState())
                            .isEqualTo("53200"));
            assertThat(count(s, sorted, ExecutionOptions.DEFAULTS.withMemoryBudget(512L << 20)))
                    .isEqualTo(count(s, "SELECT l_orderkey FROM lineitem", ExecutionOptions.DEFAULTS));
        }
    }

    @Test
    void smallAggregatesFitInASmallBudget() {
        try (Session s = db.connect()) {
            assertThat(count(s, "SELECT l_returnflag, l_linestatus, count(*) FROM lineitem GROUP BY l_returnflag,"
                    + " l_linestatus", ExecutionOptions.DEFAULTS.withMemoryBudget(1 << 20))).isEqualTo(4);
        }
    }
}
