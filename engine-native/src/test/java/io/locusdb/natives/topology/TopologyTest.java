package io.locusdb.natives.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.natives.ffm.LibNuma;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TopologyTest {
    @Test
    void realTopologyCoversExactlyTheCpusThisProcessMayUse() {
        Topology real = Topologies.real();
        assertThat(real.cpus()).isEqualTo(ProcessLimits.allowedCpus());
        assertThat(real.kind()).isIn(TopologyKind.REAL, TopologyKind.UNAVAILABLE);
        assertThat(real.kind() == TopologyKind.REAL).isEqualTo(LibNuma.isAvailable());
        for (int cpu : real.cpus().toArray()) {
            assertThat(real.node(real.nodeOfCpu(cpu)).cpus().contains(cpu)).isTrue();
        }
        assertThat(real.distance(0, 0)).isEqualTo(10);
    }

    @Test
    void realTopologyAgreesWithSysfs() throws IOException {
        Topology real = Topologies.real();
        if (real.kind() != TopologyKind.REAL) {
            return;
        }
        for (NumaNode node : real.nodes()) {
            Path cpulist = Path.of("/sys/devices/system/node/node" + node.physicalNode() + "/cpulist");
            if (Files.exists(cpulist)) {
                CpuSet sysfs = CpuSet.parse(Files.readString(cpulist));
                assertThat(node.cpus()).isEqualTo(sysfs.intersect(ProcessLimits.allowedCpus()));
            }
            assertThat(node.memoryBytes()).isPositive();
        }
    }

    @Test
    void fakeTopologySplitsTheAllowedCpusAndSaysItIsFake() {
        Topology real = Topologies.real();
        Topology fake = FakeTopology.split(real, 2);
        assertThat(fake.nodeCount()).isEqualTo(2);
        assertThat(fake.isFake()).isEqualTo(real.placementSupported());
        assertThat(fake.cpus()).isEqualTo(real.cpus());
        assertThat(fake.node(0).cpus().size() + fake.node(1).cpus().size()).isEqualTo(real.cpuCount());
        assertThat(fake.node(0).cpus().intersect(fake.node(1).cpus()).isEmpty()).isTrue();
        assertThat(fake.distance(0, 1)).isEqualTo(FakeTopology.VIRTUAL_REMOTE_DISTANCE);
        assertThat(fake.describe()).contains("fake").contains("virtual");
        assertThat(fake.note()).contains("virtual nodes");
    }

    @Test
    void fakeTopologyNeedsACpuPerNode() {
        Topology real = Topologies.real();
        assertThatThrownBy(() -> FakeTopology.split(real, real.cpuCount() + 1))
                .hasMessageContaining("needs at least " + (real.cpuCount() + 1) + " CPUs");
    }

    @Test
    void configuredTopologyFollowsItsSpec() {
        Topology real = Topologies.real();
        int first = real.cpus().first();
        int physical = real.physicalNodeOf(0);
        Topology configured = TopologySpec.parse(first + "@" + physical + ":256M", real);
        assertThat(configured.kind()).isEqualTo(TopologyKind.CONFIGURED);
        assertThat(configured.node(0).cpus()).isEqualTo(CpuSet.of(first));
        assertThat(configured.node(0).memoryBytes()).isEqualTo(256L << 20);
    }

    @Test
    void configuredTopologyRejectsBadSpecsNamingTheProblem() {
        Topology real = Topologies.real();
        int first = real.cpus().first();
        assertThatThrownBy(() -> TopologySpec.parse("", real)).hasMessageContaining("empty");
        assertThatThrownBy(() -> TopologySpec.parse("4095", real)).hasMessageContaining("not available");
        assertThatThrownBy(() -> TopologySpec.parse(first + "@77", real))
                .hasMessageContaining("physical node 77");
        assertThatThrownBy(() -> TopologySpec.parse(first + ";distances=10,20", real))
                .hasMessageContaining("need 1 distances");
        assertThatThrownBy(() -> TopologySpec.parse(first + ":lots", real)).hasMessageContaining("memory size");
        assertThatThrownBy(() -> Topologies.fromSetting("fake:two")).hasMessageContaining("fake:2");
        assertThatThrownBy(() -> Topologies.fromSetting("bogus")).hasMessageContaining("real, fake:N");
    }
}
