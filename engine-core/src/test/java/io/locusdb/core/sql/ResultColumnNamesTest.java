package io.locusdb.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.TestStorage;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Unnamed result columns are named as PostgreSQL names them: clients show these names and tools key on them. */
class ResultColumnNamesTest {
    private static LocusDB db;

    @BeforeAll
    static void open() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()));
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE t (a INTEGER, b VARCHAR)");
            s.execute("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, NULL)");
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static List<String> names(String sql) {
        try (Session s = db.connect(); QueryResult r = s.execute(sql)) {
            r.toList();
            return r.columns().stream().map(ResultColumn::name).toList();
        }
    }

    @Test
    void functionsAreNamedByTheirFunctionAlsoUnderOverFilterAndWithinGroup() {
        assertThat(names("SELECT a, lag(a) OVER (ORDER BY a), row_number() OVER (), sum(a) OVER (PARTITION BY b)"
                + " FROM t")).containsExactly("a", "lag", "row_number", "sum");
        assertThat(names("SELECT count(*) FILTER (WHERE a > 1), max(a), percentile_cont(0.5) WITHIN GROUP"
                + " (ORDER BY a) FROM t")).containsExactly("count", "max", "percentile_cont");
        assertThat(names("SELECT CAST(a AS BIGINT), a + 1, CASE WHEN a > 1 THEN 1 END, coalesce(b, 'z') FROM t"))
                .containsExactly("a", "?column?", "case", "coalesce");
    }
}
