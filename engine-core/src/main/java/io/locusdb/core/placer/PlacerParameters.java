package io.locusdb.core.placer;

/**
 * The Data Placer's settings (adaptive-placement paper, Table 1) and the machine facts it weighs them against.
 *
 * @param periodMicros           c_p: how often the placer decides (and the window of the recent averages)
 * @param eligibility            c_e: how far a unit's past average may stray from its recent one, as a fraction of
 *                               the recent one, for the unit to count as stable enough to move or partition
 * @param imbalance              c_i: the smallest CPU imbalance between two nodes worth acting on, as a fraction
 *                               of a node's hardware threads
 * @param saturation             c_s: the CPU utilization above which a node counts as saturated, as a fraction of
 *                               its hardware threads; only a saturated node gives work away
 * @param moveMicrosPerPage      measured speed of moving a table part (calibration)
 * @param partitionMicrosPerPage measured speed of repartitioning (calibration)
 * @param threadsPerNode         hardware threads of one node
 * @param maxMemoryPerNode       the memory throughput one node sustains (bytes per second); no decision may push a
 *                               node's estimated throughput past it
 */
public record PlacerParameters(long periodMicros, double eligibility, double imbalance, double saturation,
                               double moveMicrosPerPage, double partitionMicrosPerPage, int threadsPerNode,
                               double maxMemoryPerNode) {
    public static final long DEFAULT_PERIOD_MICROS = 1_000_000;
    public static final double DEFAULT_ELIGIBILITY = 0.30;
    public static final double DEFAULT_IMBALANCE = 0.40;
    public static final double DEFAULT_SATURATION = 0.70;

    public PlacerParameters {
        if (periodMicros <= 0 || threadsPerNode <= 0 || maxMemoryPerNode <= 0) {
            throw new IllegalArgumentException("period, threads per node and memory throughput must be positive");
        }
        for (double fraction : new double[] {eligibility, imbalance, saturation}) {
            if (!(fraction >= 0 && fraction <= 1)) {
                throw new IllegalArgumentException("c_e, c_i and c_s are fractions between 0 and 1: " + fraction);
            }
        }
        if (moveMicrosPerPage < 0 || partitionMicrosPerPage < 0) {
            throw new IllegalArgumentException("move and partition speeds cannot be negative");
        }
    }

    /** Table 1's values for a machine with the given threads per node, memory throughput and speeds. */
    public static PlacerParameters defaults(int threadsPerNode, double maxMemoryPerNode, double moveMicrosPerPage,
                                            double partitionMicrosPerPage) {
        return new PlacerParameters(DEFAULT_PERIOD_MICROS, DEFAULT_ELIGIBILITY, DEFAULT_IMBALANCE,
                DEFAULT_SATURATION, moveMicrosPerPage, partitionMicrosPerPage, threadsPerNode, maxMemoryPerNode);
    }
}
