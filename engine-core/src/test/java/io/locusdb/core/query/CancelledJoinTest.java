package io.locusdb.core.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A cancelled statement stops its tasks, not only its wait: a join without keys, whose every probe batch stands for
 * millions of row pairs, gives its workers back soon after the statement is cancelled.
 */
class CancelledJoinTest {
    @Test
    void aJoinWithoutKeysStopsWorkingWhenItsStatementIsCancelled() throws Exception {
        try (LocusDB db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()))) {
            try (Session s = db.connect()) {
                s.execute("CREATE TABLE k (x BIGINT NOT NULL)").close();
                s.execute("INSERT INTO k SELECT g FROM generate_series(1, 3000) AS g").close();
            }
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread statement = Thread.ofPlatform().start(() -> {
                try (Session s = db.connect();
                     QueryResult r = s.execute("SELECT count(*) FROM k a, k b, k c WHERE a.x + b.x + c.x > 0")) {
                    r.close();
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            awaitActive(db, true);
            statement.interrupt();
            statement.join(30_000);
            assertThat(statement.isAlive()).isFalse();
            assertThat(failure.get()).isNotNull();
            // 27 billion pairs would take hours: the workers idle again only if the tasks stopped.
            assertThat(awaitActive(db, false)).as("workers idle after the cancel").isTrue();
        }
    }

    /** Waits up to 20 s until some worker is busy ({@code busy}) or none is; whether that happened. */
    private static boolean awaitActive(LocusDB db, boolean busy) throws InterruptedException {
        for (int i = 0; i < 400; i++) {
            if ((db.executor().activeConcurrency() > 0) == busy) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }
}
