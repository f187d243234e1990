package io.locusdb.core.placer;

import io.locusdb.core.storage.placement.MoveStrategy;
import java.util.Objects;

/**
 * How a database runs its placer: whether it places at all (the utilization histories are kept either way, for the
 * system tables and metrics), and the paper's Table 1 parameters. The move and repartition speeds and the node's
 * hardware threads come from the machine (calibration, topology), not from here.
 *
 * @param enabled               whether the placer changes placements on its own
 * @param periodMillis          c_p
 * @param sampleMillis          how often each node's refresher samples the histories (100 ms in the paper)
 * @param eligibility           c_e, a fraction
 * @param imbalance             c_i, a fraction of a node's hardware threads
 * @param saturation            c_s, a fraction of a node's hardware threads
 * @param maxMemoryPerNode      the memory throughput one node sustains, bytes per second; no decision pushes a
 *                              node's estimate past it ({@code Double.POSITIVE_INFINITY}: no limit)
 * @param move                  how the placer's and {@code ALTER TABLE}'s moves carry a part to its node: a copy
 *                              built there (the default: memory peaks at twice the part for the move, readers
 *                              switch at once), or the kernel migrating the pages in place (no extra memory; falls
 *                              back to a copy where {@code move_pages} is not permitted, e.g. in a container)
 */
public record PlacerSettings(boolean enabled, long periodMillis, long sampleMillis, double eligibility,
                             double imbalance, double saturation, double maxMemoryPerNode, MoveStrategy move) {
    /** The paper's parameters, placer on, no memory-throughput limit (none is calibrated yet), moves by copy. */
    public static final PlacerSettings DEFAULT = new PlacerSettings(true, 1_000, 100,
            PlacerParameters.DEFAULT_ELIGIBILITY, PlacerParameters.DEFAULT_IMBALANCE,
            PlacerParameters.DEFAULT_SATURATION, Double.POSITIVE_INFINITY);

    /** Built-in speeds for a machine that was not calibrated: what {@code ./locus calibrate} measures on small VMs. */
    public static final double DEFAULT_MOVE_MICROS_PER_PAGE = 2.0;
    public static final double DEFAULT_PARTITION_MICROS_PER_PAGE = 10.0;

    /** Moves by copy. */
    public PlacerSettings(boolean enabled, long periodMillis, long sampleMillis, double eligibility, double imbalance,
                          double saturation, double maxMemoryPerNode) {
        this(enabled, periodMillis, sampleMillis, eligibility, imbalance, saturation, maxMemoryPerNode,
                MoveStrategy.COPY);
    }

    public PlacerSettings {
        Objects.requireNonNull(move, "move");
        if (periodMillis < 1 || sampleMillis < 1) {
            throw new IllegalArgumentException("placer period and sample interval must be at least 1 ms");
        }
        if (sampleMillis > periodMillis) {
            throw new IllegalArgumentException("the placer samples (every " + sampleMillis + " ms) at least once per"
                    + " period (" + periodMillis + " ms)");
        }
        for (double fraction : new double[] {eligibility, imbalance, saturation}) {
            if (!(fraction >= 0 && fraction <= 1)) {
                throw new IllegalArgumentException("c_e, c_i and c_s are fractions between 0 and 1, got " + fraction);
            }
        }
        if (!(maxMemoryPerNode > 0)) {
            throw new IllegalArgumentException("the memory throughput per node must be positive");
        }
    }

    public PlacerSettings withEnabled(boolean on) {
        return new PlacerSettings(on, periodMillis, sampleMillis, eligibility, imbalance, saturation,
                maxMemoryPerNode, move);
    }

    public PlacerSettings withPeriod(long periodMs, long sampleMs) {
        return new PlacerSettings(enabled, periodMs, sampleMs, eligibility, imbalance, saturation, maxMemoryPerNode,
                move);
    }

    public PlacerSettings withThresholds(double ce, double ci, double cs) {
        return new PlacerSettings(enabled, periodMillis, sampleMillis, ce, ci, cs, maxMemoryPerNode, move);
    }

    public PlacerSettings withMaxMemoryPerNode(double bytesPerSecond) {
        return new PlacerSettings(enabled, periodMillis, sampleMillis, eligibility, imbalance, saturation,
                bytesPerSecond, move);
    }

    public PlacerSettings withMove(MoveStrategy strategy) {
        return new PlacerSettings(enabled, periodMillis, sampleMillis, eligibility, imbalance, saturation,
                maxMemoryPerNode, strategy);
    }

    /** The policy's parameters on a machine with these threads per node and speeds. */
    public PlacerParameters parameters(int threadsPerNode, double moveMicrosPerPage, double partitionMicrosPerPage) {
        return new PlacerParameters(periodMillis * 1000, eligibility, imbalance, saturation, moveMicrosPerPage,
                partitionMicrosPerPage, threadsPerNode,
                Double.isInfinite(maxMemoryPerNode) ? Double.MAX_VALUE : maxMemoryPerNode);
    }
}
