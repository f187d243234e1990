package io.locusdb.core.query;

import static io.locusdb.core.query.SqlTestDatabase.execute;
import static io.locusdb.core.query.SqlTestDatabase.explain;
import static io.locusdb.core.query.SqlTestDatabase.open;
import static io.locusdb.core.query.SqlTestDatabase.rows;
import static io.locusdb.core.query.SqlTestDatabase.stateOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.LocusDB;
import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keyed tables: PRIMARY KEY makes a key name at most one row (23505 otherwise, nothing of the statement applied),
 * INSERT ... ON CONFLICT is the upsert, lookups by key read the key index instead of every row, and the key lasts
 * through a restart.
 */
class KeyedTableTest {
    @TempDir
    Path dir;

    private static void accounts(LocusDB db) {
        execute(db, "CREATE TABLE accounts (id BIGINT PRIMARY KEY, owner VARCHAR(20), balance DECIMAL(12,2))"
                + " PARTITION BY HASH(id) PARTITIONS 2");
        execute(db, "INSERT INTO accounts VALUES (1, 'ann', 10.00), (2, 'bob', 20.00), (3, 'cy', 30.00)");
    }

    @Test
    void aPrimaryKeyNamesAtMostOneRowAndAFailedStatementChangesNothing() {
        try (LocusDB db = open(null)) {
            accounts(db);
            assertThatThrownBy(() -> execute(db, "INSERT INTO accounts VALUES (4, 'dee', 1), (2, 'bo2', 5)"))
                    .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                        assertThat(e.state()).isEqualTo(SqlState.UNIQUE_VIOLATION);
                        assertThat(e.getMessage()).contains("accounts_pkey").contains("Key (id)=(2)");
                    });
            assertThat(stateOf(db, "INSERT INTO accounts VALUES (7, 'x', 1), (7, 'y', 2)"))
                    .isEqualTo(SqlState.UNIQUE_VIOLATION);
            assertThat(rows(db, "SELECT id, owner FROM accounts ORDER BY id")).containsExactly(List.of(1L, "ann"),
                    List.of(2L, "bob"), List.of(3L, "cy"));
            assertThat(stateOf(db, "INSERT INTO accounts VALUES (NULL, 'n', 1)"))
                    .isEqualTo(SqlState.NOT_NULL_VIOLATION);
            // A key freed by DELETE can be taken again; UPDATE onto a taken key is refused.
            execute(db, "DELETE FROM accounts WHERE id = 3");
            execute(db, "INSERT INTO accounts VALUES (3, 'cy2', 33)");
            assertThat(stateOf(db, "UPDATE accounts SET id = 1 WHERE id = 2")).isEqualTo(SqlState.UNIQUE_VIOLATION);
            execute(db, "UPDATE accounts SET id = 20 WHERE id = 2");
            assertThat(rows(db, "SELECT id, owner FROM accounts ORDER BY id")).containsExactly(List.of(1L, "ann"),
                    List.of(3L, "cy2"), List.of(20L, "bob"));
        }
    }

    @Test
    void pointInListAndRangeLookupsReadTheIndexOfMainAndDeltaRows() {
        try (LocusDB db = open(null)) {
            execute(db, "CREATE TABLE items (id INTEGER, tag VARCHAR(10), qty INTEGER, PRIMARY KEY (id))");
            execute(db, "INSERT INTO items SELECT CAST(g AS INTEGER), 't' || CAST(g % 7 AS VARCHAR), "
                    + "CAST(g % 100 AS INTEGER) FROM generate_series(1, 5000) AS s(g)");
            // Folding the delta into main columns: the rows are now found through the main rows' index.
            execute(db, "ALTER TABLE items MERGE PARTS");
            execute(db, "INSERT INTO items VALUES (6001, 'new', 1), (6002, 'new', 2)");
            execute(db, "DELETE FROM items WHERE id = 42");
            assertThat(explain(db, "SELECT * FROM items WHERE id = 17")).contains("Key lookup on items (id = 17)");
            assertThat(explain(db, "SELECT * FROM items WHERE id IN (17, 19)"))
                    .contains("Key lookup on items (id = 17 OR id = 19)");
            assertThat(explain(db, "SELECT * FROM items WHERE id IN (17, 19) AND qty > 3"))
                    .contains("index lookup on id");
            assertThat(explain(db, "SELECT * FROM items WHERE id > 10")).doesNotContain("index lookup");
            assertThat(rows(db, "SELECT id, tag, qty FROM items WHERE id = 17")).containsExactly(
                    List.of(17, "t3", 17));
            assertThat(rows(db, "SELECT id FROM items WHERE id = 42")).isEmpty();
            assertThat(rows(db, "SELECT id FROM items WHERE id IN (5, 42, 6002, 9999) ORDER BY id"))
                    .containsExactly(List.of(5), List.of(6002));
            // A multi-get without ORDER BY: each distinct key once, NULLs and absent keys match nothing.
            assertThat(rows(db, "SELECT id, qty FROM items WHERE id IN (5, 42, 6002, 9999, 5)"))
                    .containsExactlyInAnyOrder(List.of(5, 5), List.of(6002, 2));
            assertThat(rows(db, "SELECT id FROM items WHERE id IN (7, 5, 7, 3) AND qty > 4"))
                    .containsExactlyInAnyOrder(List.of(7), List.of(5));
            assertThat(rows(db, "SELECT id FROM items WHERE id BETWEEN 40 AND 44 AND qty <> 43 ORDER BY id"))
                    .containsExactly(List.of(40), List.of(41), List.of(44));
            assertThat(rows(db, "SELECT count(*) FROM items WHERE id BETWEEN 4990 AND 6001"))
                    .containsExactly(List.of(12L));
            execute(db, "UPDATE items SET qty = 999 WHERE id = 6001");
            assertThat(rows(db, "SELECT qty FROM items WHERE id = 6001")).containsExactly(List.of(999));
        }
    }

    @Test
    void aPreparedLookupByTheWholeKeyReadsTheRowOfItsSnapshot() {
        try (LocusDB db = open(null); Session s = db.connect()) {
            accounts(db);
            execute(db, "ALTER TABLE accounts MERGE PARTS");
            execute(db, "INSERT INTO accounts VALUES (4, 'dee', 40.00)");
            execute(db, "UPDATE accounts SET owner = 'BOB' WHERE id = 2");
            PreparedQuery byKey = s.prepare("SELECT owner, balance, id FROM accounts WHERE id = ?");
            assertThat(explain(db, "SELECT owner FROM accounts WHERE id = 2")).contains("Key lookup on accounts");
            assertThat(explain(db, "SELECT owner FROM accounts WHERE id = 2 AND balance > 0"))
                    .doesNotContain("Key lookup").contains("index lookup on id");
            for (Object[] expected : new Object[][] {{1L, "ann"}, {2L, "BOB"}, {4L, "dee"}}) {
                byKey.clearParameters();
                byKey.set(1, expected[0]);
                try (QueryResult r = byKey.execute()) {
                    assertThat(r.toList()).singleElement().satisfies(row -> {
                        assertThat(row.get(0)).isEqualTo(expected[1]);
                        assertThat(row.get(2)).isEqualTo(expected[0]);
                    });
                }
            }
            for (Object missing : new Object[] {99L, null, 2.5}) {
                byKey.clearParameters();
                byKey.set(1, missing);
                try (QueryResult r = byKey.execute()) {
                    assertThat(r.toList()).as("key %s", missing).isEmpty();
                }
            }
            assertThat(rows(db, "SELECT * FROM accounts WHERE id = 4")).containsExactly(
                    List.of(4L, "dee", new BigDecimal("40.00")));
            execute(db, "CREATE TABLE pairs (a VARCHAR(5), b INTEGER, v INTEGER, PRIMARY KEY (a, b))");
            execute(db, "INSERT INTO pairs VALUES ('x', 1, 10), ('x', 2, 20), ('y', 1, 30)");
            assertThat(rows(db, "SELECT v FROM pairs WHERE b = 1 AND a = 'y'")).containsExactly(List.of(30));
            assertThat(rows(db, "SELECT v FROM pairs WHERE a = 'x' AND b = 3")).isEmpty();
        }
    }

    @Test
    void onConflictDoUpdateSetsFromTheProposedAndTheExistingRow() {
        try (LocusDB db = open(null)) {
            accounts(db);
            long changed = execute(db, "INSERT INTO accounts AS a VALUES (1, 'ann', 5.00), (4, 'dee', 40.00)"
                    + " ON CONFLICT (id) DO UPDATE SET balance = a.balance + EXCLUDED.balance, owner = upper(owner)");
            assertThat(changed).isEqualTo(2);
            assertThat(rows(db, "SELECT id, owner, balance FROM accounts ORDER BY id")).containsExactly(
                    List.of(1L, "ANN", new BigDecimal("15.00")), List.of(2L, "bob", new BigDecimal("20.00")),
                    List.of(3L, "cy", new BigDecimal("30.00")), List.of(4L, "dee", new BigDecimal("40.00")));
            // WHERE decides which conflicting rows change; the others stay as they are.
            execute(db, "INSERT INTO accounts VALUES (2, 'b', 1), (3, 'c', 1) ON CONFLICT (id) DO UPDATE"
                    + " SET owner = excluded.owner WHERE accounts.balance > 25");
            assertThat(rows(db, "SELECT owner FROM accounts WHERE id IN (2, 3) ORDER BY id")).containsExactly(
                    List.of("bob"), List.of("c"));
            assertThat(stateOf(db, "INSERT INTO accounts VALUES (9, 'x', 1), (9, 'y', 1) ON CONFLICT (id)"
                    + " DO UPDATE SET owner = excluded.owner")).isEqualTo(SqlState.CARDINALITY_VIOLATION);
            assertThat(rows(db, "SELECT count(*) FROM accounts WHERE id = 9")).containsExactly(List.of(0L));
        }
    }

    @Test
    void onConflictDoNothingSkipsConflictingRows() {
        try (LocusDB db = open(null)) {
            accounts(db);
            assertThat(execute(db, "INSERT INTO accounts VALUES (1, 'x', 0), (5, 'eve', 50), (5, 'eve2', 5)"
                    + " ON CONFLICT DO NOTHING")).isEqualTo(1);
            assertThat(execute(db, "INSERT INTO accounts SELECT id + 1, owner, balance FROM accounts"
                    + " ON CONFLICT ON CONSTRAINT accounts_pkey DO NOTHING")).isEqualTo(2);
            assertThat(rows(db, "SELECT id, owner FROM accounts ORDER BY id")).containsExactly(List.of(1L, "ann"),
                    List.of(2L, "bob"), List.of(3L, "cy"), List.of(4L, "cy"), List.of(5L, "eve"),
                    List.of(6L, "eve"));
        }
    }

    @Test
    void aConflictTargetMustBeThePrimaryKey() {
        try (LocusDB db = open(null)) {
            accounts(db);
            execute(db, "CREATE TABLE plain (id BIGINT, v INTEGER)");
            assertThat(stateOf(db, "INSERT INTO accounts VALUES (1, 'x', 0) ON CONFLICT (owner) DO NOTHING"))
                    .isEqualTo(SqlState.INVALID_COLUMN_REFERENCE);
            assertThat(stateOf(db, "INSERT INTO plain VALUES (1, 1) ON CONFLICT (id) DO NOTHING"))
                    .isEqualTo(SqlState.INVALID_COLUMN_REFERENCE);
            assertThat(stateOf(db, "INSERT INTO accounts VALUES (1, 'x', 0) ON CONFLICT ON CONSTRAINT nope"
                    + " DO NOTHING")).isEqualTo(SqlState.UNDEFINED_OBJECT);
            assertThat(stateOf(db, "INSERT INTO accounts VALUES (1, 'x', 0) ON CONFLICT DO UPDATE SET owner = 'z'"))
                    .isEqualTo(SqlState.SYNTAX_ERROR);
            assertThatThrownBy(() -> execute(db, "INSERT INTO accounts VALUES (1, 'x', 0) ON CONFLICT (id) DO UPDATE"
                    + " SET owner = excluded.nosuch")).isInstanceOfSatisfying(LocusSqlException.class, e -> {
                        assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_COLUMN);
                        assertThat(e.getMessage()).contains("excluded.nosuch").doesNotContain("locus_excluded");
                    });
            assertThat(stateOf(db, "INSERT INTO accounts VALUES (1, 'x', 0) ON CONFLICT (id) DO UPDATE"
                    + " SET nosuch = 1")).isEqualTo(SqlState.UNDEFINED_COLUMN);
            assertThat(stateOf(db, "CREATE TABLE two (a INTEGER PRIMARY KEY, b INTEGER, PRIMARY KEY (b))"))
                    .isEqualTo(SqlState.SYNTAX_ERROR);
            assertThat(stateOf(db, "CREATE TABLE bad (a INTEGER, PRIMARY KEY (c))"))
                    .isEqualTo(SqlState.UNDEFINED_COLUMN);
        }
    }

    @Test
    void aPreparedInListOfParametersIsAMultiGetOrAScanOfTheirRowsOnly() {
        try (LocusDB db = open(null); Session s = db.connect()) {
            execute(db, "CREATE TABLE items (id BIGINT PRIMARY KEY, qty INTEGER) PARTITION BY HASH(id) PARTITIONS 2");
            execute(db, "INSERT INTO items SELECT g, CAST(g % 100 AS INTEGER) FROM generate_series(1, 20000) AS s(g)");
            execute(db, "ALTER TABLE items MERGE PARTS");
            execute(db, "ALTER TABLE items PARTITION INTO 2 PARTS");
            PreparedQuery multiGet = s.prepare("SELECT id, qty FROM items WHERE id IN (?, ?, ?)");
            PreparedQuery filtered = s.prepare("SELECT id, qty FROM items WHERE id IN (?, ?, ?) AND qty > 10");
            for (PreparedQuery q : List.of(multiGet, filtered)) {
                q.set(1, 150L);
                q.set(2, 99_999L);
                q.set(3, 150L);
                try (QueryResult r = q.execute()) {
                    assertThat(r.toList()).containsExactly(List.of(150L, 50));
                }
            }
            // The bound IN list reaches the scan as ranges of the key, read through the index: phase 1 finds the
            // rows of the listed keys only, not the table.
            filtered.set(1, 7L);
            filtered.set(2, 1234L);
            filtered.set(3, 5L);
            try (QueryResult r = filtered.execute()) {
                assertThat(r.toList()).containsExactlyInAnyOrder(List.of(1234L, 34));
                assertThat(r.tasks().stream().filter(t -> t.taskClass().equals("iv-scan"))
                        .mapToLong(TaskRecord::rows).sum()).isLessThan(10);
            }
        }
    }

    @Test
    void aCompositeKeyComparesEveryColumn() {
        try (LocusDB db = open(null)) {
            execute(db, "CREATE TABLE lines (o BIGINT, n INTEGER, note VARCHAR(10), CONSTRAINT lines_pk"
                    + " PRIMARY KEY (o, n))");
            execute(db, "INSERT INTO lines VALUES (1, 1, 'a'), (1, 2, 'b'), (2, 1, 'c')");
            assertThat(stateOf(db, "INSERT INTO lines VALUES (1, 2, 'dup')")).isEqualTo(SqlState.UNIQUE_VIOLATION);
            execute(db, "ALTER TABLE lines MERGE PARTS");
            assertThat(stateOf(db, "INSERT INTO lines VALUES (2, 1, 'dup')")).isEqualTo(SqlState.UNIQUE_VIOLATION);
            execute(db, "INSERT INTO lines VALUES (2, 2, 'd') ON CONFLICT (n, o) DO UPDATE SET note = 'x'");
            execute(db, "INSERT INTO lines VALUES (1, 1, 'e') ON CONFLICT (o, n) DO UPDATE SET note = excluded.note");
            assertThat(rows(db, "SELECT o, n, note FROM lines WHERE o = 1 OR o = 2 ORDER BY o, n")).containsExactly(
                    List.of(1L, 1, "e"), List.of(1L, 2, "b"), List.of(2L, 1, "c"), List.of(2L, 2, "d"));
        }
    }

    @Test
    void aJoinProbingAKeyedTableWithFewKeysReadsOnlyTheirRowsThroughTheIndex() {
        try (LocusDB db = open(null)) {
            execute(db, "CREATE TABLE facts (id BIGINT PRIMARY KEY, grp INTEGER, amount DECIMAL(12,2))"
                    + " PARTITION BY HASH(id) PARTITIONS 2");
            execute(db, "INSERT INTO facts SELECT g, CAST(g % 10 AS INTEGER), CAST(g AS DECIMAL(12,2)) / 100"
                    + " FROM generate_series(1, 20000) AS s(g)");
            execute(db, "ALTER TABLE facts MERGE PARTS");
            execute(db, "ALTER TABLE facts PARTITION INTO 2 PARTS");
            // Delta rows, an upserted row and a deleted one: the index of both main and delta rows is read.
            execute(db, "INSERT INTO facts VALUES (30001, 1, 1.00), (7, 7, 70.00) ON CONFLICT (id) DO UPDATE SET"
                    + " amount = excluded.amount");
            execute(db, "DELETE FROM facts WHERE id = 11");
            execute(db, "CREATE TABLE wanted (k BIGINT, label VARCHAR(5))");
            execute(db, "INSERT INTO wanted VALUES (7, 'a'), (7, 'b'), (11, 'c'), (30001, 'd'), (19999, 'e'),"
                    + " (NULL, 'f'), (50000, 'g')");
            String join = "SELECT w.label, f.id, f.amount FROM wanted w JOIN facts f ON f.id = w.k";
            assertThat(explain(db, join)).contains("index join").contains("key index on id");
            try (Session s = db.connect(); QueryResult r = s.execute(join + " ORDER BY w.label")) {
                assertThat(r.toList()).containsExactly(List.of("a", 7L, new BigDecimal("70.00")),
                        List.of("b", 7L, new BigDecimal("70.00")), List.of("d", 30001L, new BigDecimal("1.00")),
                        List.of("e", 19999L, new BigDecimal("199.99")));
                long scanned = r.tasks().stream().filter(t -> t.taskClass().equals("iv-scan"))
                        .mapToLong(TaskRecord::rows).sum();
                assertThat(scanned).as("rows phase 1 found in both tables").isLessThan(100);
            }
            // A join that keeps unmatched probe rows, or an anti join, reads the keyed table whole.
            assertThat(explain(db, "SELECT f.id FROM facts f LEFT JOIN wanted w ON f.id = w.k"))
                    .doesNotContain("index join");
            assertThat(rows(db, "SELECT count(*) FROM facts f WHERE f.id NOT IN (SELECT k FROM wanted"
                    + " WHERE k IS NOT NULL)")).containsExactly(List.of(19997L));
            assertThat(rows(db, "SELECT count(*), sum(f.amount) FROM facts f WHERE f.id IN (SELECT k FROM wanted)"))
                    .containsExactly(List.of(3L, new BigDecimal("270.99")));
        }
    }

    @Test
    void theCatalogsListThePrimaryKeysAsPostgreSqlDoes() {
        try (LocusDB db = open(null)) {
            execute(db, "CREATE TABLE lines (o BIGINT, n INTEGER, note VARCHAR(10), PRIMARY KEY (o, n))");
            assertThat(rows(db, "SELECT conname, contype, conkey FROM pg_catalog.pg_constraint"
                    + " WHERE conrelid = (SELECT oid FROM pg_catalog.pg_class WHERE relname = 'lines')"))
                    .containsExactly(List.of("lines_pkey", "p", "{1,2}"));
            assertThat(rows(db, "SELECT column_name, ordinal_position FROM information_schema.key_column_usage"
                    + " WHERE table_name = 'lines' ORDER BY ordinal_position"))
                    .containsExactly(List.of("o", 1), List.of("n", 2));
            assertThat(rows(db, "SELECT constraint_type FROM information_schema.table_constraints"
                    + " WHERE table_name = 'lines'")).containsExactly(List.of("PRIMARY KEY"));
        }
    }

    @Test
    void theKeyLastsThroughARestartFromTheLogAndFromACheckpoint() {
        try (LocusDB db = open(dir)) {
            accounts(db);
            execute(db, "INSERT INTO accounts VALUES (1, 'ann', 1) ON CONFLICT (id) DO UPDATE SET owner = 'ANN'");
        }
        try (LocusDB db = open(dir)) {
            assertThat(stateOf(db, "INSERT INTO accounts VALUES (2, 'x', 0)")).isEqualTo(SqlState.UNIQUE_VIOLATION);
            assertThat(rows(db, "SELECT owner FROM accounts WHERE id = 1")).containsExactly(List.of("ANN"));
            db.durableStore().orElseThrow().checkpoint();
        }
        try (LocusDB db = open(dir)) {
            assertThat(stateOf(db, "INSERT INTO accounts VALUES (3, 'x', 0)")).isEqualTo(SqlState.UNIQUE_VIOLATION);
            assertThat(explain(db, "SELECT * FROM accounts WHERE id BETWEEN 3 AND 4")).contains("index lookup on id");
            assertThat(rows(db, "SELECT id, owner FROM accounts ORDER BY id")).containsExactly(List.of(1L, "ANN"),
                    List.of(2L, "bob"), List.of(3L, "cy"));
        }
    }
}
