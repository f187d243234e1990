package io.locusdb.core.storage.load;

/** Receives progress of a load; called from loader threads, so implementations must be thread-safe. */
@FunctionalInterface
public interface LoadProgress {
    LoadProgress NONE = (table, done, expected) -> { };

    /** {@code rows} more rows of {@code table} are done; {@code expectedTotal} is an estimate (0 if unknown). */
    void rowsDone(String table, long rows, long expectedTotal);
}
