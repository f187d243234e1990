package io.locusdb.core.exec;

import io.locusdb.core.exec.TaskClass;

/**
 * The adaptive-placement paper's rule: a class may be stolen across nodes only while its average memory throughput
 * stays below the machine's calibrated threshold. Above it the class is memory-bound enough that a remote worker
 * would mostly add interconnect traffic and load an already saturated memory controller.
 */
public final class AdaptiveStealing implements StealingPolicy {
    private final double threshold;

    public AdaptiveStealing(double thresholdBytesPerSecond) {
        if (!(thresholdBytesPerSecond > 0) || Double.isNaN(thresholdBytesPerSecond)) {
            throw new IllegalArgumentException("stealing threshold must be a positive throughput in bytes/s, got "
                    + thresholdBytesPerSecond);
        }
        this.threshold = thresholdBytesPerSecond;
    }

    @Override
    public boolean maySteal(TaskClass taskClass, int ownerNode, int thiefNode) {
        return taskClass.averageThroughput() < threshold;
    }

    public double thresholdBytesPerSecond() {
        return threshold;
    }

    @Override
    public String describe() {
        return String.format("adaptive (threshold %.1f MB/s)", threshold / 1e6);
    }
}
