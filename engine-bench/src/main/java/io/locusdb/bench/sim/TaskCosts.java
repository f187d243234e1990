package io.locusdb.bench.sim;

/**
 * What LocusDB's task classes cost per row, as the simulator charges them: CPU time at full speed with the data in
 * local memory, and the bytes each class reads from the memory of the part's node. A task's time alone is its CPU
 * time plus its bytes at the bandwidth it gets; the memory system model decides that bandwidth under contention.
 *
 * <p>Classes (the names of the engine's own task classes where they exist):
 * <ul>
 *   <li>{@code iv-scan}: the range predicate over a part's bit-packed codes, {@code bits/8} bytes a row (times
 *       {@code ivScanByteFactor});</li>
 *   <li>{@code materialize}: decoding the matching rows through the dictionary (mostly cached, so CPU-bound);</li>
 *   <li>{@code aggregate}: decoding the value and group columns of the matches into a part-local hash table;</li>
 *   <li>{@code agg-merge}: merging the part-local tables of a partitioned table, per group and part, the partitioning
 *       overhead of the adaptive-placement paper's §4 and §8.3;</li>
 *   <li>{@code join-probe}: probing the other table's ID index with the matches (random reads).</li>
 * </ul>
 *
 * @param ivScanByteFactor bytes the engine accounts for a scan per byte of {@code bits/8} (1 for the paper's
 *                 machines): LocusDB's horizontal layout keeps whole codes and a delimiter bit in each 64-bit word,
 *                 and its byte account is what its stealing policy sees, so the simulated one must see the same
 * @param taskRows rows of a part one scan task covers (the engine splits a part into tasks of this many rows)
 * @param queryOverheadMicros CPU time of a query outside its data tasks (planning, dispatch, results), charged as a
 *                 first task of class {@code dispatch} that reads no memory; 0 for the paper's machines, whose
 *                 engine's overhead the paper does not give
 */
public record TaskCosts(double ivScanNanosPerRow, double ivScanByteFactor, double materializeNanosPerRow, double materializeBytesPerRow,
                        double aggregateNanosPerRow, double aggregateBytesPerRow, double mergeNanosPerGroup,
                        double mergeBytesPerGroup, double probeNanosPerRow, double probeBytesPerRow, long taskRows,
                        double queryOverheadMicros) {
    public TaskCosts {
        if (!(ivScanByteFactor > 0)) {
            throw new IllegalArgumentException("a scan reads a positive number of bytes, got factor "
                    + ivScanByteFactor);
        }
        if (taskRows < 1) {
            throw new IllegalArgumentException("a task covers at least one row, got " + taskRows);
        }
        if (!(queryOverheadMicros >= 0)) {
            throw new IllegalArgumentException("a query's overhead cannot be negative, got " + queryOverheadMicros);
        }
    }

    /**
     * Defaults for the paper's 2.5 GHz Xeons, from LocusDB's kernels on the development host (see the issue note):
     * the scan is memory-bound (a core filters codes faster than one thread streams them), decoding and hashing are
     * CPU-bound (dictionaries of up to 2^24 entries are mostly cached), probing reads a cache line per match.
     */
    public static TaskCosts defaults() {
        return new TaskCosts(0.12, 1, 12, 6, 25, 10, 60, 32, 40, 64, 4_000_000, 0);
    }

    /** These costs with a scenario's own cost of one step kind (see {@link Scenario.StepCost}). */
    public TaskCosts with(Scenario.StepCost cost) {
        double n = cost.nanosPerRow();
        double b = cost.bytesPerRow();
        return switch (cost.kind()) {
            case "materialize" -> new TaskCosts(ivScanNanosPerRow, ivScanByteFactor, n, b, aggregateNanosPerRow,
                    aggregateBytesPerRow, mergeNanosPerGroup, mergeBytesPerGroup, probeNanosPerRow, probeBytesPerRow,
                    taskRows, queryOverheadMicros);
            case "aggregate" -> new TaskCosts(ivScanNanosPerRow, ivScanByteFactor, materializeNanosPerRow,
                    materializeBytesPerRow, n, b, mergeNanosPerGroup, mergeBytesPerGroup, probeNanosPerRow,
                    probeBytesPerRow, taskRows, queryOverheadMicros);
            case "probe" -> new TaskCosts(ivScanNanosPerRow, ivScanByteFactor, materializeNanosPerRow,
                    materializeBytesPerRow, aggregateNanosPerRow, aggregateBytesPerRow, mergeNanosPerGroup,
                    mergeBytesPerGroup, n, b, taskRows, queryOverheadMicros);
            case "merge" -> new TaskCosts(ivScanNanosPerRow, ivScanByteFactor, materializeNanosPerRow,
                    materializeBytesPerRow, aggregateNanosPerRow, aggregateBytesPerRow, n, b, probeNanosPerRow,
                    probeBytesPerRow, taskRows, queryOverheadMicros);
            default -> throw new IllegalArgumentException("no step kind '" + cost.kind() + "'");
        };
    }

    public TaskCosts withTaskRows(long rows) {
        return new TaskCosts(ivScanNanosPerRow, ivScanByteFactor, materializeNanosPerRow, materializeBytesPerRow,
                aggregateNanosPerRow, aggregateBytesPerRow, mergeNanosPerGroup, mergeBytesPerGroup, probeNanosPerRow,
                probeBytesPerRow, rows, queryOverheadMicros);
    }
}
