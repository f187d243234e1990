package io.locusdb.core.exec;

/**
 * The task-scheduling paper's concurrency hint: an exponential moving average of the free hardware contexts,
 * {@code hint = a·free + (1 - a)·hint}, sampled by the watchdog. Because the average remembers every past sample
 * it is reset to the full context count once it climbs past a fraction (90%) of it, so an idle system quickly
 * offers full parallelism again. Partitionable operations read it to decide how many tasks to create.
 */
public final class ConcurrencyHint {
    private final int contexts;
    private final double alpha;
    private final double resetFraction;
    private volatile double value;

    public ConcurrencyHint(int contexts, double alpha, double resetFraction) {
        if (contexts < 1) {
            throw new IllegalArgumentException("contexts must be at least 1, got " + contexts);
        }
        this.contexts = contexts;
        this.alpha = alpha;
        this.resetFraction = resetFraction;
        this.value = contexts;
    }

    /** Folds in one observation of the free contexts ({@code max(0, contexts - active)}). */
    public synchronized void sample(int freeContexts) {
        double free = Math.max(0, Math.min(contexts, freeContexts));
        double next = alpha * free + (1 - alpha) * value;
        value = next > resetFraction * contexts ? contexts : next;
    }

    /** The smoothed number of free contexts. */
    public double value() {
        return value;
    }

    /** Tasks a partitionable operation should create now: the hint rounded, at least 1. */
    public int tasks() {
        return Math.max(1, (int) Math.round(value));
    }

    public int contexts() {
        return contexts;
    }
}
