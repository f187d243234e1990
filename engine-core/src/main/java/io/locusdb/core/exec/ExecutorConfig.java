package io.locusdb.core.exec;

import io.locusdb.core.exec.elastic.ElasticConfig;
import io.locusdb.natives.topology.Topology;
import java.time.Duration;
import java.util.Objects;

/**
 * Every knob of the executor, with the design papers' values as defaults: watchdog every 20 ms, concurrency hint
 * sampled every 50 ms with a = 0.5 and reset at 90% of the contexts, class averages with weight 0.1, pools ordered
 * by depth, and free workers taking pool tasks before new roots with probability 1.0.
 */
public final class ExecutorConfig {
    /** Used when no calibration has been stored: a conservative figure in the range the paper's servers showed. */
    public static final double DEFAULT_STEALING_THRESHOLD = 1_000e6;

    private final Topology topology;
    private final int contexts;
    private final boolean pinWorkers;
    private final int poolsPerNode;
    private final PoolOrder poolOrder;
    private final double poolFirstProbability;
    private final double rootPriorityBias;
    private final RootOrder rootOrder;
    private final StealingPolicy stealing;
    private final double classAverageWeight;
    private final Duration watchdogPeriod;
    private final boolean watchdogThread;
    private final Duration hintPeriod;
    private final double hintAlpha;
    private final double hintResetFraction;
    private final int maxWorkers;
    private final ElasticConfig elastic;
    private final String threadNamePrefix;
    private final boolean hardwareCounters;

    private ExecutorConfig(Builder b) {
        this.topology = Objects.requireNonNull(b.topology, "topology");
        this.contexts = b.contexts > 0 ? b.contexts : topology.cpuCount();
        this.pinWorkers = b.pinWorkers;
        this.poolsPerNode = positive(b.poolsPerNode, "poolsPerNode");
        this.poolOrder = Objects.requireNonNull(b.poolOrder, "poolOrder");
        this.poolFirstProbability = probability(b.poolFirstProbability, "poolFirstProbability");
        this.rootPriorityBias = probability(b.rootPriorityBias, "rootPriorityBias");
        this.rootOrder = Objects.requireNonNull(b.rootOrder, "rootOrder");
        this.stealing = b.stealing != null ? b.stealing : new AdaptiveStealing(DEFAULT_STEALING_THRESHOLD);
        this.classAverageWeight = b.classAverageWeight;
        if (!(classAverageWeight > 0 && classAverageWeight <= 1)) {
            throw new IllegalArgumentException("classAverageWeight must be in (0, 1], got " + classAverageWeight);
        }
        this.watchdogPeriod = positive(b.watchdogPeriod, "watchdogPeriod");
        this.watchdogThread = b.watchdogThread;
        this.hintPeriod = positive(b.hintPeriod, "hintPeriod");
        this.hintAlpha = probability(b.hintAlpha, "hintAlpha");
        this.hintResetFraction = probability(b.hintResetFraction, "hintResetFraction");
        this.maxWorkers = b.maxWorkers > 0 ? b.maxWorkers : Math.max(256, 16 * contexts);
        if (maxWorkers < Math.max(contexts, topology.cpuCount())) {
            throw new IllegalArgumentException("maxWorkers " + maxWorkers + " leaves no room for one worker per CPU"
                    + " (" + topology.cpuCount() + " CPUs, " + contexts + " contexts)");
        }
        this.elastic = b.elastic;
        this.threadNamePrefix = b.threadNamePrefix;
        this.hardwareCounters = b.hardwareCounters;
    }

    public static Builder builder(Topology topology) {
        return new Builder(topology);
    }

