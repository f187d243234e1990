package io.locusdb.core;

import io.locusdb.core.result.QueryResult;
import java.util.List;

/** Statements for tests: prepared on a fresh session, parameters bound by position, every row read. */
public final class TestQueries {
    private TestQueries() {
    }

    public static List<List<Object>> rows(LocusDB db, String sql, Object... parameters) {
        try (Session s = db.connect()) {
            PreparedQuery q = s.prepare(sql);
            for (int i = 0; i < parameters.length; i++) {
                q.set(i + 1, parameters[i]);
            }
            try (QueryResult r = q.execute()) {
                return r.toList();
            }
        }
    }
}
