package io.locusdb.core.storage.placement;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Where placement operations are recorded as they run (the write-ahead log of a data directory). A table group's
 * operation changes several tables; it is recorded as one entry, so that a restart redoes all of its changes or
 * none and the group stays co-partitioned.
 */
public interface PlacementJournal {
    /**
     * Runs {@code operation}, which adds each change to the list it is given as soon as the change is installed, and
     * records the changes as one entry (those installed before a failure too) before returning or rethrowing.
     */
    <T> T record(Function<List<TableChange>, T> operation);

    /** No journal: an in-memory database. */
    PlacementJournal NONE = new PlacementJournal() {
        @Override
        public <T> T record(Function<List<TableChange>, T> operation) {
            return operation.apply(new ArrayList<>());
        }
    };
}
