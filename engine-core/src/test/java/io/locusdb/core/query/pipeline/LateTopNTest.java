package io.locusdb.core.query.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A top-N straight over a scan whose other columns are read late, by row position, for the first rows only: the
 * answer is the full sort's, whatever part, delta or deletion the rows come from, and whether or not the cut-off
 * guessed from a sample holds.
 */
class LateTopNTest {
    private static final int ROWS = 60_000;
    private static LocusDB db;
    private static Session session;

    @BeforeAll
    static void load() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null));
        session = db.connect();
        session.execute("CREATE TABLE w (id INTEGER, k BIGINT, price DECIMAL(12,2), day DATE, note VARCHAR,"
                + " tag VARCHAR, ratio DOUBLE)").close();
        insert(0, ROWS);
        session.execute("ALTER TABLE w PARTITION INTO 2 PARTS").close();
        // Rows after the parts were made stay in their deltas (merging is off): positions of both kinds.
        insert(ROWS, ROWS + 3_000);
        session.execute("DELETE FROM w WHERE id % 11 = 3").close();
    }

    /** Rows {@code from..to-1}: keys with ties and NULLs, strings of many values and of few. */
    private static void insert(int from, int to) {
        session.execute("INSERT INTO w SELECT i, CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 7919) % 20011 END,"
                + " CAST((i * 31) % 9973 + (i % 100) / 100.0 AS DECIMAL(12,2)), DATE '2024-01-01' + CAST(i % 400 AS"
                + " INTEGER), CASE WHEN i % 17 = 0 THEN NULL ELSE 'note ' || i END, substring('abcde' FROM CAST(i % 5 + 1 AS INTEGER) FOR 1),"
                + " CASE WHEN i % 19 = 0 THEN NULL ELSE CAST((i % 1000) * 0.5 AS DOUBLE) END"
                + " FROM generate_series(" + from + ", " + (to - 1) + ") AS g(i)").close();
    }

    @AfterAll
    static void close() {
        session.close();
        db.close();
    }

    private static List<List<Object>> rows(String sql) {
        try (QueryResult r = session.execute(sql)) {
            return r.toList();
        }
    }

    private static String explain(String sql) {
        return rows("EXPLAIN " + sql).stream().map(r -> String.valueOf(r.getFirst()))
                .collect(Collectors.joining("\n"));
    }

    private static void agreesWithAFullSort(String select, String orderBy, int offset, int limit) {
        List<List<Object>> all = rows(select + " ORDER BY " + orderBy);
        String topN = select + " ORDER BY " + orderBy + " LIMIT " + limit + " OFFSET " + offset;
        assertThat(explain(topN)).as(topN).contains("materialized late");
        assertThat(rows(topN)).as(topN)
                .isEqualTo(all.subList(Math.min(offset, all.size()), Math.min(offset + limit, all.size())));
    }

    @Test
    void wholeRowsComeFromMainRowsAndDeltaRowsOfEveryPart() {
        agreesWithAFullSort("SELECT * FROM w", "k DESC, id", 0, 20_000);
        agreesWithAFullSort("SELECT * FROM w", "k, id", 100, 5_000);
        agreesWithAFullSort("SELECT * FROM w", "k DESC NULLS LAST, id", 0, 10);
        agreesWithAFullSort("SELECT * FROM w", "k NULLS FIRST, id DESC", 4_000, 4_000);
    }

    @Test
    void keysOfEveryKindAndColumnsInAnyOrder() {
        agreesWithAFullSort("SELECT note, id, ratio FROM w", "price DESC, id", 0, 3_000);
        agreesWithAFullSort("SELECT tag, day, id, note FROM w", "day, tag DESC, id", 7, 1_000);
        agreesWithAFullSort("SELECT id, note, k FROM w", "note DESC NULLS FIRST, id", 0, 500);
        agreesWithAFullSort("SELECT k, note, ratio, tag FROM w", "ratio DESC, k, note, id", 0, 2_500);
        // A key named twice and a key that is also output first.
        agreesWithAFullSort("SELECT id, k, note FROM w", "id DESC, k, id", 0, 777);
    }

    @Test
    void aFilteredScanStillReadsTheRestLate() {
        agreesWithAFullSort("SELECT * FROM w WHERE tag <> 'b' AND k > 100", "k DESC, id", 0, 9_000);
        agreesWithAFullSort("SELECT * FROM w WHERE note LIKE '%7%'", "price, id", 10, 2_000);
    }

    @Test
    void aGuessedCutOffThatTooFewRowsPassIsNotTrusted() {
        // The sample still sees the deleted rows with the largest keys: the guessed cut-off lets through fewer rows
        // than LIMIT, and the top-N runs again without it.
        session.execute("CREATE TABLE d (id INTEGER, k BIGINT, note VARCHAR)").close();
        session.execute("INSERT INTO d SELECT i, i, 'n' || i FROM generate_series(0, 39999) AS g(i)").close();
        session.execute("ALTER TABLE d PARTITION INTO 2 PARTS").close();
        session.execute("DELETE FROM d WHERE k >= 20000").close();
        agreesWithAFullSort("SELECT * FROM d", "k DESC", 0, 5_000);
        assertThat(rows("SELECT * FROM d ORDER BY k DESC LIMIT 1")).containsExactly(List.of(19_999, 19_999L,
                "n19999"));
    }

    @Test
    void computedOutputsAndKeysOnlyAreNotReadLate() {
        assertThat(explain("SELECT id, k * 2 FROM w ORDER BY k LIMIT 5")).doesNotContain("materialized late");
        assertThat(explain("SELECT k, id FROM w ORDER BY k, id LIMIT 5")).doesNotContain("materialized late");
    }
}
