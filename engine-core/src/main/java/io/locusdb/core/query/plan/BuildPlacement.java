package io.locusdb.core.query.plan;

/**
 * Where the hash table of a join that is not co-partitioned lives, decided from the planner's estimates (so EXPLAIN
 * and the run agree): one table on the first node of the probe side's parts, read remotely by the tasks of the other
 * nodes, or one copy of its index per node, each read locally.
 *
 * <p>A copy costs writing the index once more per node; a remote read costs, per probe that reaches the index,
 * about one cache line fetched across the interconnect instead of locally. Copies pay off when the index is small
 * next to the probes the other nodes make: {@code indexBytes <= probeRows * REMOTE_BYTES_PER_PROBE}. The constant
 * is a cache line, not a measurement: on the emulated NUMA machines of this project remote memory costs nothing
 * extra, so the break-even point awaits a real multi-socket host (the calibration command is where it belongs).
 */
enum BuildPlacement {
    /** One table; the probe side reads it from one node (or the join has no node to speak of). */
    ONE_TABLE,
    /** One copy of the table's index per node of the probe side's parts. */
    COPY_PER_NODE;

    /** Bytes of remote traffic a probe that reaches the index costs, roughly: one cache line. */
    static final double REMOTE_BYTES_PER_PROBE = 64;
    /** Index bytes per build row (two slots of key and row, and a chain link), as {@code LongKeyIndex} lays out. */
    static final double INDEX_BYTES_PER_ROW = 36;

    static BuildPlacement of(PhysicalPlan.Join join, int probeNodes) {
        if (probeNodes < 2) {
            return ONE_TABLE;
        }
        boolean probeLeft = JoinPipeline.probeLeft(join);
        double buildRows = probeLeft ? join.rightRows() : join.leftRows();
        double probeRows = probeLeft ? join.leftRows() : join.rightRows();
        double remoteProbes = probeRows * (probeNodes - 1) / probeNodes;
        return buildRows * INDEX_BYTES_PER_ROW <= remoteProbes * REMOTE_BYTES_PER_PROBE ? COPY_PER_NODE : ONE_TABLE;
    }
}
