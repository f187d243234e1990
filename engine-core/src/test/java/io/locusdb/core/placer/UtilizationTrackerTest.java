package io.locusdb.core.placer;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.table.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The histories of a database's parts, table-group parts and nodes, sampled by hand (the service's own refreshers
 * are set to a period no test reaches).
 */
class UtilizationTrackerTest {
    private static final long HOUR_MILLIS = 3_600_000;
    private LocusDB db;
    private UtilizationTracker tracker;

    @BeforeEach
    void open() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null)
                .withPlacer(PlacerSettings.DEFAULT.withEnabled(false).withPeriod(HOUR_MILLIS, HOUR_MILLIS)));
        tracker = db.placer().tracker();
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE t (k BIGINT, v INTEGER) PARTITION BY HASH(k) PARTITIONS 2").close();
            s.execute("INSERT INTO t VALUES (1, 1), (2, 2), (3, 3), (4, 4)").close();
            s.execute("CREATE TABLE GROUP g").close();
            s.execute("CREATE TABLE g1 (k BIGINT) PARTITION BY HASH(k) PARTITIONS 2 IN GROUP g").close();
            s.execute("CREATE TABLE g2 (k BIGINT) PARTITION BY HASH(k) PARTITIONS 2 IN GROUP g").close();
        }
    }

    @AfterEach
    void close() {
        db.close();
    }

    private void sampleAll(long micros) {
        for (int n = 0; n < tracker.nodes(); n++) {
            tracker.sampleNode(n, micros);
        }
    }

    @Test
    void nodeHistoriesAreTheSumOfTheirUnitsAsTheRefresherSamplesThem() {
        Table t = db.catalog().table("t");
        tracker.target(t, 0, 2).adjust(1, 1_000);
        tracker.target(t, 1, 2).adjust(2, 3_000);
        tracker.target(db.catalog().table("g1"), 1, 2).adjust(1, 500);
        sampleAll(1_000_000);

        assertThat(tracker.usage("table t", 0, 2).threads().recentAverage()).isEqualTo(1);
        assertThat(tracker.nodeThreads(0).recentAverage()).isEqualTo(1);
        assertThat(tracker.nodeThreads(1).recentAverage()).as("t part 1 and the group's part 1").isEqualTo(3);
        assertThat(tracker.nodeMemory(1).recentAverage()).isEqualTo(3_500);
    }

    @Test
    void tablesOfAGroupAreAccountedToTheGroupPart() {
        tracker.target(db.catalog().table("g1"), 0, 2).adjust(1, 100);
        tracker.target(db.catalog().table("g2"), 0, 2).adjust(1, 100);
        sampleAll(1_000_000);

        assertThat(tracker.placementUnits()).filteredOn(u -> u.owner().equals("g") && u.part() == 0)
                .singleElement().satisfies(u -> {
                    assertThat(u.group()).isTrue();
                    assertThat(u.threads().current()).isEqualTo(2);
                    assertThat(u.parts()).isEqualTo(2);
                });
        assertThat(tracker.placementUnits()).noneMatch(u -> u.owner().equals("g1") || u.owner().equals("g2"));
    }

    @Test
    void aMovedPartKeepsItsHistoryAndARepartitionedTableStartsAnew() {
        Table t = db.catalog().table("t");
        tracker.target(t, 1, 2).adjust(1, 100);
        sampleAll(1_000_000);
        try (Session s = db.connect()) {
            s.execute("ALTER TABLE t MOVE PART 1 TO NODE 0").close();
        }
        sampleAll(1_100_000);
        UtilizationHistory moved = tracker.usage("table t", 1, 2).threads();
        assertThat(moved.samples()).isEqualTo(2);
        assertThat(tracker.nodeThreads(0).average(0)).as("the last sample: the part is on node 0 now").isEqualTo(1);

        try (Session s = db.connect()) {
            s.execute("ALTER TABLE t PARTITION INTO 4 PARTS").close();
        }
        sampleAll(1_200_000);
        assertThat(tracker.usage("table t", 1, 4).threads().samples()).isEqualTo(1);
        assertThat(tracker.usage("table t", 1, 4).threads().current()).isZero();
    }

    @Test
    void droppedTablesAreForgotten() {
        tracker.target(db.catalog().table("t"), 0, 2).adjust(1, 100);
        try (Session s = db.connect()) {
            s.execute("DROP TABLE t").close();
        }
        sampleAll(1_000_000);
        assertThat(tracker.placementUnits()).noneMatch(u -> u.owner().equals("t"));
        assertThat(tracker.nodeThreads(0).recentAverage() + tracker.nodeThreads(1).recentAverage()).isZero();
    }
}
