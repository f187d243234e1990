package io.locusdb.core.exec;

import java.util.List;

/**
 * A snapshot of the executor, aggregated by the watchdog from the workers' own counters (so the hot path never
 * touches shared counters for statistics). Arrays are indexed by node, then by task class id.
 */
public record ExecutorStats(long timestampNanos, int workers, int activeConcurrency, int targetConcurrency,
                            int parked, int blocked, int waitingForGraph, int declaredInactive, double hint,
                            int[] poolLengthByNode, int[] rootQueueByNode, List<String> classNames,
                            long[][] tasksRunByNodeAndClass, long[][] tasksStolenByNodeAndClass,
                            double[] classAverageThroughput, long[] bytesByNode, int[] allocatedCoresByNode,
                            String loadState, double lastLoad) {

    public long tasksRun() {
        long sum = 0;
        for (long[] byClass : tasksRunByNodeAndClass) {
            for (long v : byClass) {
                sum += v;
            }
        }
        return sum;
    }

    public long tasksRun(int node, int classId) {
        return classId < tasksRunByNodeAndClass[node].length ? tasksRunByNodeAndClass[node][classId] : 0;
    }

    public long tasksStolen(int node, int classId) {
        return classId < tasksStolenByNodeAndClass[node].length ? tasksStolenByNodeAndClass[node][classId] : 0;
    }

    public long tasksStolen() {
        long sum = 0;
        for (long[] byClass : tasksStolenByNodeAndClass) {
            for (long v : byClass) {
                sum += v;
            }
        }
        return sum;
    }
}
