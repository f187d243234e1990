package io.locusdb.core.storage.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.type.ColumnType;
import org.junit.jupiter.api.Test;

class CatalogTest {
    private final Catalog catalog = TestStorage.catalog();
    private final Schema orders = Schema.of(ColumnDef.notNull("o_orderkey", ColumnType.BIGINT),
            ColumnDef.of("o_comment", ColumnType.VARCHAR));
    private final Schema items = Schema.of(ColumnDef.notNull("l_orderkey", ColumnType.BIGINT),
            ColumnDef.of("l_quantity", ColumnType.decimal(15, 2)));

    @Test
    void createsEmptyPartitionedTablesInGroupsAndShowsThemInTheSystemViews() {
        catalog.createGroup("g");
        catalog.createTable("orders", orders, new PartitionSpec.Hash("o_orderkey", 2),
                new InitialPlacement.RoundRobin(), "g");
        catalog.createTable("LineItem", items, new PartitionSpec.Hash("l_orderkey", 2),
                new InitialPlacement.RoundRobin(), "g");
        assertThat(catalog.table("LINEITEM").version().parts()).extracting(TablePart::homeNode)
                .containsExactly(0, 1);
        assertThat(catalog.group("g").tables()).hasSize(2);
        SystemViews views = new SystemViews(catalog);
        assertThat(views.tables()).extracting(SystemViews.TableRow::name).containsExactly("LineItem", "orders");
        assertThat(views.tables().getFirst().partitioning()).isEqualTo("HASH(l_orderkey) PARTITIONS 2");
        assertThat(views.parts()).hasSize(4);
        assertThat(views.columns()).hasSize(8);
    }

    @Test
    void rejectsDuplicatesMismatchedGroupsAndUnknownNamesWithoutLeakingMemory() {
        catalog.createGroup("g");
        catalog.createTable("orders", orders, new PartitionSpec.Hash("o_orderkey", 2),
                new InitialPlacement.RoundRobin(), "g");
        long live = catalog.memory().usage().liveSegments();
        assertThatThrownBy(() -> catalog.createTable("ORDERS", orders, PartitionSpec.none(),
                new InitialPlacement.RoundRobin(), null)).hasMessageContaining("already exists");
        assertThatThrownBy(() -> catalog.createTable("items", items, new PartitionSpec.Hash("l_orderkey", 4),
                new InitialPlacement.RoundRobin(), "g")).hasMessageContaining("not co-partitioned");
        assertThatThrownBy(() -> catalog.createTable("x", items, new PartitionSpec.Hash("nope", 2),
                new InitialPlacement.RoundRobin(), null)).hasMessageContaining("no column 'nope'");
        assertThat(catalog.memory().usage().liveSegments()).isEqualTo(live);
        assertThatThrownBy(() -> catalog.table("missing")).hasMessageContaining("no table 'missing'");
        assertThatThrownBy(() -> catalog.dropGroup("g")).hasMessageContaining("still has tables");
    }

    @Test
    void droppedTablesFreeTheirMemoryOnceTheLastSnapshotCloses() {
        Table table = catalog.createTable("orders", orders, new PartitionSpec.Hash("o_orderkey", 2),
                new InitialPlacement.RoundRobin(), null);
        TableSnapshot running = table.snapshot();
        catalog.drop("orders");
        assertThat(catalog.find("orders")).isEmpty();
        assertThat(running.parts()).noneMatch(TablePart::isFreed);
        running.close();
        assertThat(running.parts()).allMatch(TablePart::isFreed);
        assertThat(catalog.memory().usage().liveSegments()).isZero();
        assertThatThrownBy(table::snapshot).hasMessageContaining("dropped");
    }
}
