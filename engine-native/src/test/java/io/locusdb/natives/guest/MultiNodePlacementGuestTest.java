package io.locusdb.natives.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.memory.NodeSegment;
import io.locusdb.natives.memory.PageLocations;
import io.locusdb.natives.memory.PageMoveReport;
import io.locusdb.natives.thread.ThreadPinning;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import io.locusdb.natives.topology.TopologyKind;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Placement claims checked where they can be true: inside a QEMU guest with several NUMA nodes
 * ({@code scripts/numa-vm}), which sets {@code LOCUS_EXPECT_NODES}. Guest kernels boot with THP and automatic
 * NUMA balancing off, so page counts are exact.
 */
@Tag("numa-guest")
class MultiNodePlacementGuestTest {
    private static final long SEGMENT_BYTES = 64L << 20;

    private static Topology topology;
    private static NodeMemory memory;

    @BeforeAll
    static void discover() {
        String expected = System.getenv("LOCUS_EXPECT_NODES");
        assertThat(expected).as("LOCUS_EXPECT_NODES (set by scripts/run-guest-tests)").isNotNull();
        topology = Topologies.real();
        assertThat(topology.kind()).isEqualTo(TopologyKind.REAL);
        assertThat(topology.nodeCount()).isEqualTo(Integer.parseInt(expected));
        memory = new NodeMemory(topology);
        System.out.print(topology.describe());
    }

    @Test
    void topologyMatchesNumactlHardware() throws Exception {
        NumactlHardware numactl = NumactlHardware.run();
        assertThat(numactl.cpusByNode()).hasSize(topology.nodeCount());
        for (int node = 0; node < topology.nodeCount(); node++) {
            assertThat(topology.node(node).physicalNode()).isEqualTo(node);
            assertThat(topology.node(node).cpus()).isEqualTo(numactl.cpusByNode().get(node));
            for (int other = 0; other < topology.nodeCount(); other++) {
                assertThat(topology.distance(node, other)).isEqualTo(numactl.distances()[node][other]);
            }
        }
    }

    @Test
    void segmentBoundToEachNodeHasAllItsPagesThereAfterFirstTouch() {
        try (Arena arena = Arena.ofConfined()) {
            for (int node = 0; node < topology.nodeCount(); node++) {
                NodeSegment segment = memory.allocate(SEGMENT_BYTES, MemoryPolicy.bind(node), arena);
                segment.touchPages(memory.pageSize());
                PageLocations where = memory.locate(segment.segment());
                System.out.println("bound to node " + node + ": " + where);
                assertThat(where.notPresent()).isZero();
                assertThat(where.pagesOnNode(node)).isEqualTo(where.totalPages());
                assertThat(where.fractionOnNode(node)).isEqualTo(1.0);
            }
        }
    }

    @Test
    void movingASegmentFromTheLastNodeToNodeZeroMovesEveryPageAndKeepsItsContents() {
        int from = topology.nodeCount() - 1;
        try (Arena arena = Arena.ofConfined()) {
            NodeSegment segment = memory.allocate(SEGMENT_BYTES, MemoryPolicy.bind(from), arena);
            MemorySegment data = segment.segment();
            long longs = data.byteSize() / Long.BYTES;
            for (long i = 0; i < longs; i++) {
                data.setAtIndex(ValueLayout.JAVA_LONG, i, i * 0x9E3779B97F4A7C15L);
            }
            assertThat(memory.locate(data).fractionOnNode(from)).isEqualTo(1.0);

            PageMoveReport report = memory.move(segment, 0);
            System.out.printf("moved node %d -> 0: %s, %.2f us/page%n", from, report,
                    report.microsPerMovedPage());

            assertThat(report.complete()).isTrue();
            assertThat(report.moved()).isEqualTo(report.totalPages());
            PageLocations after = memory.locate(data);
            assertThat(after.pagesOnNode(0)).isEqualTo(after.totalPages());
            for (long i = 0; i < longs; i++) {
                if (data.getAtIndex(ValueLayout.JAVA_LONG, i) != i * 0x9E3779B97F4A7C15L) {
                    throw new AssertionError("contents changed at long " + i + " after the move");
                }
            }
        }
    }

    @Test
    void interleavedSegmentSplitsEvenlyOverAllNodes() {
        int[] all = IntStream.range(0, topology.nodeCount()).toArray();
        try (Arena arena = Arena.ofConfined()) {
            NodeSegment segment = memory.allocate(SEGMENT_BYTES, MemoryPolicy.interleave(all), arena);
            segment.touchPages(memory.pageSize());
            PageLocations where = memory.locate(segment.segment());
            System.out.println("interleaved: " + where);
            double share = 1.0 / topology.nodeCount();
            for (int node : all) {
                assertThat(where.fractionOnNode(node)).isCloseTo(share, within(0.01 * share));
            }
        }
    }

    @Test
    void aThreadPinnedToACpuReadsBackThatCpusNode() throws Exception {
        ThreadPinning pinning = new ThreadPinning(topology);
        NumactlHardware numactl = NumactlHardware.run();
        for (int cpu : topology.cpus().toArray()) {
            AtomicReference<int[]> seen = new AtomicReference<>();
            Thread thread = Thread.ofPlatform().start(() -> {
                pinning.pinCurrentThreadToCpu(cpu);
                seen.set(new int[] {ThreadPinning.currentCpu(), pinning.currentNode()});
            });
            thread.join();
            int expectedNode = numactl.cpusByNode().entrySet().stream()
                    .filter(e -> e.getValue().contains(cpu)).mapToInt(e -> e.getKey()).findFirst().orElse(-1);
            assertThat(seen.get()[0]).as("CPU after pinning to %d", cpu).isEqualTo(cpu);
            assertThat(seen.get()[1]).as("node of CPU %d", cpu).isEqualTo(expectedNode);
        }
    }
}
