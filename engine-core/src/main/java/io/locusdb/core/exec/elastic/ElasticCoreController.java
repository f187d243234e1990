package io.locusdb.core.exec.elastic;

/**
 * One step of the elastic allocation per period: classify the average load of the allocated cores as idle, stable
 * or overloaded, and add or withdraw at most one core, where the mode says. Pure decision logic over a
 * {@link CoreAllocation}; the executor parks and wakes the workers that follow from it.
 */
public final class ElasticCoreController {
    private final CoreAllocation allocation;
    private final ElasticConfig config;
    private volatile LoadState lastState = LoadState.STABLE;

    public ElasticCoreController(CoreAllocation allocation, ElasticConfig config) {
        this.allocation = allocation;
        this.config = config;
    }

    /** Allocates the initial cores in the mode's order. */
    public void allocateInitial(long[] activity) {
        int wanted = Math.min(config.initialCores(), allocation.total());
        while (allocation.allocatedCount() < wanted) {
            int cpu = config.mode().nextToAllocate(allocation, activity);
            if (cpu < 0) {
                break;
            }
            allocation.allocate(cpu);
        }
    }

    public LoadState classify(double load) {
        if (load < config.idleThreshold()) {
            return LoadState.IDLE;
        }
        if (load > config.overloadThreshold()) {
            return LoadState.OVERLOAD;
        }
        return LoadState.STABLE;
    }

    /** {@code load}: busy fraction of the allocated cores over the last period, 0..1. */
    public Step step(double load, long[] activity) {
        LoadState state = classify(load);
        lastState = state;
        int added = -1;
        int withdrawn = -1;
        if (state == LoadState.OVERLOAD) {
            added = config.mode().nextToAllocate(allocation, activity);
            if (added >= 0) {
                allocation.allocate(added);
            }
        } else if (state == LoadState.IDLE) {
            withdrawn = config.mode().nextToWithdraw(allocation, activity);
            if (withdrawn >= 0) {
                allocation.release(withdrawn);
            }
        }
        return new Step(state, load, added, withdrawn, allocation.allocatedCount());
    }

    public LoadState lastState() {
        return lastState;
    }

    public CoreAllocation allocation() {
        return allocation;
    }

    public ElasticConfig config() {
        return config;
    }

    /** What one step saw and did; -1 for no core added or withdrawn. */
    public record Step(LoadState state, double load, int addedCpu, int withdrawnCpu, int allocatedCores) {
    }
}
