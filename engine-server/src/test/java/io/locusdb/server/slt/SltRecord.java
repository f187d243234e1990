package io.locusdb.server.slt;

import java.util.List;

/** One record of a sqllogictest script, with the line it starts on. */
sealed interface SltRecord {
    int line();

    /** {@code statement ok} or {@code statement error}: runs {@code sql}, which must succeed or fail. */
    record Statement(int line, String sql, boolean expectError) implements SltRecord {
    }

    /**
     * {@code query <types> <sort> [label]}: runs {@code sql} and compares its values, formatted by {@code types}
     * ({@code I} integer, {@code R} real, {@code T} text) and sorted by {@code sort}, with {@code expected}: the
     * values one by one, or their count and MD5 ({@code hash} non-null).
     */
    record Query(int line, String sql, String types, SortMode sort, String label, List<String> expected,
                 int expectedCount, String hash) implements SltRecord {
    }

    /** Results of more values than this are compared by hash. */
    record HashThreshold(int line, int threshold) implements SltRecord {
    }

    /** Stops the script. */
    record Halt(int line) implements SltRecord {
    }

    enum SortMode {
        NOSORT, ROWSORT, VALUESORT
    }
}
