package io.locusdb.core.storage.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.storage.TableChecksum;
import io.locusdb.core.storage.ConcurrentScans;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.table.PartitionRouter;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import io.trino.tpch.TpchTable;
import org.junit.jupiter.api.Test;

class TablePlacementOpsTest {
    private final Catalog catalog = TestStorage.catalog();
    private final TablePlacementOps ops = new TablePlacementOps(catalog.memory(), 2);

    private Table lineitem(int parts) {
        return catalog.register(new TpchLoader(catalog.memory(), 2).generate(TpchTable.LINE_ITEM, 0.01, parts,
                new InitialPlacement.RoundRobin(), LoadProgress.NONE));
    }

    @Test
    void repartitionOneTwoFourAndMergeBackKeepEveryRow() {
        Table table = lineitem(1);
        TableChecksum before = TableChecksum.of(table);
        ops.repartition(table);
        assertThat(table.version().parts()).hasSize(2);
        assertThat(TableChecksum.of(table)).isEqualTo(before);
        PlacementReport toFour = ops.repartition(table);
        assertThat(table.version().parts()).hasSize(4);
        assertThat(toFour.partsAfter()).isEqualTo(4);
        assertThat(TableChecksum.of(table)).isEqualTo(before);
        // RANGE children stay ordered: each bound at or above the previous one.
        assertThat(table.version().rangeBounds()).isSorted();
        ops.merge(table, 1);
        assertThat(table.version().parts()).hasSize(1);
        assertThat(table.version().parts().getFirst().homeNode()).isEqualTo(1);
        assertThat(TableChecksum.of(table)).isEqualTo(before);
    }

    @Test
    void hashRepartitionKeepsEachRowInItsHashPart() {
        Table table = lineitem(1);
        TableChecksum before = TableChecksum.of(table);
        Table hashed;
        try (TableSnapshot s = table.snapshot()) {
            hashed = new Table("hashed", table.schema(), new PartitionSpec.Hash("l_orderkey", 1),
                    s.parts().stream().map(p -> {
                        p.tryAcquire();
                        return p;
                    }).toList(), java.util.List.of());
        }
        ops.repartition(hashed);
        ops.repartition(hashed);
        assertThat(TableChecksum.of(hashed)).isEqualTo(before);
        for (TablePart part : hashed.version().parts()) {
            for (long r = 0; r < part.rows(); r++) {
                assertThat(PartitionRouter.hashPart(part.column(0).boxedValue(r),
                        new PartitionSpec.Hash("l_orderkey", 4))).isEqualTo(part.index());
            }
        }
    }

    @Test
    void movingAPartWhileScansRunNeverFailsNorMiscountsAndFreesTheOldPart() throws Exception {
        Table table = lineitem(2);
        ConcurrentScans readers = new ConcurrentScans(table, "l_quantity", 2400, 2);
        TablePart old = table.version().parts().get(1);
        long liveBefore = catalog.memory().usage().liveSegments();
        for (int i = 0; i < 6; i++) {
            PlacementReport report = ops.move(table, 1, i % 2 == 0 ? 0 : 1);
            assertThat(report.pages()).isPositive();
        }
        readers.awaitMoreScans(1);
        assertThat(readers.stop()).isNull();
        assertThat(readers.scans()).isPositive();
        assertThat(old.isFreed()).isTrue();
        assertThat(table.version().parts().get(1).homeNode()).isEqualTo(1);
        assertThat(catalog.memory().usage().liveSegments()).isEqualTo(liveBefore);
    }

}
