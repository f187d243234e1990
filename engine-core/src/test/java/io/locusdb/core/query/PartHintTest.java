package io.locusdb.core.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.TestQueries;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.TestStorage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A query with a PART hint reads one part of a table, as a distributed engine reads one split: the parts together
 * hold every row once, main and inserted rows alike, whatever path the query takes (streamed scans, aggregations,
 * counts, key lookups, joins), and a table divided anew since its parts were counted is refused.
 */
class PartHintTest {
    private static final int ROWS = 2_000;
    private static LocusDB db;

    @BeforeAll
    static void open() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()));
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE t (id BIGINT NOT NULL, grp VARCHAR, x INTEGER) PARTITION BY HASH(id) PARTITIONS 4");
            s.execute("CREATE TABLE k (id BIGINT PRIMARY KEY, v VARCHAR) PARTITION BY HASH(id) PARTITIONS 3");
            StringBuilder rows = new StringBuilder();
            StringBuilder keyed = new StringBuilder();
            for (int i = 0; i < ROWS; i++) {
                rows.append(i == 0 ? "" : ", ").append("(").append(i).append(", 'g").append(i % 7).append("', ")
                        .append(i % 11).append(")");
                keyed.append(i == 0 ? "" : ", ").append("(").append(i).append(", 'v").append(i).append("')");
            }
            s.execute("INSERT INTO t VALUES " + rows);
            s.execute("INSERT INTO k VALUES " + keyed);
            // Merged into main columns, then more rows in the deltas: a part is read whole, both kinds of rows.
            s.execute("ALTER TABLE t MERGE PARTS");
            s.execute("ALTER TABLE t PARTITION INTO 4 PARTS");
            s.execute("INSERT INTO t VALUES (" + ROWS + ", 'g0', 0), (" + (ROWS + 1) + ", 'g1', 1)");
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static List<List<Object>> rows(String sql, Object... parameters) {
        return TestQueries.rows(db, sql, parameters);
    }

    private static int parts(String table) {
        return ((Number) rows("SELECT parts FROM locus_tables WHERE table_name = '" + table + "'").getFirst()
                .getFirst()).intValue();
    }

    @Test
    void thePartsOfATableHoldEachOfItsRowsOnce() {
        int parts = parts("t");
        assertThat(parts).isGreaterThan(1);
        List<Object> all = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            List<List<Object>> part = rows("/*+ PART(t " + p + " OF " + parts + ") */ SELECT id FROM t");
            assertThat(part).as("part %d", p).isNotEmpty().hasSizeLessThan(ROWS);
            part.forEach(r -> all.add(r.getFirst()));
        }
        assertThat(all).hasSize(ROWS + 2).doesNotHaveDuplicates();
        assertThat(new HashSet<>(all)).containsAll(rows("SELECT id FROM t").stream().map(List::getFirst).toList());
    }

    @Test
    void everyKindOfQueryReadsOnlyTheSelectedPart() {
        int parts = parts("t");
        long count = 0;
        long sum = 0;
        Set<Object> groups = new HashSet<>();
        for (int p = 0; p < parts; p++) {
            String hint = "/*+ part(T " + p + " of " + parts + ") */ ";
            long n = ((Number) rows(hint + "SELECT count(*) FROM t").getFirst().getFirst()).longValue();
            assertThat(rows(hint + "SELECT count(*) FROM t WHERE id >= 0").getFirst().getFirst())
                    .isEqualTo(n);
            List<List<Object>> grouped = rows(hint + "SELECT grp, count(*), sum(x) FROM t GROUP BY grp ORDER BY grp");
            assertThat(grouped.stream().mapToLong(r -> ((Number) r.get(1)).longValue()).sum()).isEqualTo(n);
            grouped.forEach(r -> groups.add(r.getFirst()));
            sum += grouped.stream().mapToLong(r -> ((Number) r.get(2)).longValue()).sum();
            assertThat(rows(hint + "SELECT id FROM t ORDER BY id DESC LIMIT 3")).hasSizeLessThanOrEqualTo(3);
            count += n;
        }
        assertThat(count).isEqualTo(ROWS + 2);
        assertThat(sum).isEqualTo(rows("SELECT sum(x) FROM t").getFirst().getFirst());
        assertThat(groups).hasSize(7);
    }

    @Test
    void aKeyLookupFindsItsRowOnlyInThePartThatHoldsIt() {
        int parts = parts("k");
        int found = 0;
        for (int p = 0; p < parts; p++) {
            String hint = "/*+ PART(k " + p + " OF " + parts + ") */ ";
            found += rows(hint + "SELECT v FROM k WHERE id = ?", 1234L).size();
            found += rows(hint + "SELECT v FROM k WHERE id = 77").size();
        }
        assertThat(found).isEqualTo(2);
    }

    @Test
    void aJoinReadsTheSelectedPartOfEachNamedTable() {
        int parts = parts("k");
        long joined = 0;
        for (int p = 0; p < parts; p++) {
            joined += ((Number) rows("/*+ PART(k " + p + " OF " + parts + ") */ SELECT count(*) FROM t JOIN k"
                    + " ON t.id = k.id").getFirst().getFirst()).longValue();
        }
        assertThat(joined).isEqualTo(ROWS);
    }

    @Test
    void aPreparedStatementKeepsItsHint() {
        int parts = parts("t");
        long total = 0;
        try (Session s = db.connect()) {
            for (int p = 0; p < parts; p++) {
                total += TestQueries.rows(db, "/*+ PART(t " + p + " OF " + parts + ") */ SELECT id FROM t WHERE x < ?",
                        5).size();
            }
        }
        assertThat(total).isEqualTo(rows("SELECT id FROM t WHERE x < 5").size());
    }

    @Test
    void aTableDividedAnewSinceItsPartsWereCountedIsRefusedForARetry() {
        int parts = parts("t");
        assertFails(() -> rows("/*+ PART(t 0 OF " + (parts + 1) + ") */ SELECT id FROM t"),
                SqlState.SERIALIZATION_FAILURE);
    }

    @Test
    void aTableMergedAndSplitBackToItsPartCountIsAnotherDivision() {
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE d (id BIGINT) PARTITION BY RANGE(id) BOUNDS (100)").close();
            s.execute("INSERT INTO d SELECT x FROM generate_series(1, 300) AS g(x)").close();
            long before = division("d");
            assertThat(rows("/*+ PART(d 1 OF 2 AT " + before + ") */ SELECT count(*) FROM d").getFirst().getFirst())
                    .isEqualTo(201L);
            s.execute("ALTER TABLE d MOVE PART 1 TO NODE 0").close();
            assertThat(division("d")).as("a move keeps the division").isEqualTo(before);
            s.execute("ALTER TABLE d MERGE PARTS").close();
            s.execute("ALTER TABLE d PARTITION INTO 2 PARTS").close();
            assertThat(parts("d")).isEqualTo(2);
            assertThat(division("d")).isGreaterThan(before);
            assertFails(() -> rows("/*+ PART(d 1 OF 2 AT " + before + ") */ SELECT count(*) FROM d"),
                    SqlState.SERIALIZATION_FAILURE);
            long now = division("d");
            long total = 0;
            for (int p = 0; p < 2; p++) {
                total += ((Number) rows("/*+ PART(d " + p + " OF 2 AT " + now + ") */ SELECT count(*) FROM d")
                        .getFirst().getFirst()).longValue();
            }
            assertThat(total).isEqualTo(300);
        }
    }

    private static long division(String table) {
        return ((Number) rows("SELECT division FROM locus_tables WHERE table_name = '" + table + "'").getFirst()
                .getFirst()).longValue();
    }

    @Test
    void badHintsAreErrorsAndOtherHintCommentsAreComments() {
        assertFails(() -> rows("/*+ PART(nosuch 0 OF 2) */ SELECT 1"), SqlState.UNDEFINED_TABLE);
        assertFails(() -> rows("/*+ PART(t 4 OF 4) */ SELECT id FROM t"), SqlState.SYNTAX_ERROR);
        assertFails(() -> rows("/*+ PART(t, 1) */ SELECT id FROM t"), SqlState.SYNTAX_ERROR);
        assertFails(() -> rows("/*+ PART(t 0 OF 4) PART(T 1 OF 4) */ SELECT id FROM t"), SqlState.SYNTAX_ERROR);
        assertFails(() -> rows("/*+ PART(t 0 OF 4) */ DELETE FROM t WHERE id < 0"), SqlState.FEATURE_NOT_SUPPORTED);
        assertThat(rows("/*+ IndexScan(t) */ SELECT count(*) FROM t").getFirst().getFirst())
                .isEqualTo((long) ROWS + 2);
        assertThatThrownBy(() -> rows("/*+ PART(t 0 OF 4) */\nSELECT nosuch FROM t"))
                .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_COLUMN);
                    assertThat(e.line()).isEqualTo(2);
                    assertThat(e.column()).isEqualTo(8);
                });
    }

    private static void assertFails(ThrowingCallable call, SqlState state) {
        assertThatThrownBy(call).isInstanceOfSatisfying(LocusSqlException.class,
                e -> assertThat(e.state()).isEqualTo(state));
    }
}
