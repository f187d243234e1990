package io.locusdb.jdbc;

import java.sql.SQLWarning;

/** The warnings a connection or statement collects (from NOTICE frames), chained in arrival order. */
final class WarningChain {
    private SQLWarning first;

    SQLWarning first() {
        return first;
    }

    void add(SQLWarning warning) {
        if (first == null) {
            first = warning;
        } else {
            first.setNextWarning(warning);
        }
    }

    void clear() {
        first = null;
    }
}
