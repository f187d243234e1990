package io.locusdb.natives.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits the allowed CPUs into N virtual nodes, modelled on Hyrise's fake NUMA topology: schedulers, placers and
 * tests see N nodes, while memory operations act on the real node behind each virtual one (the node of its first
 * CPU). Lets every NUMA code path run on a one-node machine, and says so.
 */
public final class FakeTopology {
    /** Nominal distance between two virtual nodes that share a physical node. */
    public static final int VIRTUAL_REMOTE_DISTANCE = 20;

    private FakeTopology() {
    }

    public static Topology split(Topology base, int virtualNodes) {
        int[] cpus = base.cpus().toArray();
        if (virtualNodes < 1) {
            throw new IllegalArgumentException("a fake topology needs at least 1 node, got " + virtualNodes);
        }
        if (virtualNodes > cpus.length) {
            throw new IllegalArgumentException("a fake topology with " + virtualNodes + " nodes needs at least "
                    + virtualNodes + " CPUs; this process may use " + cpus.length + " (" + base.cpus() + ")");
        }
        List<CpuSet> chunks = new ArrayList<>();
        int start = 0;
        for (int v = 0; v < virtualNodes; v++) {
            int size = cpus.length / virtualNodes + (v < cpus.length % virtualNodes ? 1 : 0);
            int[] chunk = new int[size];
            System.arraycopy(cpus, start, chunk, 0, size);
            chunks.add(CpuSet.of(chunk));
            start += size;
        }
        int[] physical = new int[virtualNodes];
        Map<Integer, Integer> sharing = new HashMap<>();
        for (int v = 0; v < virtualNodes; v++) {
            int realNode = base.nodeOfCpu(chunks.get(v).first());
            physical[v] = base.physicalNodeOf(realNode);
            sharing.merge(physical[v], 1, Integer::sum);
        }
        List<NumaNode> nodes = new ArrayList<>();
        for (int v = 0; v < virtualNodes; v++) {
            NumaNode real = base.node(base.nodeOfCpu(chunks.get(v).first()));
            int share = sharing.get(physical[v]);
            nodes.add(new NumaNode(v, physical[v], chunks.get(v), real.memoryBytes() / share,
                    real.freeBytes() / share));
        }
        int[][] distances = new int[virtualNodes][virtualNodes];
        for (int i = 0; i < virtualNodes; i++) {
            for (int j = 0; j < virtualNodes; j++) {
                int realI = base.nodeOfCpu(chunks.get(i).first());
                int realJ = base.nodeOfCpu(chunks.get(j).first());
                distances[i][j] = i == j ? 10
                        : realI == realJ ? VIRTUAL_REMOTE_DISTANCE : base.distance(realI, realJ);
            }
        }
        String note = virtualNodes + " virtual nodes over " + base.kind().label() + " topology with "
                + base.nodeCount() + " node(s); memory of virtual node v goes to physical node "
                + java.util.Arrays.toString(physical) + "[v]"
                + (base.placementSupported() ? "" : "; policies are not applied: " + base.note());
        return new Topology(base.placementSupported() ? TopologyKind.FAKE : TopologyKind.UNAVAILABLE, nodes,
                distances, note);
    }
}
