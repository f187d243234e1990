package io.locusdb.core;

import io.locusdb.core.durable.Durability;
import io.locusdb.core.exec.ExecutorConfig;
import io.locusdb.core.exec.stealing.Calibration;
import io.locusdb.core.exec.stealing.StealingPolicies;
import io.locusdb.core.placer.PlacerParameters;
import io.locusdb.core.placer.PlacerSettings;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * How an embedded database is opened: the topology it places data and workers on, how the executor is set up, and
 * the threads loaders use. {@link #defaults()} reads the topology from {@code LOCUS_TOPOLOGY}/{@code
 * -Dlocus.topology} (the real machine when unset) and uses the calibration {@code ./locus calibrate} stored, if any.
 *
 * @param calibration the machine's measured stealing threshold and move/repartition speeds; null for the built-in
 *                    defaults
 * @param deltaMerge  when the background delta merge folds a part's inserted (and deleted) rows into its main
 *                    part; null for none
 * @param placer      whether and how the placer adapts the placement to the load
 * @param durability  the data directory and its log and checkpoint settings; null keeps everything in memory only
 */
public record LocusConfig(Topology topology, UnaryOperator<ExecutorConfig.Builder> executorSetup, int loadThreads,
                          int batchRows, Calibration calibration, DeltaMerge deltaMerge, PlacerSettings placer,
                          Durability durability) {
    /**
     * The delta merge runs every {@code intervalMillis} and rebuilds a part once its delta holds at least
     * {@code minRows} changed rows and {@code fraction} of its main rows.
     */
    public record DeltaMerge(long minRows, double fraction, long intervalMillis) {
        public static final DeltaMerge DEFAULT = new DeltaMerge(100_000, 0.1, 1_000);

        public DeltaMerge {
            if (minRows < 1 || fraction < 0 || intervalMillis < 1) {
                throw new IllegalArgumentException("delta merge: minRows >= 1, fraction >= 0, interval >= 1 ms");
            }
        }
    }

    public LocusConfig {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(executorSetup, "executorSetup");
        Objects.requireNonNull(placer, "placer");
        if (loadThreads < 1) {
            throw new IllegalArgumentException("loadThreads must be at least 1, got " + loadThreads);
        }
        if (batchRows < 64) {
            throw new IllegalArgumentException("batchRows must be at least 64, got " + batchRows);
        }
    }

    public static LocusConfig defaults() {
        return of(Topologies.fromEnvironment()).withStoredCalibration();
    }

    /** A topology with built-in defaults: no stored calibration is read (tests stay independent of the machine). */
    public static LocusConfig of(Topology topology) {
        return new LocusConfig(topology, b -> b, Math.max(1, topology.cpuCount()), 4096, null, DeltaMerge.DEFAULT,
                PlacerSettings.DEFAULT, null);
    }

    /** Adjusts the executor (threads, stealing policy, pinning); applied to a builder for this topology. */
    public LocusConfig withExecutor(UnaryOperator<ExecutorConfig.Builder> setup) {
        return new LocusConfig(topology, setup, loadThreads, batchRows, calibration, deltaMerge, placer, durability);
    }

    public LocusConfig withLoadThreads(int threads) {
        return new LocusConfig(topology, executorSetup, threads, batchRows, calibration, deltaMerge, placer,
                durability);
    }

    public LocusConfig withBatchRows(int rows) {
        return new LocusConfig(topology, executorSetup, loadThreads, rows, calibration, deltaMerge, placer, durability);
    }

    public LocusConfig withCalibration(Calibration measured) {
        return new LocusConfig(topology, executorSetup, loadThreads, batchRows, measured, deltaMerge, placer,
                durability);
    }

    /** Another delta merge setting; null turns the background merge off. */
    public LocusConfig withDeltaMerge(DeltaMerge setting) {
        return new LocusConfig(topology, executorSetup, loadThreads, batchRows, calibration, setting, placer,
                durability);
    }

    /** With a data directory (null: in memory only, nothing survives the process). */
    public LocusConfig withDurability(Durability setting) {
        return new LocusConfig(topology, executorSetup, loadThreads, batchRows, calibration, deltaMerge, placer,
                setting);
    }

    public LocusConfig withPlacer(PlacerSettings setting) {
        return new LocusConfig(topology, executorSetup, loadThreads, batchRows, calibration, deltaMerge, setting,
                durability);
    }

    /** The placer's parameters on this machine: its threads per node, and the calibrated speeds if measured. */
    public PlacerParameters placerParameters() {
        int threadsPerNode = Math.max(1, topology.cpuCount() / Math.max(1, topology.nodeCount()));
        double move = calibration != null && calibration.tableMoveMicrosPerPage() > 0
                ? calibration.tableMoveMicrosPerPage() : PlacerSettings.DEFAULT_MOVE_MICROS_PER_PAGE;
        double partition = calibration != null && calibration.repartitionMicrosPerPage() > 0
                ? calibration.repartitionMicrosPerPage() : PlacerSettings.DEFAULT_PARTITION_MICROS_PER_PAGE;
        return placer.parameters(threadsPerNode, move, partition);
    }

    /**
     * With the calibration stored at {@link Calibration#defaultPath()}, or none when nothing is stored there. A
     * damaged file is an error naming it: a database should not quietly run on figures it could not read.
     */
    public LocusConfig withStoredCalibration() {
        Path file = Calibration.defaultPath();
        try {
            return withCalibration(Calibration.load(file).orElse(null));
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    public Optional<Calibration> storedCalibration() {
        return Optional.ofNullable(calibration);
    }

    /** Where the calibration came from, in words, for logs and {@code ./locus topology}. */
    public String calibrationSummary() {
        return calibration != null ? "calibrated: " + calibration
                : "not calibrated (no " + Calibration.defaultPath() + "): built-in stealing threshold "
                        + (long) (ExecutorConfig.DEFAULT_STEALING_THRESHOLD / 1e6) + " MB/s; run ./locus calibrate";
    }

    ExecutorConfig executorConfig() {
        ExecutorConfig.Builder builder = ExecutorConfig.builder(topology);
        if (calibration != null) {
            // The caller's setup comes after, so an explicit stealing policy still wins.
            builder.stealing(StealingPolicies.adaptive(calibration.stealingThresholdBytesPerSecond()));
        }
        return executorSetup.apply(builder).build();
    }
}
