package io.locusdb.core.storage.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.storage.TableChecksum;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.placement.DeltaMergeService;
import io.locusdb.core.storage.placement.TablePlacementOps;
import io.locusdb.core.storage.type.ColumnType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeltaTest {
    private final Catalog catalog = TestStorage.catalog();
    private final TablePlacementOps ops = new TablePlacementOps(catalog.memory(), 2);
    private final Schema schema = Schema.of(ColumnDef.notNull("id", ColumnType.BIGINT),
            ColumnDef.of("name", ColumnType.varchar(8)), ColumnDef.of("score", ColumnType.DOUBLE));

    private Table table(PartitionSpec spec) {
        return catalog.createTable("t", schema, spec, new InitialPlacement.RoundRobin(), null);
    }

    private static List<Object[]> rows(long from, long to, String name) {
        List<Object[]> rows = new ArrayList<>();
        for (long i = from; i < to; i++) {
            rows.add(new Object[] {i, name, i * 0.5});
        }
        return rows;
    }

    @Test
    void insertsAreVisibleToLaterSnapshotsOnlyAndAllOrNothing() {
        Table table = table(new PartitionSpec.Hash("id", 2));
        TableSnapshot before = table.snapshot();
        table.insert(rows(0, 100, "a"));
        TableSnapshot after = table.snapshot();
        assertThat(before.visibleRows()).isZero();
        assertThat(after.visibleRows()).isEqualTo(100);
        List<Object[]> halfBad = List.of(new Object[] {1000L, "ok", 1.0}, new Object[] {null, "bad", 2.0});
        assertThatThrownBy(() -> table.insert(halfBad)).isInstanceOfSatisfying(NotNullViolationException.class,
                e -> assertThat(e.column()).isEqualTo("id"));
        List<Object[]> tooLong = new ArrayList<>();
        tooLong.add(new Object[] {1001L, "far too long", 1.0});
        assertThatThrownBy(() -> table.insert(tooLong))
                .hasMessageContaining("longer than VARCHAR(8)");
        try (TableSnapshot s = table.snapshot()) {
            assertThat(s.visibleRows()).isEqualTo(100);
        }
        before.close();
        after.close();
    }

    @Test
    void upsertsReplaceRowsByKeyInMainAndDeltaWithSnapshotIsolation() {
        Table table = table(new PartitionSpec.Hash("id", 2));
        table.insert(rows(0, 50, "a"));
        ops.mergeDelta(table, 0);
        ops.mergeDelta(table, 1);
        assertThat(table.version().parts().stream().mapToLong(TablePart::rows).sum()).isEqualTo(50);
        table.insert(rows(50, 60, "b"));
        TableSnapshot old = table.snapshot();
        table.upsert(rows(40, 70, "c"), "id");
        try (TableSnapshot now = table.snapshot()) {
            assertThat(now.visibleRows()).isEqualTo(70);
            assertThat(namesOf(now)).containsOnlyKeys("a", "c");
            assertThat(namesOf(now).get("c")).isEqualTo(30);
        }
        assertThat(old.visibleRows()).isEqualTo(60);
        assertThat(namesOf(old).get("b")).isEqualTo(10);
        old.close();
    }

    @Test
    void upsertsFindTheOldRowInAnyPartWhenTheKeyIsNotThePartitioningColumn() {
        Table table = table(new PartitionSpec.RoundRobin(2));
        table.insert(rows(0, 10, "a"));
        table.upsert(rows(5, 6, "b"), "id");
        table.upsert(rows(5, 6, "c"), "id");
        try (TableSnapshot s = table.snapshot()) {
            assertThat(s.visibleRows()).isEqualTo(10);
            assertThat(namesOf(s)).containsEntry("a", 9).containsEntry("c", 1).doesNotContainKey("b");
        }
    }

    @Test
    void placementOperationsRefuseDroppedTablesAndLeakNothing() {
        Table table = table(new PartitionSpec.Hash("id", 2));
        table.insert(rows(0, 10, "a"));
        catalog.drop("t");
        assertThatThrownBy(() -> ops.move(table, 0, 1)).hasMessageContaining("dropped");
        assertThatThrownBy(() -> ops.repartition(table)).hasMessageContaining("dropped");
        assertThatThrownBy(() -> ops.mergeDelta(table, 0)).hasMessageContaining("dropped");
        assertThatThrownBy(() -> table.insert(rows(10, 11, "x"))).hasMessageContaining("dropped");
        assertThat(catalog.memory().usage().liveSegments()).isZero();
    }

    @Test
    void mergeMoveRepartitionAndTheBackgroundMergeKeepTheVisibleRows() throws Exception {
        Table table = table(new PartitionSpec.Hash("id", 2));
        table.insert(rows(0, 500, "a"));
        table.upsert(rows(100, 200, "u"), "id");
        TableChecksum expected = TableChecksum.of(table);
        ops.move(table, 1, 0);
        assertThat(TableChecksum.of(table)).isEqualTo(expected);
        ops.repartition(table);
        assertThat(TableChecksum.of(table)).isEqualTo(expected);
        table.insert(rows(1000, 1400, "n"));
        expected = TableChecksum.of(table);
        try (DeltaMergeService merger = new DeltaMergeService(catalog, ops, 10, 0.1, 3_600_000)) {
            assertThat(merger.mergeDue()).isPositive();
        }
        assertThat(table.version().parts()).allMatch(p -> p.delta().visibleRows(Long.MAX_VALUE) == 0);
        assertThat(TableChecksum.of(table)).isEqualTo(expected);
        ops.merge(table, 0);
        assertThat(TableChecksum.of(table)).isEqualTo(expected);
        assertThat(TableChecksum.of(table).rows()).isEqualTo(900);
    }

    private static java.util.Map<String, Integer> namesOf(TableSnapshot snapshot) {
        java.util.Map<String, Integer> counts = new java.util.HashMap<>();
        for (TablePart part : snapshot.parts()) {
            long total = part.rows() + snapshot.deltaRows(part);
            for (long r = 0; r < total; r++) {
                if (snapshot.isVisible(part, r)) {
                    String name = r < part.rows() ? (String) part.column(1).boxedValue(r)
                            : (String) part.delta().row((int) (r - part.rows()))[1];
                    counts.merge(name, 1, Integer::sum);
                }
            }
        }
        return counts;
    }
}
