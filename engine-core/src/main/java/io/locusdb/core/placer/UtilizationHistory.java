package io.locusdb.core.placer;

import java.util.concurrent.atomic.LongAdder;

/**
 * One resource's utilization over time (adaptive-placement paper, §5): an absolute value that tasks add to when
 * they start on the node of their data and take back when they end, block or park (threads, or bytes per second
 * of memory throughput), sampled periodically into a bounded list of (time, value) pairs.
 *
 * <p>Tasks only touch the absolute value: one striped atomic add, no lock, no allocation (after a cell exists for
 * the contending thread). The sampling side (one refresher
 * per node) and the readers (the placer, system tables) synchronize on the history; they run every 100 ms, not per
 * task.
 */
public final class UtilizationHistory {
    /** 3000 samples every 100 ms: about five minutes. */
    public static final int DEFAULT_CAPACITY = 3000;

    /** Striped: the workers of a node running tasks of one hot part do not contend on one cache line. */
    private final LongAdder absolute = new LongAdder();
    private final long[] times;
    private final double[] values;
    private int first;
    private int count;
    private double recentAverage;
    /** Readings of the absolute value since the last sample (the refresher's ticks), and their sum. */
    private long observedSum;
    private int observed;

    public UtilizationHistory() {
        this(DEFAULT_CAPACITY);
    }

    public UtilizationHistory(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.times = new long[capacity];
        this.values = new double[capacity];
    }

    /** Hot path: a task starts ({@code delta > 0}) or ends, blocks or parks ({@code delta < 0}). */
    public void add(long delta) {
        absolute.add(delta);
    }

    /** The value now. */
    public long current() {
        return absolute.sum();
    }

    /**
     * One reading of the value between samples. A task count read at one instant is 0 or 1 for a part served by one
     * thread at a time; the mean of several readings per sample is what the thread count really was.
     */
    public synchronized void observe() {
        observedSum += Math.max(0, absolute.sum());
        observed++;
    }

    /**
     * Appends a sample at {@code nowMicros} (dropping the oldest beyond the capacity): the mean of this reading and
     * those {@link #observe() observed} since the last sample. Then updates the recent average over the last
     * {@code recentWindowMicros} (the placer's period). Returns the sampled value.
     */
    public synchronized double sample(long nowMicros, long recentWindowMicros) {
        // A sum read while tasks start and end may be off for an instant, never below zero for long.
        double value = (double) (observedSum + Math.max(0, absolute.sum())) / (observed + 1);
        observedSum = 0;
        observed = 0;
        record(nowMicros, value, recentWindowMicros);
        return value;
    }

    /** Appends a sample of a value computed elsewhere (a node's history, aggregated by its refresher). */
    public synchronized void record(long nowMicros, double value, long recentWindowMicros) {
        int slot;
        if (count < times.length) {
            slot = (first + count) % times.length;
            count++;
        } else {
            slot = first;
            first = (first + 1) % times.length;
        }
        times[slot] = nowMicros;
        values[slot] = value;
        recentAverage = average(recentWindowMicros);
    }

    /** The average over the placer's last period, as of the last sample. */
    public synchronized double recentAverage() {
        return recentAverage;
    }

    /** How many samples are kept. */
    public synchronized int samples() {
        return count;
    }

    /**
     * Whether the samples cover the {@code micros} before the last one, or are all the history can keep: only then
     * does an average over that window describe the past rather than extrapolate the first sample back.
     */
    public synchronized boolean covers(long micros) {
        if (count == times.length) {
            return true;
        }
        return count > 1 && times[index(count - 1)] - times[index(0)] >= micros;
    }

    /**
     * The time-weighted average over the {@code micros} before the last sample: each sample weighs the time since the
     * sample before it (its value held over that interval), and the part of the window older than the first sample
     * takes the first sample's value. No samples: the value now.
     */
    public synchronized double average(long micros) {
        if (count == 0) {
            return absolute.sum();
        }
        long end = times[index(count - 1)];
        if (micros <= 0) {
            return values[index(count - 1)];
        }
        long start = end - micros;
        double weighted = 0;
        long previous = Long.MIN_VALUE;
        for (int k = 0; k < count; k++) {
            int i = index(k);
            long t = times[i];
            if (k == 0) {
                if (start < t) {
                    weighted += values[i] * (double) (t - start);
                }
            } else if (t > start) {
                weighted += values[i] * (double) (t - Math.max(previous, start));
            }
            previous = t;
        }
        return weighted / micros;
    }

    private int index(int k) {
        return (first + k) % times.length;
    }
}
