package io.locusdb.natives.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.natives.ffm.LibNuma;
import io.locusdb.natives.ffm.NativeCallException;
import io.locusdb.natives.topology.FakeTopology;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** Runs on any machine: a real single-node topology and a fake two-node one over it. */
class NodeMemoryTest {
    private static final long MIB = 1L << 20;

    @Test
    void boundSegmentIsPageAlignedZeroedAndOnItsNodeAfterFirstTouch() {
        NodeMemory memory = new NodeMemory(Topologies.real());
        try (Arena arena = Arena.ofConfined()) {
            NodeSegment segment = memory.allocate(8 * MIB + 5, MemoryPolicy.bind(0), arena);
            assertThat(segment.address() % memory.pageSize()).isZero();
            assertThat(segment.byteSize()).isEqualTo(8 * MIB + memory.pageSize());
            PageLocations before = memory.locate(segment.segment());
            assertThat(segment.segment().get(ValueLayout.JAVA_LONG, 4 * MIB)).isZero();
            segment.touchPages(memory.pageSize());
            PageLocations after = memory.locate(segment.segment());
            if (memory.appliesPolicies()) {
                assertThat(before.notPresent()).isEqualTo(before.totalPages());
                assertThat(after.fractionOnNode(0)).isEqualTo(1.0);
                assertThat(after.notPresent()).isZero();
            } else {
                assertThat(after.known()).isFalse();
            }
        }
    }

    @Test
    void usageFollowsAllocationMoveAndArenaClose() {
        Topology fake = FakeTopology.split(Topologies.real(), 2);
        NodeMemory memory = new NodeMemory(fake);
        try (Arena arena = Arena.ofConfined()) {
            NodeSegment a = memory.allocate(4 * MIB, MemoryPolicy.bind(1), arena);
            memory.allocate(2 * MIB, MemoryPolicy.interleave(0, 1), arena);
            assertThat(memory.usage().bytesOnNode(0)).isEqualTo(MIB);
            assertThat(memory.usage().bytesOnNode(1)).isEqualTo(5 * MIB);
            assertThat(memory.usage().liveSegments()).isEqualTo(2);
            a.touchPages(memory.pageSize());
            memory.move(a, 0);
            assertThat(a.policy()).isEqualTo(MemoryPolicy.bind(0));
            assertThat(memory.usage().bytesOnNode(0)).isEqualTo(5 * MIB);
            assertThat(memory.usage().bytesOnNode(1)).isEqualTo(MIB);
        }
        assertThat(memory.usage().totalBytes()).isZero();
        assertThat(memory.usage().liveSegments()).isZero();
    }

    @Test
    void everyOperationWorksOnAFakeTwoNodeTopologyAndSaysItIsFake() {
        Topology fake = FakeTopology.split(Topologies.real(), 2);
        NodeMemory memory = new NodeMemory(fake);
        try (Arena arena = Arena.ofConfined()) {
            NodeSegment segment = memory.allocate(4 * MIB, MemoryPolicy.bind(1), arena);
            segment.segment().fill((byte) 7);
            PageLocations where = memory.locate(segment.segment());
            PageMoveReport report = memory.move(segment, 0);
            assertThat(report.complete()).isTrue();
            assertThat(segment.segment().get(ValueLayout.JAVA_BYTE, 3 * MIB)).isEqualTo((byte) 7);
            memory.allocate(MIB, MemoryPolicy.preferred(1), arena).touchPages(memory.pageSize());
            memory.allocate(MIB, MemoryPolicy.local(), arena).touchPages(memory.pageSize());
            memory.allocate(4 * MIB, MemoryPolicy.bind(0), arena, true).touchPages(memory.pageSize());
            if (memory.appliesPolicies()) {
                assertThat(where.fractionOnNode(1)).isEqualTo(1.0);
                assertThat(where.toString()).contains("fake topology");
                // Both virtual nodes live on one physical node here: nothing has to move, and the report says so.
                if (fake.physicalNodeOf(0) == fake.physicalNodeOf(1)) {
                    assertThat(report.alreadyOnTarget()).isEqualTo(report.totalPages());
                    assertThat(report.note()).contains("fake topology");
                }
            }
        }
    }

    @Test
    void rejectsNodesOutsideTheTopologyAndNonsenseSizes() {
        NodeMemory memory = new NodeMemory(FakeTopology.split(Topologies.real(), 2));
        try (Arena arena = Arena.ofConfined()) {
            assertThatThrownBy(() -> memory.allocate(MIB, MemoryPolicy.bind(2), arena))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("node 2 does not exist");
            assertThatThrownBy(() -> memory.allocate(0, MemoryPolicy.bind(0), arena))
                    .hasMessageContaining("positive");
        }
        assertThat(memory.usage().liveSegments()).isZero();
    }

    @Test
    void kernelRefusalsBecomeExceptionsWithTheErrnoName() {
        if (!LibNuma.isAvailable()) {
            return;
        }
        // An unaligned start address is EINVAL for mbind.
        assertThatThrownBy(() -> LibNuma.mbind(1, 4096, LibNuma.MPOL_BIND, new int[] {0}, 0))
                .isInstanceOf(NativeCallException.class)
                .hasMessageContaining("mbind failed: EINVAL (Invalid argument)");
    }

    @Test
    void automaticArenasReleaseTheirMappings() throws InterruptedException {
        NodeMemory memory = new NodeMemory(Topologies.real());
        memory.allocate(MIB, MemoryPolicy.bind(0), Arena.ofAuto());
        for (int i = 0; i < 50 && memory.usage().liveSegments() > 0; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(memory.usage().liveSegments()).isZero();
    }

    @Test
    void withoutNumaSupportEveryOperationStillWorksAndSaysPlacementIsUnknown() {
        NodeMemory memory = new NodeMemory(Topologies.unavailable("test: no NUMA"));
        assertThat(memory.appliesPolicies()).isFalse();
        try (Arena arena = Arena.ofConfined()) {
            NodeSegment segment = memory.allocate(2 * MIB, MemoryPolicy.bind(0), arena);
            segment.segment().fill((byte) 1);
            assertThat(memory.locate(segment.segment()).known()).isFalse();
            assertThat(memory.locate(segment.segment()).toString()).contains("unavailable");
            PageMoveReport report = memory.move(segment, 0);
            assertThat(report.moved()).isZero();
            assertThat(report.note()).contains("unavailable");
            assertThat(memory.usage().bytesOnNode(0)).isEqualTo(2 * MIB);
        }
    }
}
