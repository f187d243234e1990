package io.locusdb.core.placer;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.TestQueries;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.table.TablePart;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The placer running in a database on the fake two-node topology (one hardware thread per node): utilization is
 * held on the parts' targets by hand, as tasks would, so the placer's reaction can be checked without timing real
 * scans.
 */
class PlacerServiceTest {

    private static LocusDB open(boolean placing) {
        return LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null)
                .withPlacer(PlacerSettings.DEFAULT.withEnabled(placing).withPeriod(100, 10)));
    }

    private static void create(Session s, String table, int rows) {
        s.execute("CREATE TABLE " + table + " (k BIGINT, v INTEGER)").close();
        StringBuilder insert = new StringBuilder("INSERT INTO " + table + " VALUES ");
        for (int k = 1; k <= rows; k++) {
            insert.append(k == 1 ? "" : ", ").append("(").append(k).append(", ").append(k % 7).append(")");
        }
        s.execute(insert.toString()).close();
        s.execute("ALTER TABLE " + table + " MOVE TO NODE 0").close();
    }

    private static List<Integer> nodes(LocusDB db, String table) {
        return db.catalog().table(table).version().parts().stream().map(TablePart::homeNode).toList();
    }

    private static boolean eventually(Duration timeout, BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(10);
        }
        return condition.getAsBoolean();
    }

    @Test
    void twoBusyTablesOnOneSaturatedNode_oneMovesToTheIdleNode() throws InterruptedException {
        try (LocusDB db = open(true); Session s = db.connect()) {
            create(s, "a", 2000);
            create(s, "b", 2000);
            List<List<Object>> before = TestQueries.rows(db, "SELECT count(*), sum(k), sum(v) FROM a");
            UtilizationTracker tracker = db.placer().tracker();
            tracker.target(db.catalog().table("a"), 0, 1).adjust(1, 1_000_000_000L);
            tracker.target(db.catalog().table("b"), 0, 1).adjust(1, 1_000_000_000L);

            assertThat(eventually(Duration.ofSeconds(20), () -> db.placer().events().events().stream()
                    .anyMatch(e -> e.source().equals(PlacerEvent.PLACER)))).as("a placer event").isTrue();

            PlacerEvent event = db.placer().events().events().stream()
                    .filter(e -> e.source().equals(PlacerEvent.PLACER)).findFirst().orElseThrow();
            assertThat(event.action()).as("a move does, so no partition").isEqualTo(PlacerEvent.Action.MOVE);
            assertThat(event.fromNode()).isZero();
            assertThat(event.toNode()).isEqualTo(1);
            assertThat(event.succeeded()).isTrue();
            assertThat(event.reason()).contains("imbalance");
            assertThat(nodes(db, event.owner())).containsExactly(1);
            String other = event.owner().equals("a") ? "b" : "a";
            assertThat(nodes(db, other)).containsExactly(0);
            assertThat(TestQueries.rows(db, "SELECT count(*), sum(k), sum(v) FROM a")).isEqualTo(before);
        }
    }

    @Test
    void oneBusyTableAloneIsPartitionedAcrossBothNodes_andMergedBackWhenIdle() throws InterruptedException {
        try (LocusDB db = open(true); Session s = db.connect()) {
            create(s, "hot", 5000);
            UtilizationTracker tracker = db.placer().tracker();
            // The node's one thread busy with the only unit: moving it would only move the imbalance, splitting
            // it halves it. Nothing uses the new parts afterwards, so the placer merges them back.
            tracker.target(db.catalog().table("hot"), 0, 1).adjust(1, 2_000_000_000L);

            assertThat(eventually(Duration.ofSeconds(20), () -> db.placer().events().events().stream()
                    .anyMatch(e -> e.action() == PlacerEvent.Action.MERGE))).as("partitioned, then merged").isTrue();
            List<PlacerEvent> events = db.placer().events().events().stream()
                    .filter(e -> e.source().equals(PlacerEvent.PLACER)).toList();
            assertThat(events).extracting(PlacerEvent::action).startsWith(PlacerEvent.Action.PARTITION,
                    PlacerEvent.Action.MERGE);
            assertThat(events.getFirst()).satisfies(e -> {
                assertThat(e.partsBefore()).isEqualTo(1);
                assertThat(e.partsAfter()).isEqualTo(2);
                assertThat(e.fromNode()).isZero();
                assertThat(e.toNode()).isEqualTo(1);
                assertThat(e.succeeded()).isTrue();
            });
            assertThat(nodes(db, "hot")).hasSize(1);
            assertThat(TestQueries.rows(db, "SELECT count(*), sum(k) FROM hot"))
                    .containsExactly(List.of(5000L, 12_502_500L));
        }
    }

    @Test
    void withPlacingOffTheHistoriesAreKeptButNothingMoves() throws InterruptedException {
        try (LocusDB db = open(false); Session s = db.connect()) {
            create(s, "a", 100);
            create(s, "b", 100);
            UtilizationTracker tracker = db.placer().tracker();
            tracker.target(db.catalog().table("a"), 0, 1).adjust(1, 1_000_000_000L);
            tracker.target(db.catalog().table("b"), 0, 1).adjust(1, 1_000_000_000L);
            assertThat(eventually(Duration.ofSeconds(5), () -> tracker.nodeThreads(0).recentAverage() > 1.5))
                    .isTrue();
            Thread.sleep(500);
            assertThat(db.placer().periods()).isPositive();
            assertThat(db.placer().events().events()).noneMatch(e -> e.source().equals(PlacerEvent.PLACER));
            assertThat(nodes(db, "a")).containsExactly(0);
            assertThat(nodes(db, "b")).containsExactly(0);
        }
    }

    @Test
    void aUserDeclaredPartitioningIsNeverMergedByThePlacer() throws InterruptedException {
        try (LocusDB db = open(true); Session s = db.connect()) {
            s.execute("CREATE TABLE p (k BIGINT) PARTITION BY HASH(k) PARTITIONS 2").close();
            s.execute("INSERT INTO p VALUES (1), (2), (3)").close();
            Thread.sleep(600);
            assertThat(nodes(db, "p")).hasSize(2);
        }
    }
}
