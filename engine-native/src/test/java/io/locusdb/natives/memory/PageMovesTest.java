package io.locusdb.natives.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.locusdb.natives.ffm.LibNuma;
import io.locusdb.natives.topology.FakeTopology;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;

/** Whether page moves are permitted is found by trying; a refusal leaves the data where it was. */
class PageMovesTest {
    private static final long MIB = 1L << 20;

    @Test
    void aProcessOutsideAContainerMayMoveItsOwnPages() {
        assumeTrue(LibNuma.isAvailable(), "libnuma is not available here");
        assumeTrue(System.getenv("container") == null, "running inside a container, whose seccomp may refuse");
        PageMoves moves = PageMoves.probe();
        assertThat(moves.permitted()).as(moves.detail()).isTrue();
        assertThat(moves.describe()).startsWith("permitted");
    }

    @Test
    void theSettingTurnsPageMovesOffAndSaysSo() {
        String before = System.getProperty(PageMoves.PROPERTY);
        System.setProperty(PageMoves.PROPERTY, "off");
        try {
            PageMoves moves = PageMoves.probe();
            assertThat(moves.permitted()).isFalse();
            assertThat(moves.describe()).startsWith("not permitted").contains(PageMoves.PROPERTY);
        } finally {
            if (before == null) {
                System.clearProperty(PageMoves.PROPERTY);
            } else {
                System.setProperty(PageMoves.PROPERTY, before);
            }
        }
    }

    @Test
    void whereMovesAreRefusedAMoveThrowsATypedErrorAndLocatingAnswersUnknown() {
        Topology fake = FakeTopology.split(Topologies.real(), 2);
        NodeMemory memory = new NodeMemory(fake, new PageMoves(false, "refused by the test's seccomp"));
        assumeTrue(memory.appliesPolicies(), "NUMA placement is unavailable here");
        try (Arena arena = Arena.ofConfined()) {
            NodeSegment segment = memory.allocate(2 * MIB, MemoryPolicy.bind(0), arena);
            segment.touchPages(memory.pageSize());
            assertThatThrownBy(() -> memory.move(segment, 1))
                    .isInstanceOf(PageMovesRefusedException.class)
                    .hasMessageContaining("refused by the test's seccomp");
            assertThat(memory.usage().bytesOnNode(0)).isEqualTo(2 * MIB);
            assertThat(segment.policy()).isEqualTo(MemoryPolicy.bind(0));
            assertThat(memory.locate(segment.segment()).known()).isFalse();
        }
    }
}
