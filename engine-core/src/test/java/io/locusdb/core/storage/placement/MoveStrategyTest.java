package io.locusdb.core.storage.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.locusdb.core.placer.PlacementActions;
import io.locusdb.core.placer.PlacerEvent;
import io.locusdb.core.placer.PlacerEventLog;
import io.locusdb.core.storage.TableChecksum;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.memory.PageMoves;
import io.trino.tpch.TpchTable;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * Moves by copy or by migrating pages in place; a migration where {@code move_pages} is refused (a container's
 * default seccomp profile) becomes a copy that says so, and the data arrives all the same.
 */
class MoveStrategyTest {
    private static Table orders(Catalog catalog) {
        return catalog.register(new TpchLoader(catalog.memory(), 2).generate(TpchTable.ORDERS, 0.01, 2,
                new InitialPlacement.RoundRobin(), LoadProgress.NONE));
    }

    /** A catalog whose memory answers as a container's default seccomp profile does: page moves refused. */
    private static Catalog refusingPageMoves() {
        Catalog catalog = new Catalog(new NodeMemory(TestStorage.twoNodes(),
                new PageMoves(false, "move_pages failed: EPERM (refused by the test)")));
        assumeTrue(catalog.memory().appliesPolicies(), "NUMA placement is unavailable here");
        return catalog;
    }

    @Test
    void migratingInPlaceKeepsThePartAndRehomesIt() {
        Catalog catalog = TestStorage.catalog();
        assumeTrue(catalog.memory().pageMoves().permitted(), catalog.memory().pageMoves().detail());
        Table table = orders(catalog);
        TableChecksum before = TableChecksum.of(table);
        TablePart part = table.version().parts().get(1);
        TablePlacementOps ops = new TablePlacementOps(catalog.memory(), 2, MoveStrategy.MIGRATE_PAGES);

        PlacementReport report = ops.move(table, 1, 0);

        assertThat(report.method()).isEqualTo("migrate");
        assertThat(table.version().parts().get(1)).isSameAs(part);
        assertThat(part.homeNode()).isZero();
        assertThat(TableChecksum.of(table)).isEqualTo(before);
    }

    @Test
    void aMigrationWherePageMovesAreRefusedCopiesThePartInstead() {
        Catalog catalog = refusingPageMoves();
        Table table = orders(catalog);
        TableChecksum before = TableChecksum.of(table);
        TablePart part = table.version().parts().get(1);
        TablePlacementOps ops = new TablePlacementOps(catalog.memory(), 2, MoveStrategy.MIGRATE_PAGES);

        PlacementReport report = ops.move(table, 1, 0);

        assertThat(report.method()).isEqualTo("copy (page moves not permitted)");
        assertThat(report.pages()).isPositive();
        assertThat(table.version().parts().get(1)).isNotSameAs(part);
        assertThat(table.version().parts().get(1).homeNode()).isZero();
        assertThat(TableChecksum.of(table)).isEqualTo(before);
    }

    @Test
    void theEventSaysHowThePartMoved() {
        Catalog catalog = refusingPageMoves();
        orders(catalog);
        PlacerEventLog log = new PlacerEventLog();
        PlacementActions migrating = new PlacementActions(catalog,
                new TablePlacementOps(catalog.memory(), 2, MoveStrategy.MIGRATE_PAGES), log, Clock.systemUTC());
        PlacementActions copying = new PlacementActions(catalog,
                new TablePlacementOps(catalog.memory(), 2), log, Clock.systemUTC());

        PlacerEvent fallback = migrating.move("orders", false, 0, 1, PlacerEvent.OPERATOR, "test");
        PlacerEvent copy = copying.move("orders", false, 0, 0, PlacerEvent.OPERATOR, "test");

        assertThat(fallback.succeeded()).isTrue();
        assertThat(fallback.method()).isEqualTo("copy (page moves not permitted)");
        assertThat(copy.method()).isEqualTo("copy");
        assertThat(PlacementActions.describe(fallback)).contains("copy (page moves not permitted)");
    }

    @Test
    void strategiesAreNamedCopyAndMigrateInSettings() {
        assertThat(MoveStrategy.parse(" Migrate ")).isEqualTo(MoveStrategy.MIGRATE_PAGES);
        assertThat(MoveStrategy.parse("copy")).isEqualTo(MoveStrategy.COPY);
        assertThatThrownBy(() -> MoveStrategy.parse("teleport"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("teleport").hasMessageContaining("copy, migrate");
    }
}
