package io.locusdb.core.query.pipeline;

import io.locusdb.core.query.plan.PhysicalPlan;

/**
 * Where the hash table of a join that is not co-partitioned lives, decided from the planner's estimates (so EXPLAIN
 * and the run agree): one table on the node of the probe side's parts (or on the heap when the probe side has no
 * node); with several nodes, one copy of its index per node, each read locally, or, when copies would cost more than
 * they save, its index partitioned by hash across the nodes.
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
    COPY_PER_NODE,
    /**
     * The index split by hash of the key, the partitions in turn in the memory of the probe side's nodes: too large
     * to copy, it spreads its memory and its readers' traffic over every node's memory instead of one.
     */
    PARTITIONED;

    /** Bytes of remote traffic a probe that reaches the index costs, roughly: one cache line. */
    static final double REMOTE_BYTES_PER_PROBE = 64;
    /** Index bytes per build row (two slots of key and row, and a chain link), as {@code LongKeyIndex} lays out. */
    static final double INDEX_BYTES_PER_ROW = 36;

    static BuildPlacement of(PhysicalPlan.Join join, int probeNodes) {
        if (probeNodes < 2) {
            return ONE_TABLE;
        }
        boolean probeLeft = join.probesLeft();
        double buildRows = probeLeft ? join.rightRows() : join.leftRows();
        double probeRows = probeLeft ? join.leftRows() : join.rightRows();
        double remoteProbes = probeRows * (probeNodes - 1) / probeNodes;
        return buildRows * INDEX_BYTES_PER_ROW <= remoteProbes * REMOTE_BYTES_PER_PROBE ? COPY_PER_NODE
                : PARTITIONED;
    }

    /** Build rows from which a table's index is built in hash partitions by parallel tasks. */
    static final int PARALLEL_BUILD_ROWS = 1 << 16;

    /**
     * Build rows per hash partition at most, so that a partition's slots (about 2-4 per key, 16 bytes each) fit in
     * a core's L2 cache while its task inserts: inserting into one index of many megabytes costs a cache and TLB
     * miss a row, which made the build a sixth of TPC-H Q3's time.
     */
    static final int CACHE_PARTITION_ROWS = 1 << 13;

    /** At most this many partitions (tasks and mappings), whatever the build's size. */
    static final int MAX_PARTITIONS = 256;

    /**
     * Hash partitions of the index, each built by a task of its own: one per node for a partitioned table (more
     * when the concurrency hint asks for more), as many as the concurrency hint for a large table otherwise, else
     * one; and a large table enough that each partition is about {@link #CACHE_PARTITION_ROWS} rows. Always a
     * power of two.
     */
    static int partitions(BuildPlacement placement, int buildRows, int probeNodes, int concurrencyHint) {
        int wanted = buildRows >= PARALLEL_BUILD_ROWS ? Math.max(1, concurrencyHint) : 1;
        if (placement == PARTITIONED) {
            wanted = Math.max(wanted, probeNodes);
        }
        if (buildRows >= PARALLEL_BUILD_ROWS) {
            wanted = Math.max(wanted, Math.min(MAX_PARTITIONS, buildRows / CACHE_PARTITION_ROWS));
        }
        return wanted <= 1 ? 1 : Integer.highestOneBit(wanted - 1) << 1;
    }
}
