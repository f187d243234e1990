package io.locusdb.core.exec;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A kind of task ("iv-scan", "materialize", "calibration-sum"...) whose memory intensity the executor learns at run
 * time. The adaptive-placement paper keeps an exponential moving average of each class's memory throughput and
 * forbids inter-socket stealing for classes whose average is above the calibrated threshold: stealing a
 * memory-bound task only moves its memory traffic onto the interconnect and a remote, already busy controller.
 *
 * <p>Only samples from tasks that ran on their preferred node, were not stolen and did not block update the
 * average: a stolen or blocked task's throughput says more about the interconnect or the lock than about the class.
 * Instances come from {@link TaskClasses}; identity is the name.
 */
public final class TaskClass {
    private final int id;
    private final String name;
    private final double weight;
    /** {@code Double.doubleToRawLongBits} of the average in bytes/s; NaN until the first sample. */
    private final AtomicLong averageBits = new AtomicLong(Double.doubleToRawLongBits(Double.NaN));
    private final LongAdder samples = new LongAdder();

    TaskClass(int id, String name, double weight) {
        this.id = id;
        this.name = name;
        this.weight = weight;
    }

    public int id() {
        return id;
    }

    public String name() {
        return name;
    }

    /**
     * Folds one task's throughput into the average: {@code avg = (1 - w)·avg + w·new} (w = 0.1 in the paper). The
     * first sample seeds the average, so a class does not look CPU-bound merely because it is new.
     */
    public void recordThroughput(long bytes, long nanos) {
        if (nanos <= 0) {
            return;
        }
        double sample = bytes * 1e9 / nanos;
        long current;
        long next;
        do {
            current = averageBits.get();
            double avg = Double.longBitsToDouble(current);
            double updated = Double.isNaN(avg) ? sample : (1 - weight) * avg + weight * sample;
            next = Double.doubleToRawLongBits(updated);
        } while (!averageBits.compareAndSet(current, next));
        samples.increment();
    }

    /** Average memory throughput in bytes per second; 0 before the first sample. */
    public double averageThroughput() {
        double avg = Double.longBitsToDouble(averageBits.get());
        return Double.isNaN(avg) ? 0 : avg;
    }

    public long sampleCount() {
        return samples.sum();
    }

    /** Forgets the learnt average (calibration runs start each configuration from scratch). */
    public void resetAverage() {
        averageBits.set(Double.doubleToRawLongBits(Double.NaN));
        samples.reset();
    }

    @Override
    public String toString() {
        return name;
    }
}
