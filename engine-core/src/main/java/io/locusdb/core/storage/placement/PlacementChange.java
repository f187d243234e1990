package io.locusdb.core.storage.placement;

import java.util.List;

/**
 * One placement operation as it changed one table, in a form that redoes it on the same rows: what the write-ahead
 * log records so that a restart puts parts back where they were, without waiting for a checkpoint.
 */
public sealed interface PlacementChange {
    /** Part {@code part} moved to {@code node}. Redoing it on a part already there changes nothing. */
    record Move(int part, int node) implements PlacementChange {
    }

    /**
     * Every part split in two. A RANGE table's part p split at {@code rangeSplits.get(p)}, recorded because the
     * median key depends on the rows at the time; other specs split by rule, and their list is empty.
     */
    record Split(List<Long> rangeSplits) implements PlacementChange {
        public Split {
            rangeSplits = List.copyOf(rangeSplits);
        }
    }

    /** Every part merged into one on {@code node}. */
    record Merge(int node) implements PlacementChange {
    }
}
