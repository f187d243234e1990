package io.locusdb.core.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An ad-hoc statement sent again reuses its plan, and no change to the catalog lets a plan outlive what it was made
 * for.
 */
class PlanCacheTest {
    private LocusDB db;
    private Session session;

    @BeforeEach
    void open() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null)
                .withExecutor(b -> b.pinWorkers(false)));
        session = db.connect();
        run("CREATE TABLE t (a INTEGER, b VARCHAR(5)) PARTITION BY HASH(a) PARTITIONS 2");
        run("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')");
    }

    @AfterEach
    void close() {
        session.close();
        db.close();
    }

    private String run(String sql) {
        try (QueryResult r = session.execute(sql)) {
            return r.hasRows() ? r.toList().toString() : Long.toString(r.updateCount());
        }
    }

    private long hits() {
        return db.planCacheHitsAndMisses()[0];
    }

    @Test
    void aRepeatedStatementIsPlannedOnceAndAnswersTheSame() {
        String q = "SELECT b, sum(a) FROM t GROUP BY b ORDER BY b";
        String first = run(q);
        long before = hits();
        assertThat(run(q)).isEqualTo(first);
        assertThat(run("  " + q + "\n")).isEqualTo(first);
        assertThat(hits()).isEqualTo(before + 2);
    }

    @Test
    void insertsAreSeenThroughACachedPlan() {
        String q = "SELECT count(*) FROM t";
        assertThat(run(q)).isEqualTo("[[3]]");
        run("INSERT INTO t VALUES (4, 'w')");
        long before = hits();
        assertThat(run(q)).isEqualTo("[[4]]");
        assertThat(hits()).isEqualTo(before + 1);
    }

    @Test
    void ddlEndsEveryCachedPlan() {
        String q = "SELECT count(*) FROM t";
        run(q);
        run("CREATE TABLE other (x INTEGER)");
        long before = hits();
        run(q);
        assertThat(hits()).isEqualTo(before);
    }

    @Test
    void aDroppedAndRecreatedTableIsPlannedAfresh() {
        String q = "SELECT * FROM t ORDER BY 1";
        assertThat(run(q)).isEqualTo("[[1, x], [2, y], [3, z]]");
        run("DROP TABLE t");
        run("CREATE TABLE t (c VARCHAR(5), d INTEGER, e INTEGER)");
        run("INSERT INTO t VALUES ('q', 7, 8)");
        long before = hits();
        assertThat(run(q)).isEqualTo("[[q, 7, 8]]");
        assertThat(hits()).isEqualTo(before);
    }

    @Test
    void aPlacementChangeEndsTheTablesPlans() {
        String q = "SELECT sum(a) FROM t";
        run(q);
        int node = db.catalog().table("t").version().parts().get(0).homeNode();
        run("ALTER TABLE t MOVE PART 0 TO NODE " + (1 - node));
        long before = hits();
        assertThat(run(q)).isEqualTo("[[6]]");
        assertThat(hits()).isEqualTo(before);
        assertThat(run(q)).isEqualTo("[[6]]");
        assertThat(hits()).isEqualTo(before + 1);
    }

    @Test
    void concurrentCopiesOfAStatementEachGetAPlanOfTheirOwn() throws Exception {
        String q = "SELECT a, b FROM t WHERE a >= 2 ORDER BY a";
        String expected = run(q);
        Thread[] threads = new Thread[4];
        String[] answers = new String[threads.length * 25];
        for (int i = 0; i < threads.length; i++) {
            int thread = i;
            threads[i] = Thread.ofPlatform().start(() -> {
                try (Session s = db.connect()) {
                    for (int k = 0; k < 25; k++) {
                        try (QueryResult r = s.execute(q)) {
                            answers[thread * 25 + k] = r.toList().toString();
                        }
                    }
                }
            });
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(answers).containsOnly(expected);
    }
}
