package io.locusdb.core.placer;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.TestQueries;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * The placer's scenario on a running database, with inserts and scans going on throughout ({@link
 * InsertAndScanLoad}): two tables busy on node 0 (one of them moves to a cold node), then one table busy alone on
 * its node (it is partitioned, half going to a cold node), then that table left idle (it is merged back). The busy
 * periods are held on the parts' utilization targets, as running tasks would hold them, so the scenario does not
 * depend on how fast this machine scans.
 */
public final class PlacerScenario {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String[] TABLES = {"a", "b", "c"};

    private final LocusDB db;
    private final UtilizationTracker tracker;

    public PlacerScenario(LocusDB db) {
        this.db = db;
        this.tracker = db.placer().tracker();
    }

    /**
     * Runs the scenario; the tables' rows are checked all along and at the end.
     *
     * @param insertPauseMillis pause of the inserters between batches
     * @param scansPerPhase     scans each load must finish before the first phase and while the table is split
     */
    public void run(int initialRows, int insertBatch, long insertPauseMillis, int scansPerPhase)
            throws InterruptedException {
        // Off until the first phase: setting up and the loads' first scans (minutes in an emulated guest) are not
        // what the scenario is about, and a placement change then would leave the phases other parts to act on.
        db.placer().setEnabled(false);
        try (Session s = db.connect()) {
            for (String table : TABLES) {
                s.execute("CREATE TABLE " + table + " (id BIGINT, v BIGINT)").close();
                StringBuilder sql = new StringBuilder("INSERT INTO " + table + " VALUES ");
                for (long id = 1; id <= initialRows; id++) {
                    sql.append(id == 1 ? "" : ", ").append('(').append(id).append(", ")
                            .append(InsertAndScanLoad.v(id)).append(')');
                }
                s.execute(sql.toString()).close();
                s.execute("ALTER TABLE " + table + " MERGE PARTS TO NODE 0").close();
            }
        }
        InsertAndScanLoad[] loads = new InsertAndScanLoad[TABLES.length];
        for (int t = 0; t < TABLES.length; t++) {
            loads[t] = new InsertAndScanLoad(db, TABLES[t], initialRows, insertBatch, insertPauseMillis, 1);
        }
        try {
            for (InsertAndScanLoad load : loads) {
                load.awaitMoreScans(scansPerPhase);
            }
            // Two busy tables on node 0: one of them moves.
            UtilizationTracker.PartUsage a = tracker.target(db.catalog().table("a"), 0, 1);
            UtilizationTracker.PartUsage b = tracker.target(db.catalog().table("b"), 0, 1);
            a.adjust(1, 1_000_000_000L);
            b.adjust(1, 1_000_000_000L);
            db.placer().setEnabled(true);
            PlacerEvent move = await(e -> e.action() == PlacerEvent.Action.MOVE
                    && (e.owner().equals("a") || e.owner().equals("b")), loads);
            assertThat(move.fromNode()).isZero();
            assertThat(move.toNode()).isNotZero();
            a.adjust(-1, -1_000_000_000L);
            b.adjust(-1, -1_000_000_000L);

            // One busy table alone on its node: moving it would only move the imbalance, so it is split.
            UtilizationTracker.PartUsage c = tracker.target(db.catalog().table("c"), 0, 1);
            c.adjust(1, 1_000_000_000L);
            PlacerEvent partition = await(e -> e.action() == PlacerEvent.Action.PARTITION && e.owner().equals("c"),
                    loads);
            assertThat(partition.partsAfter()).isEqualTo(2);
            assertThat(partition.toNode()).isNotEqualTo(partition.fromNode());
            c.adjust(-1, -1_000_000_000L);
            loads[2].awaitMoreScans(scansPerPhase);

            // Idle again (its load stops): the placer merges what it split.
            Throwable cFailure = loads[2].stop();
            assertThat(cFailure).as("inserts and scans on c while it was split").isNull();
            await(e -> e.action() == PlacerEvent.Action.MERGE && e.owner().equals("c"), loads);
        } catch (Throwable t) {
            for (InsertAndScanLoad load : loads) {
                Throwable failure = load.stop();
                if (failure != null && failure != t) {
                    t.addSuppressed(failure);
                }
            }
            throw t;
        }
        {
            for (InsertAndScanLoad load : loads) {
                Throwable failure = load.stop();
                assertThat(failure).as("inserts and scans on %s while the placer worked", load.table()).isNull();
                assertThat(load.scans()).as("scans of %s", load.table()).isPositive();
                List<Object> row = TestQueries.rows(db, "SELECT count(*), sum(id) FROM "
                        + load.table()).getFirst();
                long m = load.inserted();
                assertThat(row).as("rows of %s at the end", load.table()).containsExactly(m, m * (m + 1) / 2);
            }
        }
    }

    private PlacerEvent await(Predicate<PlacerEvent> wanted, InsertAndScanLoad[] loads) throws InterruptedException {
        PlacerEvent[] found = new PlacerEvent[1];
        boolean ok = eventually(() -> {
            for (InsertAndScanLoad load : loads) {
                if (load.failure() != null) {
                    return true;
                }
            }
            for (PlacerEvent e : db.placer().events().events()) {
                if (e.source().equals(PlacerEvent.PLACER) && e.succeeded() && wanted.test(e)) {
                    found[0] = e;
                    return true;
                }
            }
            return false;
        });
        for (InsertAndScanLoad load : loads) {
            assertThat(load.failure()).as("load on %s", load.table()).isNull();
        }
        assertThat(ok && found[0] != null).as("a placer event within %s; events: %s", WAIT,
                db.placer().events().events()).isTrue();
        return found[0];
    }

    private static boolean eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(20);
        }
        return condition.getAsBoolean();
    }
}
