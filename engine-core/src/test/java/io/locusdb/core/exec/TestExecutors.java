package io.locusdb.core.exec;

import io.locusdb.natives.topology.CpuSet;
import io.locusdb.natives.topology.FakeTopology;
import io.locusdb.natives.topology.NumaNode;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import io.locusdb.natives.topology.TopologyKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/** Executor fixtures: the fake two-node topology of this machine, and synthetic topologies for policy tests. */
final class TestExecutors {
    private TestExecutors() {
    }

    /** Two virtual nodes over this machine's CPUs (one CPU each on a 2-CPU machine). */
    static Topology twoNodes() {
        Topology real = Topologies.real();
        return FakeTopology.split(real, Math.min(2, real.cpuCount()));
    }

    /** A topology whose CPUs need not exist: only for executors with {@code pinWorkers(false)}. */
    static Topology synthetic(int nodes, int cpusPerNode) {
        List<NumaNode> list = new ArrayList<>();
        int[][] distances = new int[nodes][nodes];
        for (int n = 0; n < nodes; n++) {
            list.add(new NumaNode(n, 0, CpuSet.range(n * cpusPerNode, (n + 1) * cpusPerNode), 1L << 30, 1L << 30));
            for (int m = 0; m < nodes; m++) {
                distances[n][m] = n == m ? 10 : 20;
            }
        }
        return new Topology(TopologyKind.FAKE, list, distances, "synthetic test topology");
    }

    static ExecutorConfig.Builder config(Topology topology) {
        return ExecutorConfig.builder(topology);
    }

    /** Polls {@code condition} until it holds or {@code timeout} passes; returns whether it held. */
    static boolean eventually(Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return condition.getAsBoolean();
    }

    /** Burns CPU for about {@code nanos} without sleeping (a CPU-bound task body). */
    static long spin(long nanos) {
        long end = System.nanoTime() + nanos;
        long x = 0;
        while (System.nanoTime() < end) {
            x += x * 31 + 7;
        }
        return x;
    }
}