    private static int positive(int value, String name) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, got " + value);
        }
        return value;
    }

    private static Duration positive(Duration value, String name) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration, got " + value);
        }
        return value;
    }

    private static double probability(double value, String name) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " must be in [0, 1], got " + value);
        }
        return value;
    }

    public Topology topology() {
        return topology;
    }

    /** Hardware contexts the executor keeps busy: the target of the active concurrency level. */
    public int contexts() {
        return contexts;
    }

    public boolean pinWorkers() {
        return pinWorkers;
    }

    public int poolsPerNode() {
        return poolsPerNode;
    }

    public PoolOrder poolOrder() {
        return poolOrder;
    }

    public double poolFirstProbability() {
        return poolFirstProbability;
    }

    public double rootPriorityBias() {
        return rootPriorityBias;
    }

    public RootOrder rootOrder() {
        return rootOrder;
    }

    public StealingPolicy stealing() {
        return stealing;
    }

    public double classAverageWeight() {
        return classAverageWeight;
    }

    public Duration watchdogPeriod() {
        return watchdogPeriod;
    }

    public boolean watchdogThread() {
        return watchdogThread;
    }

    public Duration hintPeriod() {
        return hintPeriod;
    }

    public double hintAlpha() {
        return hintAlpha;
    }

    public double hintResetFraction() {
        return hintResetFraction;
    }

    public int maxWorkers() {
        return maxWorkers;
    }

    /** The elastic core allocation settings, or null when every context is always in use. */
    public ElasticConfig elastic() {
        return elastic;
    }

    public String threadNamePrefix() {
        return threadNamePrefix;
    }

    /** Whether workers add LLC misses × 64 to a task's bytes where the hardware counter can be opened. */
    public boolean hardwareCounters() {
        return hardwareCounters;
    }

    public static final class Builder {
        private final Topology topology;
        private int contexts;
        private boolean pinWorkers = true;
        private int poolsPerNode = 1;
        private PoolOrder poolOrder = PoolOrder.DEPTH;
        private double poolFirstProbability = 1.0;
        private double rootPriorityBias = 1.0;
        private RootOrder rootOrder;
        private StealingPolicy stealing;
        private double classAverageWeight = 0.1;
        private Duration watchdogPeriod = Duration.ofMillis(20);
        private boolean watchdogThread = true;
        private Duration hintPeriod = Duration.ofMillis(50);
        private double hintAlpha = 0.5;
        private double hintResetFraction = 0.9;
        private int maxWorkers;
        private ElasticConfig elastic;
        private String threadNamePrefix = "locus";
        private boolean hardwareCounters = true;

        private Builder(Topology topology) {
            this.topology = topology;
            this.rootOrder = RootOrder.fromSystemProperty();
        }

        /** Overrides the number of hardware contexts (default: the topology's CPUs). */
        public Builder contexts(int contexts) {
            this.contexts = contexts;
            return this;
        }

        /** Whether each worker is pinned to its CPU (off for synthetic topologies whose CPUs do not exist). */
        public Builder pinWorkers(boolean pin) {
            this.pinWorkers = pin;
            return this;
        }

        public Builder poolsPerNode(int pools) {
            this.poolsPerNode = pools;
            return this;
        }

        public Builder poolOrder(PoolOrder order) {
            this.poolOrder = order;
            return this;
        }

        /** Probability that a free worker looks at the task pools before the root queues. */
        public Builder poolFirstProbability(double p) {
            this.poolFirstProbability = p;
            return this;
        }

        /** Probability that a new root is taken from the highest non-empty priority. */
        public Builder rootPriorityBias(double p) {
            this.rootPriorityBias = p;
            return this;
        }

        /** Which waiting root starts first within a priority (default: {@link RootOrder#fromSystemProperty()}). */
        public Builder rootOrder(RootOrder order) {
            this.rootOrder = order;
            return this;
        }

        public Builder stealing(StealingPolicy policy) {
            this.stealing = policy;
            return this;
        }

        public Builder classAverageWeight(double weight) {
            this.classAverageWeight = weight;
            return this;
        }

        public Builder watchdogPeriod(Duration period) {
            this.watchdogPeriod = period;
            return this;
        }

        /** Off: nothing ticks the watchdog but the caller ({@link NumaExecutor#watchdog()}), for tests. */
        public Builder watchdogThread(boolean run) {
            this.watchdogThread = run;
            return this;
        }

        public Builder hintPeriod(Duration period) {
            this.hintPeriod = period;
            return this;
        }

        public Builder hintAlpha(double alpha) {
            this.hintAlpha = alpha;
            return this;
        }

        public Builder hintResetFraction(double fraction) {
            this.hintResetFraction = fraction;
            return this;
        }

        /** Upper bound on worker threads, replacements for blocked ones included. */
        public Builder maxWorkers(int max) {
            this.maxWorkers = max;
            return this;
        }

        public Builder elastic(ElasticConfig elastic) {
            this.elastic = elastic;
            return this;
        }

        public Builder threadNamePrefix(String prefix) {
            this.threadNamePrefix = Objects.requireNonNull(prefix);
            return this;
        }

        /**
         * Counts each task's last-level-cache misses (× 64 bytes) on top of the bytes its kernels account, where
         * {@code perf_event_open} offers the event (two counter reads per task); silently off where it does not.
         */
        public Builder hardwareCounters(boolean use) {
            this.hardwareCounters = use;
            return this;
        }

        public ExecutorConfig build() {
            return new ExecutorConfig(this);
        }
    }
}
