package io.locusdb.core.storage.guest;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.storage.ConcurrentScans;
import io.locusdb.core.storage.load.PartAssembler;
import io.locusdb.core.storage.placement.PlacementReport;
import io.locusdb.core.storage.placement.TablePlacementOps;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TablePartBuilder;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.memory.NodeSegment;
import io.locusdb.natives.memory.PageLocations;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import io.locusdb.natives.topology.TopologyKind;
import io.locusdb.core.storage.type.ColumnType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Table-part placement on real (emulated) NUMA nodes: run inside a 2-node guest by scripts/run-guest-tests. */
@Tag("numa-guest")
class StoragePlacementGuestTest {
    @Test
    void partsLandOnTheirNodesAndAPartMovesUnderConcurrentScansWithoutErrors() throws Exception {
        Topology topology = Topologies.real();
        assertThat(topology.kind()).isEqualTo(TopologyKind.REAL);
        assertThat(topology.nodeCount()).isGreaterThanOrEqualTo(2);
        NodeMemory memory = new NodeMemory(topology);
        Table table = syntheticLineitems(memory, 2, 100_000);
        for (TablePart part : table.version().parts()) {
            assertThat(fractionOn(memory, part, part.index())).as("part %d on node %d", part.index(), part.index())
                    .isEqualTo(1.0);
        }
        ConcurrentScans readers = new ConcurrentScans(table, "l_quantity", 2400, 2);
        readers.awaitMoreScans(3);
        TablePart old = table.version().parts().get(1);
        PlacementReport report = new TablePlacementOps(memory, 2).move(table, 1, 0);
        readers.awaitMoreScans(3);
        Throwable failure = readers.stop();
        System.out.println("move under load: " + report + "; " + readers.scans() + " concurrent scans");
        assertThat(failure).isNull();
        TablePart moved = table.version().parts().get(1);
        assertThat(moved.homeNode()).isZero();
        assertThat(fractionOn(memory, moved, 0)).isEqualTo(1.0);
        assertThat(old.isFreed()).isTrue();
        assertThat(old.memory().isClosed()).isTrue();
        assertThat(memory.usage().bytesOnNode(1)).isZero();
    }

    /** lineitem-like rows (key, quantity in cents, comment): TPC-H's 300 MB text pool is too big for the guest. */
    private static Table syntheticLineitems(NodeMemory memory, int parts, int rowsPerPart) {
        Schema schema = Schema.of(ColumnDef.notNull("l_orderkey", ColumnType.BIGINT),
                ColumnDef.notNull("l_quantity", ColumnType.decimal(15, 2)),
                ColumnDef.of("l_comment", ColumnType.varchar(44)));
        List<TablePartBuilder> builders = new ArrayList<>();
        List<Long> bounds = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            TablePartBuilder builder = new TablePartBuilder(schema);
            for (int i = 0; i < rowsPerPart; i++) {
                long key = (long) p * rowsPerPart + i;
                builder.appendRow(key, (key * 7919 % 50 + 1) * 100, "comment " + (key % 1000));
            }
            builders.add(builder);
            if (p > 0) {
                bounds.add((long) p * rowsPerPart);
            }
        }
        List<TablePart> built = PartAssembler.buildAll(builders, memory, new InitialPlacement.RoundRobin(), 2);
        return new Table("lineitem", schema, new PartitionSpec.Range("l_orderkey", parts), built, bounds);
    }

    private static double fractionOn(NodeMemory memory, TablePart part, int node) {
        long on = 0;
        long present = 0;
        for (NodeSegment segment : part.memory().segments()) {
            segment.touchPages(memory.pageSize());
            PageLocations where = memory.locate(segment.segment());
            on += where.pagesOnNode(node);
            present += where.presentPages();
        }
        return present == 0 ? 0 : (double) on / present;
    }

}
