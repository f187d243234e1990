package io.locusdb.bench.sim;

import io.locusdb.natives.topology.CpuSet;
import io.locusdb.natives.topology.NumaNode;
import io.locusdb.natives.topology.Topology;
import io.locusdb.natives.topology.TopologyKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A multi-socket machine as the simulator sees it: nodes with hardware threads and a memory controller each, and
 * paths between nodes at one of three distances (local, one hop, the most hops), each with an idle latency and a
 * bandwidth.
 *
 * <p>Model assumptions, since no table gives them: one thread streams from local memory at
 * {@code threadBandwidth}; from a node {@code h} hops away it streams at that rate scaled by local/remote latency
 * (a thread keeps the same number of cache misses in flight, so its bandwidth falls with latency); the path to a
 * remote node carries at most its hop bandwidth, shared by every thread reading over it (paths do not share links
 * with each other).
 *
 * @param hopLevel            for each pair of nodes: 0 local, 1 one hop, 2 the most hops
 * @param latencyNanos        idle latency per level
 * @param bandwidth           per level: level 0 the node's local memory bandwidth, levels 1 and 2 a path's bandwidth
 *                            (bytes per second)
 * @param threadBandwidth     one thread's local streaming bandwidth (bytes per second)
 * @param stealingThreshold   the adaptive stealing threshold of the machine (bytes per second)
 */
