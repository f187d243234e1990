package io.locusdb.core.durable;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.placer.PlacementActions;
import io.locusdb.core.placer.PlacerEvent;
import io.locusdb.core.placer.PlacerEventLog;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.placement.TablePlacementOps;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Placement changes are in the write-ahead log: after a crash that came before the checkpoint each change asks for,
 * a restart redoes them, so parts come back on the nodes they had and with the parts they had.
 */
class PlacementLogTest {
    @TempDir
    Path dir;

    private static LocusDB open(Path directory) {
        return LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null)
                .withExecutor(b -> b.pinWorkers(false)).withDurability(Durability.in(directory)));
    }

    private static String query(LocusDB db, String sql) {
        try (Session s = db.connect(); QueryResult r = s.execute(sql)) {
            return r.toList().toString();
        }
    }

    private static void execute(LocusDB db, String sql) {
        try (Session s = db.connect(); QueryResult r = s.execute(sql)) {
            r.updateCount();
        }
    }

    private static List<Integer> nodes(Table table) {
        return table.version().parts().stream().map(TablePart::homeNode).toList();
    }

    /**
     * Runs {@code changes} on the directory's tables with nothing but the log to record them (no checkpoint is
     * asked for), and returns a crash image taken before the store closes.
     */
    private Path crashAfter(Path data, BiConsumer<Catalog, PlacementActions> changes) throws IOException {
        Catalog catalog = TestStorage.catalog();
        DurableStore store = DurableStore.open(Durability.in(data), catalog);
        try {
            changes.accept(catalog, new PlacementActions(catalog, new TablePlacementOps(catalog.memory(), 2),
                    new PlacerEventLog(), Clock.systemUTC(), store));
            return CrashImage.copy(data, Files.createTempDirectory(dir, "crash"));
        } finally {
            store.close();
            for (Table t : catalog.tables()) {
                catalog.drop(t.name());
            }
        }
    }

    private Path directoryWith(String... statements) {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            for (String sql : statements) {
                execute(db, sql);
            }
        }
        return data;
    }

    @Test
    void aMovedPartRestartsOnItsNewNodeFromTheLog() throws IOException {
        Path data = directoryWith("CREATE TABLE t (x BIGINT, s VARCHAR(10)) PARTITION BY HASH(x) PARTITIONS 2",
                "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, NULL), (5, 'e')");
        int to = 1 - Manifest.read(data.resolve(Manifest.FILE)).tables().getFirst().parts().getFirst().node();
        Path moved = crashAfter(data,
                (catalog, actions) -> actions.move("t", false, 0, to, PlacerEvent.OPERATOR, "test"));
        assertThat(Manifest.read(moved.resolve(Manifest.FILE)).tables().getFirst().parts().getFirst().node())
                .as("the checkpoint still has the old node").isEqualTo(1 - to);
        try (LocusDB after = open(moved)) {
            assertThat(after.durableStore().orElseThrow().recoveryReport().replayedRecords()).isEqualTo(1);
            assertThat(after.catalog().table("t").version().parts().get(0).homeNode()).isEqualTo(to);
            assertThat(query(after, "SELECT count(*), sum(x), count(s) FROM t")).isEqualTo("[[5, 15, 4]]");
        }
    }

    @Test
    void aGroupSplitAndAMergeAreRedoneTogetherWithTheRowsAroundThem() throws IOException {
        Path data = directoryWith("CREATE TABLE GROUP g",
                "CREATE TABLE o (k BIGINT NOT NULL, v INTEGER) PARTITION BY HASH(k) PARTITIONS 2 IN GROUP g",
                "CREATE TABLE l (k BIGINT NOT NULL, q INTEGER) PARTITION BY HASH(k) PARTITIONS 2 IN GROUP g",
                "CREATE TABLE m (x INTEGER) PARTITION BY HASH(x) PARTITIONS 2",
                "INSERT INTO o VALUES (1, 10), (2, 20), (3, 30), (4, 40), (5, 50), (6, 60)",
                "INSERT INTO l VALUES (1, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (6, 8)",
                "INSERT INTO m VALUES (1), (2), (3)");
        List<List<Integer>> expected = new ArrayList<>();
        Path crashed = crashAfter(data, (catalog, actions) -> {
            actions.partition("g", true, 1, 0, 1, PlacerEvent.OPERATOR, "test");
            actions.merge("m", false, 1, PlacerEvent.OPERATOR, "test");
            expected.add(nodes(catalog.table("o")));
        });
        try (LocusDB after = open(crashed)) {
            Table o = after.catalog().table("o");
            Table l = after.catalog().table("l");
            assertThat(o.version().parts()).hasSize(4);
            assertThat(nodes(l)).isEqualTo(nodes(o));
            assertThat(nodes(after.catalog().table("m"))).containsExactly(1);
            assertThat(query(after, "SELECT count(*), sum(v) FROM o")).isEqualTo("[[6, 210]]");
            assertThat(query(after, "SELECT count(*), sum(q) FROM l")).isEqualTo("[[8, 36]]");
            assertThat(query(after, "SELECT sum(o.v * l.q) FROM o JOIN l ON o.k = l.k"))
                    .isEqualTo("[[" + (10 * 3 + 20 * 3 + 30 * 4 + 40 * 5 + 50 * 6 + 60 * 15) + "]]");
            assertThat(query(after, "SELECT count(*), sum(x) FROM m")).isEqualTo("[[3, 6]]");
            assertThat(nodes(o)).as("the nodes the parts had before the crash").isEqualTo(expected.getFirst());
            after.durableStore().orElseThrow().checkpoint();
        }
        try (LocusDB again = open(crashed)) {
            assertThat(again.durableStore().orElseThrow().recoveryReport().replayedRecords())
                    .as("the first restart checkpointed what it redid").isZero();
            assertThat(nodes(again.catalog().table("o"))).isEqualTo(expected.getFirst());
        }
    }

    @Test
    void aRangeSplitComesBackWithTheSameBounds() throws IOException {
        Path data = directoryWith("CREATE TABLE r (k BIGINT, v INTEGER) PARTITION BY RANGE(k) BOUNDS (100)",
                "INSERT INTO r VALUES (1, 1), (7, 2), (50, 3), (99, 4), (100, 5), (150, 6), (400, 7), (999, 8)");
        List<Long> bounds = new ArrayList<>();
        Path crashed = crashAfter(data, (catalog, actions) -> {
            actions.partition("r", false, 1, -1, -1, PlacerEvent.OPERATOR, "test");
            bounds.addAll(catalog.table("r").version().rangeBounds());
        });
        try (LocusDB after = open(crashed)) {
            Table r = after.catalog().table("r");
            assertThat(r.version().parts()).hasSize(4);
            assertThat(r.version().rangeBounds()).hasSize(3).isSorted().isEqualTo(bounds);
            assertThat(r.version().rangeBounds().get(1)).isEqualTo(100L);
            assertThat(query(after, "SELECT count(*), sum(v) FROM r WHERE k >= 100")).isEqualTo("[[4, 26]]");
            assertThat(query(after, "SELECT count(*), sum(v) FROM r")).isEqualTo("[[8, 36]]");
        }
    }
}
