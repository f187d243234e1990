package io.locusdb.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An embedded database runs the delta merge on its own: inserted rows end up in the main parts. */
class BackgroundDeltaMergeTest {
    @Test
    void insertedRowsAreMergedIntoTheMainPartsWhileQueriesSeeEveryRow() throws InterruptedException {
        LocusConfig config = LocusConfig.of(TestStorage.twoNodes())
                .withDeltaMerge(new LocusConfig.DeltaMerge(10, 0.0, 20));
        try (LocusDB db = LocusDB.open(config); Session s = db.connect()) {
            try (QueryResult r = s.execute("CREATE TABLE m (k BIGINT, v VARCHAR) PARTITION BY HASH(k) PARTITIONS 2")) {
                r.updateCount();
            }
            StringBuilder insert = new StringBuilder("INSERT INTO m VALUES ");
            for (int k = 1; k <= 200; k++) {
                insert.append(k == 1 ? "" : ", ").append("(").append(k).append(", 'v").append(k).append("')");
            }
            try (QueryResult r = s.execute(insert.toString())) {
                assertThat(r.updateCount()).isEqualTo(200);
            }
            Table table = db.catalog().find("m").orElseThrow();
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (mainRows(table) < 200 && System.nanoTime() < deadline) {
                assertThat(TestQueries.rows(db, "SELECT count(*), sum(k) FROM m"))
                        .as("every row visible while the merge runs").containsExactly(List.of(200L, 20_100L));
                Thread.sleep(20);
            }
            assertThat(mainRows(table)).isEqualTo(200);
            assertThat(db.deltaMerges()).isGreaterThanOrEqualTo(2);
            assertThat(TestQueries.rows(db, "SELECT count(*), sum(k) FROM m")).containsExactly(List.of(200L, 20_100L));
        }
    }

    @Test
    void theMergeCanBeTurnedOff() {
        try (LocusDB db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null))) {
            assertThat(db.config().deltaMerge()).isNull();
            assertThat(db.deltaMerges()).isZero();
        }
    }

    private static long mainRows(Table table) {
        return table.version().parts().stream().mapToLong(TablePart::rows).sum();
    }
}
