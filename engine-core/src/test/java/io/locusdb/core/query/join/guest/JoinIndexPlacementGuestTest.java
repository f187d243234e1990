package io.locusdb.core.query.join.guest;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.query.ColumnVector;
import io.locusdb.core.query.join.JoinHashTable;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.memory.NodeSegment;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import io.locusdb.natives.topology.TopologyKind;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A hash table's index in the memory of the node that reads it, on real (emulated) NUMA nodes: the table built on
 * one node and its copy for another each have every page on their own node.
 */
@Tag("numa-guest")
class JoinIndexPlacementGuestTest {
    @Test
    void aTablesIndexAndItsCopyLieOnTheirNodes() {
        Topology topology = Topologies.real();
        assertThat(topology.kind()).isEqualTo(TopologyKind.REAL);
        assertThat(topology.nodeCount()).isGreaterThanOrEqualTo(2);
        NodeMemory memory = new NodeMemory(topology);
        int rows = 300_000;
        ColumnVector keys = new ColumnVector(ColumnType.BIGINT, rows);
        for (int r = 0; r < rows; r++) {
            keys.setLong(r, r * 7L);
        }
        keys.setSize(rows);
        List<NodeSegment> segments = new ArrayList<>();
        try (Arena arena = Arena.ofShared()) {
            JoinHashTable.IndexMemory onNode1 = bytes -> {
                NodeSegment s = memory.allocate(bytes, new MemoryPolicy.Bind(1), arena);
                segments.add(s);
                return s.segment();
            };
            JoinHashTable.IndexMemory onNode0 = bytes -> {
                NodeSegment s = memory.allocate(bytes, new MemoryPolicy.Bind(0), arena);
                segments.add(s);
                return s.segment();
            };
            JoinHashTable table = new JoinHashTable(new ColumnVector[] {keys}, rows, new int[] {0}, false, null,
                    onNode1);
            JoinHashTable copy = table.copyInto(onNode0);
            assertThat(copy).isNotSameAs(table);
            assertThat(memory.locate(segments.get(0).segment()).fractionOnNode(1)).isEqualTo(1.0);
            assertThat(memory.locate(segments.get(1).segment()).fractionOnNode(0)).isEqualTo(1.0);
            System.out.println("join index on node 1: " + memory.locate(segments.get(0).segment())
                    + "; its copy on node 0: " + memory.locate(segments.get(1).segment()));
        }
        assertThat(memory.usage().liveSegments()).isZero();
    }
}
