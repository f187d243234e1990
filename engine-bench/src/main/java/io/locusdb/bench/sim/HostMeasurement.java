package io.locusdb.bench.sim;

import io.locusdb.core.exec.ExecutorConfig;
import io.locusdb.core.exec.stealing.Calibration;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * The {@code here} preset: this machine split into fake nodes, with its streaming bandwidth measured now (one
 * thread, then every thread) and the stealing threshold and move and repartition speeds of the last
 * {@code ./locus calibrate} (the engine's defaults when there is none). Remote memory on a fake node is the same
 * memory, so the model gives every distance local latency and bandwidth.
 */
public final class HostMeasurement {
    private static final long BUFFER_BYTES = 256L << 20;
    /** Keeps the sums alive, so that the loops are not optimized away. */
    private static volatile double sink;

    private HostMeasurement() {
    }

    public static MachineModel measure(int nodes) throws IOException {
        int threads = Runtime.getRuntime().availableProcessors();
        if (nodes < 1) {
            throw new IllegalArgumentException("a machine needs a node, got " + nodes);
        }
        double single = streamingBandwidth(1);
        double all = streamingBandwidth(threads);
        Optional<Calibration> calibration = Calibration.load(Calibration.defaultPath());
        double threshold = calibration.map(Calibration::stealingThresholdBytesPerSecond)
                .orElse(ExecutorConfig.DEFAULT_STEALING_THRESHOLD);
        double move = calibration.map(Calibration::tableMoveMicrosPerPage).orElse(4096 / single * 1e6 * 2);
        double partition = calibration.map(Calibration::repartitionMicrosPerPage).orElse(move * 2);
        return MachineModel.fake("here: " + threads + " CPUs as fake:" + nodes, nodes, Math.max(1, threads / nodes),
                Math.max(all, single), single, threshold, move, partition);
    }

    /** Bytes per second {@code threads} threads sum from their own 256 MiB buffers (best of three passes). */
    static double streamingBandwidth(int threads) {
        try (Arena arena = Arena.ofShared()) {
            List<MemorySegment> buffers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                MemorySegment s = arena.allocate(BUFFER_BYTES / threads, 64);
                s.fill((byte) 1);
                buffers.add(s);
            }
            double best = 0;
            for (int pass = 0; pass < 3; pass++) {
                DoubleAdder sums = new DoubleAdder();
                List<Thread> workers = new ArrayList<>();
                long start = System.nanoTime();
                for (MemorySegment s : buffers) {
                    workers.add(Thread.ofPlatform().start(() -> sums.add(sum(s))));
                }
                for (Thread w : workers) {
                    w.join();
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                best = Math.max(best, BUFFER_BYTES / seconds);
                HostMeasurement.sink = sums.sum();
            }
            return best;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring memory bandwidth", e);
        }
    }

    private static long sum(MemorySegment s) {
        long a = 0;
        long b = 0;
        long n = s.byteSize() / 8;
        for (long i = 0; i + 1 < n; i += 2) {
            a += s.getAtIndex(ValueLayout.JAVA_LONG, i);
            b += s.getAtIndex(ValueLayout.JAVA_LONG, i + 1);
        }
        return a + b;
    }
}
