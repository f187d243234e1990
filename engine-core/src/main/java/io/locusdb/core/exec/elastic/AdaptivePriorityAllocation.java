package io.locusdb.core.exec.elastic;

/**
 * The elastic-allocation paper's adaptive priority mode: the node holding most of the active data gets the next
 * core, and the node holding the least loses one, so the cores in use sit next to the data being read. Ties go to
 * the lower node id when adding and the higher one when withdrawing.
 */
public final class AdaptivePriorityAllocation implements CoreAllocationMode {
    @Override
    public int nextToAllocate(CoreAllocation allocation, long[] activity) {
        int best = -1;
        for (int n = 0; n < allocation.nodeCount(); n++) {
            if (allocation.firstFreeOn(n) >= 0 && (best < 0 || activityOf(activity, n) > activityOf(activity, best))) {
                best = n;
            }
        }
        return best < 0 ? -1 : allocation.firstFreeOn(best);
    }

    @Override
    public int nextToWithdraw(CoreAllocation allocation, long[] activity) {
        if (allocation.allocatedCount() <= 1) {
            return -1;
        }
        int worst = -1;
        for (int n = allocation.nodeCount() - 1; n >= 0; n--) {
            if (allocation.allocatedOn(n) > 0
                    && (worst < 0 || activityOf(activity, n) < activityOf(activity, worst))) {
                worst = n;
            }
        }
        return worst < 0 ? -1 : allocation.lastAllocatedOn(worst);
    }

    private static long activityOf(long[] activity, int node) {
        return activity == null || node >= activity.length ? 0 : activity[node];
    }

    @Override
    public String name() {
        return "adaptive-priority";
    }
}
