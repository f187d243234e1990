package io.locusdb.core.query;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.durable.Durability;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.TestStorage;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What the statement-level tests share: a database on the fake two-node topology (in memory, or in a data
 * directory), and one statement at a time through a session of its own.
 */
final class SqlTestDatabase {
    private SqlTestDatabase() {
    }

    /** {@code directory} null: in memory only. */
    static LocusDB open(Path directory) {
        LocusConfig config = LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null)
                .withExecutor(b -> b.pinWorkers(false));
        return LocusDB.open(directory == null ? config : config.withDurability(Durability.in(directory)));
    }

    static List<List<Object>> rows(LocusDB db, String sql) {
        try (Session s = db.connect(); QueryResult r = s.execute(sql)) {
            return r.toList();
        }
    }

    /** Runs a statement; its update count (0 for DDL). */
    static long execute(LocusDB db, String sql) {
        try (Session s = db.connect(); QueryResult r = s.execute(sql)) {
            return r.updateCount();
        }
    }

    /** The plan EXPLAIN prints, one line per row. */
    static String explain(LocusDB db, String sql) {
        return rows(db, "EXPLAIN " + sql).stream().map(r -> r.getFirst().toString())
                .collect(Collectors.joining("\n"));
    }

    /** The SQLSTATE {@code sql} fails with; an AssertionError when it does not fail. */
    static SqlState stateOf(LocusDB db, String sql) {
        try {
            execute(db, sql);
        } catch (LocusSqlException e) {
            return e.state();
        }
        throw new AssertionError("expected " + sql + " to fail");
    }
}
