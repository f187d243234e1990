package io.locusdb.bench.sim.eris;

import io.locusdb.bench.sim.MachineModel;
import java.util.Locale;

/**
 * The three machines of the ERIS paper (Tables 1 and 2) as its figures need them: nodes, cores, last-level cache per
 * node, and per distance class the read bandwidth and latency the paper measured. {@code hops[a][b]} is the distance
 * class between two nodes (0 local); {@code linkBandwidth} is what one node can read from all other nodes together
 * (its links, or its hub's connection).
 *
 * <p>Assumption (not in the tables): one core streams from local memory at {@code coreBandwidth}; from farther
 * away at that rate times local latency over remote latency (a core keeps the same number of misses in flight).
 */
public record ErisMachine(String name, int nodes, int coresPerNode, double llcBytes, int[][] hops,
                          double[] bandwidth, double[] latencyNanos, double linkBandwidth, double coreBandwidth) {
    private static final double GB = 1e9;
    private static final double MB = 1024 * 1024;

    /** 4 × Xeon E7-4860 (10 cores each), fully connected QPI. */
    public static ErisMachine intel() {
        return new ErisMachine("Intel 4x10 (Xeon E7-4860)", 4, 10, 24 * MB, MachineModel.fullyConnected(4),
                new double[] {26.7 * GB, 10.7 * GB}, new double[] {129, 193}, 3 * 12.8 * GB, 26.7 * GB / 5);
    }

    /**
     * 4 × Opteron 6274, two nodes per package: 8 nodes of 8 cores. The package's two nodes are one full-width hop
     * apart, the others one or two split-link hops (the ring of packages with a chord, as Figure 2(b) draws it).
     */
    public static ErisMachine amd() {
        int[][] hops = new int[8][8];
        for (int a = 0; a < 8; a++) {
            for (int b = 0; b < 8; b++) {
                int pa = a / 2;
                int pb = b / 2;
                hops[a][b] = a == b ? 0 : pa == pb ? 1 : Math.floorMod(pb - pa, 4) == 2 ? 3 : 2;
            }
        }
        return new ErisMachine("AMD 8x8 (Opteron 6274)", 8, 8, 6 * MB, hops,
                new double[] {16.4 * GB, 5.8 * GB, 4.2 * GB, 3.7 * GB}, new double[] {85, 136, 152, 196},
                4 * 4.2 * GB, 16.4 * GB / 4);
    }

    /**
     * SGI UV 2000: 64 × Xeon E5-4650L (8 cores), two per blade on a HARP hub, blades in a NUMAlink hypercube:
     * the other processor of the blade, then one to four NUMAlink hops (by hypercube distance of the blades).
     */
    public static ErisMachine sgi() {
        int[][] hops = new int[64][64];
        for (int a = 0; a < 64; a++) {
            for (int b = 0; b < 64; b++) {
                int blades = Integer.bitCount((a / 2) ^ (b / 2));
                hops[a][b] = a == b ? 0 : blades == 0 ? 1 : 1 + Math.min(4, (blades + 1) / 2);
            }
        }
        return new ErisMachine("SGI UV 2000 64x8 (Xeon E5-4650L)", 64, 8, 20 * MB, hops,
                new double[] {36.2 * GB, 9.5 * GB, 7.5 * GB, 7.5 * GB, 7.1 * GB, 6.5 * GB},
                new double[] {81, 400, 510, 630, 750, 870}, 16 * GB, 36.2 * GB / 4);
    }

    public static ErisMachine preset(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "intel", "4" -> intel();
            case "amd", "8" -> amd();
            case "sgi", "64" -> sgi();
            default -> throw new IllegalArgumentException("unknown ERIS machine '" + name + "' (intel, amd, sgi)");
        };
    }

    public int cores() {
        return nodes * coresPerNode;
    }

    /** Average latency of a read from {@code from} to memory spread evenly over every node. */
    public double interleavedLatency(int from) {
        double sum = 0;
        for (int to = 0; to < nodes; to++) {
            sum += latencyNanos[hops[from][to]];
        }
        return sum / nodes;
    }

    /**
     * What node {@code from} can read from all other nodes together when every node does the same: its link
     * capacity divided by the links a remote read crosses on average (a read {@code k} distance classes away
     * crosses {@code k} links, and each of them carries other nodes' reads too).
     */
    public double remoteBandwidth(int from) {
        double crossings = 0;
        for (int to = 0; to < nodes; to++) {
            crossings += to == from ? 0 : hops[from][to];
        }
        return nodes == 1 ? linkBandwidth : linkBandwidth / (crossings / (nodes - 1));
    }

    /** One core's streaming bandwidth from memory on {@code to}. */
    public double coreBandwidth(int from, int to) {
        return coreBandwidth * latencyNanos[0] / latencyNanos[hops[from][to]];
    }
}
