package io.locusdb.natives.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The NUMA nodes this process may use: their CPUs, memory and distances. Node ids are dense (0..n-1); each maps
 * to the physical node its memory is bound to. Immutable; CPU-to-node lookups are array reads, so callers on hot
 * paths use {@link #nodeOfCpu(int)} instead of libnuma's ~185 ns {@code numa_node_of_cpu}.
 */
public final class Topology {
    private final TopologyKind kind;
    private final List<NumaNode> nodes;
    private final int[][] distances;
    private final int[] nodeOfCpu;
    private final CpuSet cpus;
    private final String note;

    public Topology(TopologyKind kind, List<NumaNode> nodes, int[][] distances, String note) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a topology needs at least one node");
        }
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).id() != i) {
                throw new IllegalArgumentException("node ids must be dense 0..n-1; node at " + i + " has id "
                        + nodes.get(i).id());
            }
        }
        if (distances.length != nodes.size()) {
            throw new IllegalArgumentException("distance matrix is " + distances.length + " rows for "
                    + nodes.size() + " nodes");
        }
        for (int[] row : distances) {
            if (row.length != nodes.size()) {
                throw new IllegalArgumentException("distance matrix row of " + row.length + " for "
                        + nodes.size() + " nodes");
            }
        }
        CpuSet all = CpuSet.empty();
        for (NumaNode node : nodes) {
            if (!all.intersect(node.cpus()).isEmpty()) {
                throw new IllegalArgumentException("CPUs " + all.intersect(node.cpus()) + " belong to two nodes");
            }
            all = all.union(node.cpus());
        }
        int[] byCpu = new int[all.limit()];
        Arrays.fill(byCpu, -1);
        for (NumaNode node : nodes) {
            node.cpus().stream().forEach(cpu -> byCpu[cpu] = node.id());
        }
        this.kind = kind;
        this.nodes = List.copyOf(nodes);
        this.distances = Arrays.stream(distances).map(int[]::clone).toArray(int[][]::new);
        this.nodeOfCpu = byCpu;
        this.cpus = all;
        this.note = note == null ? "" : note;
    }

    public TopologyKind kind() {
        return kind;
    }

    public boolean isFake() {
        return kind == TopologyKind.FAKE;
    }

    /** True when memory policies are actually applied by the kernel (possibly onto fewer physical nodes). */
    public boolean placementSupported() {
        return kind != TopologyKind.UNAVAILABLE;
    }

    /** A human note on how the topology was obtained (fake mapping, restriction, or why NUMA is unavailable). */
    public String note() {
        return note;
    }

    public int nodeCount() {
        return nodes.size();
    }

    public List<NumaNode> nodes() {
        return nodes;
    }

    public NumaNode node(int id) {
        checkNode(id);
        return nodes.get(id);
    }

    public int distance(int from, int to) {
        checkNode(from);
        checkNode(to);
        return distances[from][to];
    }

    /** All CPUs the process may use. */
    public CpuSet cpus() {
        return cpus;
    }

    public int cpuCount() {
        return cpus.size();
    }

    /** The logical node of a CPU, or -1 for a CPU outside this topology. */
    public int nodeOfCpu(int cpu) {
        return cpu >= 0 && cpu < nodeOfCpu.length ? nodeOfCpu[cpu] : -1;
    }

    public int physicalNodeOf(int node) {
        return node(node).physicalNode();
    }

    /** Physical node ids for logical ones, in the same order. */
    public int[] physicalNodesOf(int... logicalNodes) {
        int[] out = new int[logicalNodes.length];
        for (int i = 0; i < logicalNodes.length; i++) {
            out[i] = physicalNodeOf(logicalNodes[i]);
        }
        return out;
    }

    /** Logical nodes backed by the physical node {@code physical} (several for a fake topology). */
    public int[] nodesOnPhysical(int physical) {
        return nodes.stream().filter(n -> n.physicalNode() == physical).mapToInt(NumaNode::id).toArray();
    }

    public void checkNode(int id) {
        if (id < 0 || id >= nodes.size()) {
            throw new IllegalArgumentException("node " + id + " does not exist in this " + kind.label()
                    + " topology (nodes 0.." + (nodes.size() - 1) + ")");
        }
    }

    /** Multi-line description for people (the {@code ./locus topology} output). */
    public String describe() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "topology: %s, %d node%s, %d CPU%s%n", kind.label(), nodeCount(),
                nodeCount() == 1 ? "" : "s", cpuCount(), cpuCount() == 1 ? "" : "s"));
        out.append("placement: ").append(placementDescription()).append(System.lineSeparator());
        if (!note.isEmpty()) {
            out.append("note: ").append(note).append(System.lineSeparator());
        }
        out.append(String.format(Locale.ROOT, "%-6s %-9s %-20s %14s %14s%n", "node", "physical", "cpus",
                "memory MiB", "free MiB"));
        for (NumaNode node : nodes) {
            out.append(String.format(Locale.ROOT, "%-6d %-9d %-20s %14d %14d%n", node.id(), node.physicalNode(),
                    node.cpus(), node.memoryBytes() >> 20, node.freeBytes() >> 20));
        }
        out.append("distances:").append(System.lineSeparator());
        out.append(String.format(Locale.ROOT, "%6s", "node"));
        for (NumaNode node : nodes) {
            out.append(String.format(Locale.ROOT, "%5d", node.id()));
        }
        out.append(System.lineSeparator());
        for (int i = 0; i < nodeCount(); i++) {
            out.append(String.format(Locale.ROOT, "%6d", i));
            for (int j = 0; j < nodeCount(); j++) {
                out.append(String.format(Locale.ROOT, "%5d", distances[i][j]));
            }
            out.append(System.lineSeparator());
        }
        return out.toString();
    }

    private String placementDescription() {
        return switch (kind) {
            case REAL -> "real (memory is bound to the node asked for)";
            case FAKE -> "fake (virtual nodes; memory is bound to physical node(s) "
                    + CpuSet.of(nodes.stream().mapToInt(NumaNode::physicalNode).toArray()) + ")";
            case CONFIGURED -> "configured (memory is bound to the physical nodes named in the spec)";
            case UNAVAILABLE -> "unavailable (policies are recorded but not applied)";
        };
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        for (NumaNode node : nodes) {
            parts.add(node.id() + "@" + node.physicalNode() + ":" + node.cpus());
        }
        return "Topology[" + kind.label() + " " + String.join(" ", parts) + "]";
    }
}
