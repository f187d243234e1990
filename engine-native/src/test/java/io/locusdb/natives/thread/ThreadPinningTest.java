package io.locusdb.natives.thread;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.natives.topology.CpuSet;
import io.locusdb.natives.topology.FakeTopology;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ThreadPinningTest {
    @Test
    void aThreadPinnedToEachVirtualNodeRunsThere() throws Exception {
        Topology fake = FakeTopology.split(Topologies.real(), 2);
        ThreadPinning pinning = new ThreadPinning(fake);
        for (int node = 0; node < fake.nodeCount(); node++) {
            int target = node;
            AtomicReference<int[]> seen = new AtomicReference<>();
            Thread t = Thread.ofPlatform().start(() -> {
                pinning.pinCurrentThreadToNode(target);
                int cpu = ThreadPinning.currentCpu();
                seen.set(new int[] {cpu, pinning.currentNode(), pinning.currentAffinity().size()});
            });
            t.join();
            assertThat(fake.node(target).cpus().contains(seen.get()[0])).isTrue();
            assertThat(seen.get()[1]).isEqualTo(target);
            assertThat(seen.get()[2]).isEqualTo(fake.node(target).cpus().size());
        }
    }

    @Test
    void refusesCpusOutsideTheTopology() {
        ThreadPinning pinning = new ThreadPinning(Topologies.real());
        assertThatThrownBy(() -> pinning.pinCurrentThread(CpuSet.of(4000)))
                .hasMessageContaining("not all in this topology");
        assertThatThrownBy(() -> pinning.pinCurrentThread(CpuSet.empty())).hasMessageContaining("empty");
    }
}
