package io.locusdb.core.exec.elastic;

import java.time.Duration;
import java.util.Objects;

/**
 * Elastic core allocation settings. Defaults are the paper's: idle below 10% average load of the allocated cores,
 * overload above 70%, one core more or less per step, starting from one core.
 */
public record ElasticConfig(CoreAllocationMode mode, double idleThreshold, double overloadThreshold, Duration period,
                            int initialCores) {
    public ElasticConfig {
        Objects.requireNonNull(mode, "mode");
        if (!(idleThreshold >= 0 && idleThreshold < overloadThreshold && overloadThreshold <= 1)) {
            throw new IllegalArgumentException("need 0 <= idle threshold < overload threshold <= 1, got "
                    + idleThreshold + " and " + overloadThreshold);
        }
        if (period == null || period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("elastic period must be positive, got " + period);
        }
        if (initialCores < 1) {
            throw new IllegalArgumentException("initial cores must be at least 1, got " + initialCores);
        }
    }

    public static ElasticConfig of(CoreAllocationMode mode) {
        return new ElasticConfig(mode, 0.10, 0.70, Duration.ofMillis(100), 1);
    }

    public ElasticConfig withPeriod(Duration newPeriod) {
        return new ElasticConfig(mode, idleThreshold, overloadThreshold, newPeriod, initialCores);
    }

    /** Parses "dense", "sparse" or "adaptive" (command-line settings). */
    public static CoreAllocationMode mode(String name) {
        return switch (name.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "dense" -> SequenceAllocation.dense();
            case "sparse" -> SequenceAllocation.sparse();
            case "adaptive", "adaptive-priority" -> new AdaptivePriorityAllocation();
            default -> throw new IllegalArgumentException("unknown core allocation mode '" + name
                    + "' (expected dense, sparse or adaptive)");
        };
    }
}
