package io.locusdb.core.query.join.guest;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.vector.ColumnVector;
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
 * one node and its copy for another each have every page of their index and row chain on their own node.
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
        // Every segment allocated, with the node it was asked for.
        List<NodeSegment> segments = new ArrayList<>();
        List<Integer> nodes = new ArrayList<>();
        try (Arena arena = Arena.ofShared()) {
            JoinHashTable table = new JoinHashTable(new ColumnVector[] {keys}, rows, new int[] {0}, false, null,
                    onNode(memory, arena, 1, segments, nodes));
            JoinHashTable copy = table.copyInto(onNode(memory, arena, 0, segments, nodes));
            assertThat(copy).isNotSameAs(table);
            // The index and the row chain of each.
            assertThat(nodes).containsExactly(1, 1, 0, 0);
            for (int i = 0; i < segments.size(); i++) {
                assertThat(memory.locate(segments.get(i).segment()).fractionOnNode(nodes.get(i)))
                        .as("segment %d on node %d", i, nodes.get(i)).isEqualTo(1.0);
                System.out.println("join table segment " + i + " for node " + nodes.get(i) + ": "
                        + memory.locate(segments.get(i).segment()));
            }
        }
        assertThat(memory.usage().liveSegments()).isZero();
    }

    private static JoinHashTable.IndexMemory onNode(NodeMemory memory, Arena arena, int node,
                                                    List<NodeSegment> segments, List<Integer> nodes) {
        return bytes -> {
            NodeSegment s = memory.allocate(bytes, new MemoryPolicy.Bind(node), arena);
            segments.add(s);
            nodes.add(node);
            return s.segment();
        };
    }
}