public record MachineModel(String name, int nodes, int threadsPerNode, int[][] hopLevel, double[] latencyNanos,
                           double[] bandwidth, double threadBandwidth, double stealingThreshold,
                           double moveMicrosPerPage, double partitionMicrosPerPage) {
    public MachineModel {
        if (nodes < 1 || threadsPerNode < 1) {
            throw new IllegalArgumentException("a machine needs nodes and threads, got " + nodes + " x "
                    + threadsPerNode);
        }
        if (hopLevel.length != nodes || Arrays.stream(hopLevel).anyMatch(row -> row.length != nodes)) {
            throw new IllegalArgumentException("the hop matrix must be " + nodes + " x " + nodes);
        }
        if (latencyNanos.length != 3 || bandwidth.length != 3) {
            throw new IllegalArgumentException("latency and bandwidth are given for local, one hop and max hops");
        }
        for (double v : bandwidth) {
            if (!(v > 0)) {
                throw new IllegalArgumentException("bandwidths must be positive: " + Arrays.toString(bandwidth));
            }
        }
        if (!(threadBandwidth > 0 && stealingThreshold > 0)) {
            throw new IllegalArgumentException("thread bandwidth and stealing threshold must be positive");
        }
    }

    /** The preset measured on the machine the simulator runs on (see {@link HostMeasurement}). */
    public static final String HERE = "here";

    private static final double GB = 1e9;
    private static final double MB = 1e6;

    /** Table 2's first server: 4 × 15-core Xeon E7-4880 v2, fully connected (every remote node one hop away). */
    public static MachineModel fourSockets() {
        return new MachineModel("4x15 (Xeon E7-4880 v2)", 4, 15, fullyConnected(4), new double[] {108, 170, 170},
                new double[] {70 * GB, 12.5 * GB, 12.5 * GB}, threadBandwidth(70 * GB, 15), 1200 * MB, 59, 109);
    }

    /**
     * Table 2's second server: 8 × 15-core Xeon E7-8880 v2. Three links per socket: a ring with a chord to the
     * opposite socket, so the most hops are two (the paper gives only one-hop and max-hop figures).
     */
    public static MachineModel eightSockets() {
        int[][] level = new int[8][8];
        for (int a = 0; a < 8; a++) {
            for (int b = 0; b < 8; b++) {
                int d = Math.floorMod(b - a, 8);
                level[a][b] = a == b ? 0 : (d == 1 || d == 7 || d == 4) ? 1 : 2;
            }
        }
        return new MachineModel("8x15 (Xeon E7-8880 v2)", 8, 15, level, new double[] {110, 320, 390},
                new double[] {70 * GB, 10.5 * GB, 9.5 * GB}, threadBandwidth(70 * GB, 15), 550 * MB, 63, 123);
    }

    /**
     * Table 2's third server: the 32-socket SGI UV 300H, 18 cores per socket. Four sockets share a chassis (one hop
     * between them); other chassis are reached over the NUMAlink fabric at the max-hop figures.
     */
    public static MachineModel thirtyTwoSockets() {
        int[][] level = new int[32][32];
        for (int a = 0; a < 32; a++) {
            for (int b = 0; b < 32; b++) {
                level[a][b] = a == b ? 0 : a / 4 == b / 4 ? 1 : 2;
            }
        }
        return new MachineModel("32x18 (SGI UV 300H, Xeon E7-8890 v3)", 32, 18, level, new double[] {120, 320, 590},
                new double[] {45.5 * GB, 15 * GB, 7.3 * GB}, threadBandwidth(45.5 * GB, 18), 230 * MB, 60, 129);
    }

    /**
     * A machine like this one split into {@code nodes} fake nodes (the {@code fake:N} topology): remote memory
     * is the same memory, so every level has local latency and bandwidth, split between the nodes.
     */
    public static MachineModel fake(String name, int nodes, int threadsPerNode, double machineBandwidth,
                                    double threadBandwidth, double stealingThreshold, double moveMicrosPerPage,
                                    double partitionMicrosPerPage) {
        double perNode = machineBandwidth / nodes;
        return new MachineModel(name, nodes, threadsPerNode, fullyConnected(nodes), new double[] {100, 100, 100},
                new double[] {perNode, perNode, perNode}, threadBandwidth, stealingThreshold, moveMicrosPerPage,
                partitionMicrosPerPage);
    }

    /**
     * One thread's streaming bandwidth when the table gives only a socket's: about half the cores saturate a
     * socket's controllers on these Xeons (assumption, see the class comment).
     */
    private static double threadBandwidth(double socketBandwidth, int cores) {
        return socketBandwidth / Math.max(1, cores / 2.0);
    }

    /** The hop levels of {@code nodes} nodes that are all one hop apart. */
    public static int[][] fullyConnected(int nodes) {
        int[][] level = new int[nodes][nodes];
        for (int a = 0; a < nodes; a++) {
            for (int b = 0; b < nodes; b++) {
                level[a][b] = a == b ? 0 : 1;
            }
        }
        return level;
    }

    public static MachineModel preset(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "4x15", "4" -> fourSockets();
            case "8x15", "8" -> eightSockets();
            case "32x18", "32" -> thirtyTwoSockets();
            default -> throw new IllegalArgumentException("unknown machine preset '" + name
                    + "' (expected 4x15, 8x15, 32x18 or here)");
        };
    }

    public int level(int from, int to) {
        return hopLevel[from][to];
    }

    /** What one thread on {@code from} streams from memory on {@code to} with nothing else running. */
    public double threadBandwidth(int from, int to) {
        int level = hopLevel[from][to];
        return threadBandwidth * latencyNanos[0] / latencyNanos[level];
    }

    public double localBandwidth() {
        return bandwidth[0];
    }

    public double pathBandwidth(int from, int to) {
        return bandwidth[hopLevel[from][to]];
    }

    /**
     * The machine as the engine's topology type (CPU {@code n * threadsPerNode + k} is thread k of node n,
     * distances 10 / 20 / 30 by level), for the policies that take one, such as the elastic core allocation.
     */
    public Topology topology() {
        List<NumaNode> list = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            list.add(new NumaNode(n, 0, CpuSet.range(n * threadsPerNode, (n + 1) * threadsPerNode), 0, 0));
        }
        int[][] distances = new int[nodes][nodes];
        for (int a = 0; a < nodes; a++) {
            for (int b = 0; b < nodes; b++) {
                distances[a][b] = 10 * (1 + hopLevel[a][b]);
            }
        }
        return new Topology(TopologyKind.FAKE, list, distances, "simulated " + name);
    }

    public int threads() {
        return nodes * threadsPerNode;
    }

    /** Nodes other than {@code node}, nearest first (ties by number after {@code node}, wrapping). */
    public int[] stealingOrder(int node) {
        Integer[] others = new Integer[nodes - 1];
        int k = 0;
        for (int i = 1; i < nodes; i++) {
            others[k++] = (node + i) % nodes;
        }
        Arrays.sort(others, (a, b) -> {
            int c = Integer.compare(hopLevel[node][a], hopLevel[node][b]);
            return c != 0 ? c : Integer.compare(Math.floorMod(a - node, nodes), Math.floorMod(b - node, nodes));
        });
        return Arrays.stream(others).mapToInt(Integer::intValue).toArray();
    }

    public String describe() {
        return String.format(Locale.ROOT, "%s: %d nodes x %d threads, local %.1f GB/s per node, 1 hop %.1f GB/s"
                        + " %.0f ns, max hops %.1f GB/s %.0f ns, thread %.1f GB/s, stealing threshold %.0f MB/s",
                name, nodes, threadsPerNode, bandwidth[0] / GB, bandwidth[1] / GB, latencyNanos[1],
                bandwidth[2] / GB, latencyNanos[2], threadBandwidth / GB, stealingThreshold / MB);
    }
}
