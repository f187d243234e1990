package io.locusdb.core;

import io.locusdb.core.exec.ExecutorConfig;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * How an embedded database is opened: the topology it places data and workers on, how the executor is set up, and
 * the threads loaders use. {@link #defaults()} reads the topology from {@code LOCUS_TOPOLOGY}/{@code
 * -Dlocus.topology} (the real machine when unset).
 */
public record LocusConfig(Topology topology, UnaryOperator<ExecutorConfig.Builder> executorSetup, int loadThreads,
                          int batchRows) {
    public LocusConfig {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(executorSetup, "executorSetup");
        if (loadThreads < 1) {
            throw new IllegalArgumentException("loadThreads must be at least 1, got " + loadThreads);
        }
        if (batchRows < 64) {
            throw new IllegalArgumentException("batchRows must be at least 64, got " + batchRows);
        }
    }

    public static LocusConfig defaults() {
        return of(Topologies.fromEnvironment());
    }

    public static LocusConfig of(Topology topology) {
        return new LocusConfig(topology, b -> b, Math.max(1, topology.cpuCount()), 4096);
    }

    /** Adjusts the executor (threads, stealing policy, pinning); applied to a builder for this topology. */
    public LocusConfig withExecutor(UnaryOperator<ExecutorConfig.Builder> setup) {
        return new LocusConfig(topology, setup, loadThreads, batchRows);
    }

    public LocusConfig withLoadThreads(int threads) {
        return new LocusConfig(topology, executorSetup, threads, batchRows);
    }

    public LocusConfig withBatchRows(int rows) {
        return new LocusConfig(topology, executorSetup, loadThreads, rows);
    }

    ExecutorConfig executorConfig() {
        return executorSetup.apply(ExecutorConfig.builder(topology)).build();
    }
}
