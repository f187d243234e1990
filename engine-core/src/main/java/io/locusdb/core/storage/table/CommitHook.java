package io.locusdb.core.storage.table;

import java.util.List;

/**
 * Called by a table's writer once a commit's rows are checked and staged, before any reader can see them: the point
 * where a write-ahead log records the commit. Throwing aborts the commit.
 */
@FunctionalInterface
public interface CommitHook {
    CommitHook NONE = rows -> { };

    /** {@code rows} are the commit's rows as stored (physical values, schema order); do not modify them. */
    void beforePublish(List<Object[]> rows);
}
