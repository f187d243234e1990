package io.locusdb.natives.topology;

import io.locusdb.natives.ffm.LibNuma;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Discovers the real topology from libnuma, restricted to the CPUs and memory nodes the process may use. Without
 * libnuma (or kernel NUMA support) it returns a single-node {@link TopologyKind#UNAVAILABLE} topology and logs one
 * line saying why — it never fails.
 */
public final class TopologyDiscovery {
    private static final System.Logger LOG = System.getLogger(TopologyDiscovery.class.getName());
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private TopologyDiscovery() {
    }

    public static Topology discover() {
        CpuSet allowed = ProcessLimits.allowedCpus();
        if (!LibNuma.isAvailable()) {
            String reason = LibNuma.unavailableReason();
            if (WARNED.compareAndSet(false, true)) {
                LOG.log(System.Logger.Level.WARNING, "NUMA placement unavailable, running as one node: " + reason);
            }
            return singleNode(allowed, reason);
        }
        return discoverWithLibNuma(allowed);
    }

    static Topology singleNode(CpuSet allowed, String reason) {
        long[] memory = ProcessLimits.systemMemory();
        NumaNode only = new NumaNode(0, 0, allowed, memory[0], memory[1]);
        return new Topology(TopologyKind.UNAVAILABLE, List.of(only), new int[][] {{10}}, reason);
    }

    private static Topology discoverWithLibNuma(CpuSet allowed) {
        int maxNode = LibNuma.maxNode();
        int cpuCount = Math.max(LibNuma.configuredCpus(), allowed.limit());
        List<List<Integer>> cpusByPhysical = new ArrayList<>();
        for (int n = 0; n <= maxNode; n++) {
            cpusByPhysical.add(new ArrayList<>());
        }
        for (int cpu = 0; cpu < cpuCount; cpu++) {
            if (!allowed.contains(cpu)) {
                continue;
            }
            int node = LibNuma.nodeOfCpu(cpu);
            if (node >= 0 && node <= maxNode) {
                cpusByPhysical.get(node).add(cpu);
            }
        }
        CpuSet memsAllowed = ProcessLimits.allowedMemoryNodes().orElse(CpuSet.range(0, maxNode + 1));
        List<String> notes = new ArrayList<>();
        List<Integer> physicalIds = new ArrayList<>();
        List<CpuSet> cpuSets = new ArrayList<>();
        for (int n = 0; n <= maxNode; n++) {
            List<Integer> cpus = cpusByPhysical.get(n);
            if (!cpus.isEmpty()) {
                physicalIds.add(n);
                cpuSets.add(CpuSet.of(cpus.stream().mapToInt(Integer::intValue).toArray()));
            } else if (memsAllowed.contains(n) && LibNuma.nodeSize(n)[0] > 0) {
                notes.add("memory-only node " + n + " is not used (no CPUs to run its tasks)");
            }
        }
        if (physicalIds.isEmpty()) {
            return singleNode(allowed, "libnuma reported no node for the allowed CPUs " + allowed);
        }
        List<NumaNode> nodes = new ArrayList<>();
        for (int i = 0; i < physicalIds.size(); i++) {
            int physical = physicalIds.get(i);
            int memoryNode = physical;
            long[] size = {0, 0};
            if (memsAllowed.contains(physical)) {
                size = LibNuma.nodeSize(physical);
            } else {
                memoryNode = nearestAllowedMemoryNode(physical, memsAllowed, maxNode);
                notes.add("node " + physical + " may not allocate its own memory (Mems_allowed "
                        + memsAllowed + "); its memory goes to node " + memoryNode);
            }
            nodes.add(new NumaNode(i, memoryNode, cpuSets.get(i), Math.max(0, size[0]), size[1]));
        }
        int[][] distances = new int[nodes.size()][nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            for (int j = 0; j < nodes.size(); j++) {
                distances[i][j] = LibNuma.distance(physicalIds.get(i), physicalIds.get(j));
            }
        }
        if (physicalIds.size() <= maxNode) {
            notes.add(0, "restricted to nodes " + CpuSet.of(physicalIds.stream().mapToInt(Integer::intValue)
                    .toArray()) + " of 0-" + maxNode + " by the process's CPU affinity");
        }
        return new Topology(TopologyKind.REAL, nodes, distances, String.join("; ", notes));
    }

    private static int nearestAllowedMemoryNode(int physical, CpuSet memsAllowed, int maxNode) {
        int best = -1;
        int bestDistance = Integer.MAX_VALUE;
        for (int n = 0; n <= maxNode; n++) {
            if (memsAllowed.contains(n)) {
                int d = LibNuma.distance(physical, n);
                if (d > 0 && d < bestDistance) {
                    best = n;
                    bestDistance = d;
                }
            }
        }
        if (best < 0) {
            throw new IllegalStateException("no memory node is allowed for this process (Mems_allowed "
                    + memsAllowed + ")");
        }
        return best;
    }
}
