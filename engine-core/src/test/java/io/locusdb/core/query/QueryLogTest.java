package io.locusdb.core.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.storage.TestStorage;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every statement leaves an entry saying how it got its plan and where its time went. */
class QueryLogTest {
    private LocusDB db;
    private Session session;

    @BeforeEach
    void open() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null)
                .withExecutor(b -> b.pinWorkers(false)));
        session = db.connect();
    }

    @AfterEach
    void close() {
        session.close();
        db.close();
    }

    private List<List<Object>> rows(String sql) {
        try (QueryResult r = session.execute(sql)) {
            return r.toList();
        }
    }

    private List<QueryLog.Entry> entries() {
        return db.queryLog().entries();
    }

    @Test
    void anAdHocQueryIsPlannedOnceThenTakenFromTheCacheAndAPreparedOneSaysSo() {
        rows("CREATE TABLE t (a INTEGER, b VARCHAR(5))");
        rows("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')");
        String query = "SELECT a, b FROM t WHERE a >= 2";
        rows(query);
        rows(query);
        PreparedQuery prepared = session.prepare("SELECT count(*) FROM t WHERE a > ?");
        try (QueryResult r = prepared.set(1, 0).execute()) {
            r.toList();
        }

        List<QueryLog.Entry> log = entries();
        assertThat(log).extracting(QueryLog.Entry::source).containsExactly(QueryLog.PlanSource.STATEMENT,
                QueryLog.PlanSource.STATEMENT, QueryLog.PlanSource.PLANNED, QueryLog.PlanSource.CACHED,
                QueryLog.PlanSource.PREPARED);
        QueryLog.Entry planned = log.get(2);
        assertThat(planned.sql()).isEqualTo(query);
        assertThat(planned.rows()).isEqualTo(2);
        assertThat(planned.planning().parseNanos()).isPositive();
        assertThat(planned.planning().validateNanos()).isPositive();
        assertThat(planned.planning().rewriteNanos()).isPositive();
        assertThat(planned.physicalNanos()).isPositive();
        assertThat(planned.runNanos()).isPositive();
        assertThat(log.get(3).planning().totalNanos()).as("a cached plan skips the front end").isZero();
        assertThat(log.get(1).rows()).as("the insert's update count").isEqualTo(3);
        assertThat(log.get(4).rows()).isEqualTo(1);
        assertThat(log).extracting(QueryLog.Entry::error).containsOnlyNulls();
        assertThat(log).extracting(QueryLog.Entry::sequence).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void failuresAreLoggedWithTheirSqlState() {
        assertThatThrownBy(() -> rows("SELECT nope FROM nowhere")).isInstanceOf(LocusSqlException.class);
        assertThat(entries()).singleElement().satisfies(e -> {
            assertThat(e.error()).startsWith("42");
            assertThat(e.rows()).isZero();
        });
    }

    @Test
    void theLogIsATableAndAResultClosedEarlyCountsTheRowsItDelivered() {
        rows("CREATE TABLE t (a INTEGER)");
        rows("INSERT INTO t VALUES (1), (2), (3)");
        try (QueryResult r = session.execute("SELECT a FROM t")) {
            assertThat(r.next()).isTrue();
        }
        List<List<Object>> logged = rows("SELECT statement, plan, row_count, planning_ms >= 0, total_ms >= run_ms"
                + " FROM locus_query_log ORDER BY seq");
        assertThat(logged).containsExactly(
                List.of("CREATE TABLE t (a INTEGER)", "statement", 0L, true, true),
                List.of("INSERT INTO t VALUES (1), (2), (3)", "statement", 3L, true, true),
                List.of("SELECT a FROM t", "planned", 3L, true, true));
    }
}
