package io.locusdb.core.query;

import static io.locusdb.core.query.SqlTestDatabase.execute;
import static io.locusdb.core.query.SqlTestDatabase.explain;
import static io.locusdb.core.query.SqlTestDatabase.open;
import static io.locusdb.core.query.SqlTestDatabase.rows;
import static io.locusdb.core.query.SqlTestDatabase.stateOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CREATE [UNIQUE] INDEX, DROP INDEX and UNIQUE constraints: an index is stored in the catalog and the data
 * directory, a unique one refuses a second row with its key (NULLs never conflict), and scans and joins that bound
 * an index's leading column read the rows through it.
 */
class SecondaryIndexTest {
    @TempDir
    Path dir;

    /** 20,000 orders in two parts, folded into main columns, then delta rows and a deletion on top. */
    private static void orders(LocusDB db) {
        execute(db, "CREATE TABLE orders (id BIGINT, customer INTEGER, status VARCHAR(8), amount INTEGER)"
                + " PARTITION BY HASH(id) PARTITIONS 2");
        execute(db, "INSERT INTO orders SELECT g, CAST(g % 2000 AS INTEGER), CASE WHEN g % 3 = 0 THEN 'open'"
                + " ELSE 'done' END, CAST(g % 97 AS INTEGER) FROM generate_series(1, 20000) AS s(g)");
        execute(db, "ALTER TABLE orders MERGE PARTS");
        execute(db, "ALTER TABLE orders PARTITION INTO 2 PARTS");
        execute(db, "INSERT INTO orders VALUES (30001, 17, 'open', 5), (30002, 17, 'new', 6), (30003, NULL, 'new', 7)");
        execute(db, "DELETE FROM orders WHERE id = 2017");
    }

    @Test
    void aScanBoundingAnIndexedColumnReadsOnlyTheRowsTheIndexNames() {
        try (LocusDB db = open(null)) {
            orders(db);
            String query = "SELECT id, status, amount FROM orders WHERE customer = 17 AND amount > 0 ORDER BY id";
            // The same rows without the index: the predicate on an expression no index serves.
            List<List<Object>> expected = rows(db, query.replace("customer = 17", "customer + 0 = 17"));
            assertThat(expected).hasSize(11);
            assertThat(explain(db, query)).doesNotContain("index lookup");
            execute(db, "CREATE INDEX orders_by_customer ON orders (customer)");
            assertThat(explain(db, query)).contains("index lookup on customer through orders_by_customer");
            try (Session s = db.connect(); QueryResult r = s.execute(query)) {
                assertThat(r.toList()).isEqualTo(expected);
                long found = r.tasks().stream().filter(t -> t.taskClass().equals("iv-scan"))
                        .mapToLong(TaskRecord::rows).sum();
                assertThat(found).as("rows phase 1 found").isLessThanOrEqualTo(expected.size());
            }
            assertThat(rows(db, "SELECT count(*) FROM orders WHERE customer IN (17, 18, 1999)"))
                    .isEqualTo(rows(db, "SELECT count(*) FROM orders WHERE customer + 0 IN (17, 18, 1999)"));
            assertThat(rows(db, "SELECT count(*) FROM orders WHERE customer BETWEEN 17 AND 19"))
                    .isEqualTo(rows(db, "SELECT count(*) FROM orders WHERE customer + 0 BETWEEN 17 AND 19"));
            // Rows written after the index are found through it too.
            execute(db, "INSERT INTO orders VALUES (40000, 17, 'late', 1)");
            assertThat(rows(db, "SELECT max(id) FROM orders WHERE customer = 17")).containsExactly(List.of(40000L));
            // A wide range is cheaper to scan: the index is not used for it.
            assertThat(explain(db, "SELECT id FROM orders WHERE customer > 10")).doesNotContain("index lookup");
            execute(db, "DROP INDEX orders_by_customer");
            assertThat(explain(db, query)).doesNotContain("index lookup");
            assertThat(rows(db, query)).hasSize(12);
        }
    }

    @Test
    void aJoinProbingAnIndexedColumnWithFewKeysReadsOnlyTheirRows() {
        try (LocusDB db = open(null)) {
            orders(db);
            execute(db, "CREATE INDEX ON orders (customer)");
            execute(db, "CREATE TABLE vip (c INTEGER, label VARCHAR(5))");
            execute(db, "INSERT INTO vip VALUES (17, 'a'), (1999, 'b'), (NULL, 'c'), (5000, 'd')");
            String join = "SELECT v.label, count(*), sum(o.amount) FROM vip v JOIN orders o ON o.customer = v.c"
                    + " GROUP BY v.label ORDER BY v.label";
            assertThat(explain(db, join)).contains("index join").contains("key index on customer");
            assertThat(rows(db, join)).isEqualTo(rows(db, join.replace("o.customer = v.c", "o.customer + 0 = v.c")));
        }
    }

    @Test
    void aUniqueIndexRefusesASecondRowWithItsKeyButNotNulls() {
        try (LocusDB db = open(null)) {
            execute(db, "CREATE TABLE users (id INTEGER, email VARCHAR(30), team INTEGER, seat INTEGER)");
            execute(db, "INSERT INTO users VALUES (1, 'a@x', 1, 1), (2, 'b@x', 1, 2), (3, NULL, 2, NULL)");
            execute(db, "CREATE UNIQUE INDEX users_email ON users (email)");
            execute(db, "CREATE UNIQUE INDEX users_seat ON users (team, seat)");
            assertThatThrownBy(() -> execute(db, "INSERT INTO users VALUES (4, 'c@x', 3, 1), (5, 'a@x', 3, 2)"))
                    .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                        assertThat(e.state()).isEqualTo(SqlState.UNIQUE_VIOLATION);
                        assertThat(e.getMessage()).contains("users_email").contains("Key (email)=(a@x)");
                    });
            assertThat(rows(db, "SELECT count(*) FROM users")).containsExactly(List.of(3L));
            // NULL equals nothing: any number of rows may leave a unique column NULL.
            execute(db, "INSERT INTO users VALUES (6, NULL, 2, NULL), (7, NULL, 9, 9)");
            assertThat(stateOf(db, "INSERT INTO users VALUES (8, 'z@x', 1, 2)")).isEqualTo(SqlState.UNIQUE_VIOLATION);
            execute(db, "INSERT INTO users VALUES (8, 'z@x', 2, 2)");
            assertThat(stateOf(db, "INSERT INTO users VALUES (9, 'q@x', 4, 4), (10, 'r@x', 4, 4)"))
                    .isEqualTo(SqlState.UNIQUE_VIOLATION);
            assertThat(stateOf(db, "UPDATE users SET email = 'b@x' WHERE id = 1")).isEqualTo(SqlState.UNIQUE_VIOLATION);
            // A key freed by DELETE or UPDATE can be taken again, in the same statement too.
            execute(db, "UPDATE users SET email = CASE id WHEN 1 THEN 'b@x' ELSE 'a@x' END WHERE id IN (1, 2)");
            execute(db, "DELETE FROM users WHERE id = 8");
            execute(db, "INSERT INTO users VALUES (11, 'z@x', 2, 2)");
            assertThat(rows(db, "SELECT id, email FROM users WHERE email IS NOT NULL ORDER BY id")).containsExactly(
                    List.of(1, "b@x"), List.of(2, "a@x"), List.of(11, "z@x"));
            execute(db, "DROP INDEX users_email");
            execute(db, "INSERT INTO users VALUES (12, 'z@x', 5, 5)");
        }
    }

    @Test
    void aUniqueIndexOverRowsThatShareAKeyIsRefusedAndNotCreated() {
        try (LocusDB db = open(null)) {
            execute(db, "CREATE TABLE t (a INTEGER, b VARCHAR(5)) PARTITIONS 2");
            execute(db, "INSERT INTO t SELECT CAST(g AS INTEGER), 'v' || CAST(g AS VARCHAR) FROM"
                    + " generate_series(1, 1000) AS s(g)");
            execute(db, "INSERT INTO t VALUES (500, 'dup')");
            assertThatThrownBy(() -> execute(db, "CREATE UNIQUE INDEX t_a ON t (a)"))
                    .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                        assertThat(e.state()).isEqualTo(SqlState.UNIQUE_VIOLATION);
                        assertThat(e.getMessage()).contains("t_a").contains("Key (a)=(500)");
                    });
            assertThat(rows(db, "SELECT count(*) FROM pg_catalog.pg_indexes WHERE tablename = 't'"))
                    .containsExactly(List.of(0L));
            execute(db, "INSERT INTO t VALUES (500, 'again')");
            execute(db, "DELETE FROM t WHERE b <> 'v500' AND a = 500");
            execute(db, "CREATE UNIQUE INDEX t_a ON t (a)");
            assertThat(stateOf(db, "INSERT INTO t VALUES (500, 'x')")).isEqualTo(SqlState.UNIQUE_VIOLATION);
        }
    }

    @Test
    void uniqueColumnAndTableConstraintsBecomeUniqueIndexes() {
        try (LocusDB db = open(null)) {
            execute(db, "CREATE TABLE p (id INTEGER PRIMARY KEY, code VARCHAR(5) UNIQUE, x INTEGER, y INTEGER,"
                    + " CONSTRAINT p_xy UNIQUE (x, y))");
            execute(db, "INSERT INTO p VALUES (1, 'a', 1, 1), (2, 'b', 1, 2)");
            assertThat(stateOf(db, "INSERT INTO p VALUES (3, 'a', 5, 5)")).isEqualTo(SqlState.UNIQUE_VIOLATION);
            assertThat(stateOf(db, "INSERT INTO p VALUES (3, 'c', 1, 2)")).isEqualTo(SqlState.UNIQUE_VIOLATION);
            assertThat(stateOf(db, "INSERT INTO p VALUES (1, 'c', 3, 3)")).isEqualTo(SqlState.UNIQUE_VIOLATION);
            assertThat(rows(db, "SELECT indexname, indexdef FROM pg_catalog.pg_indexes WHERE tablename = 'p'"
                    + " ORDER BY indexname")).containsExactly(
                    List.of("p_code_key", "CREATE UNIQUE INDEX p_code_key ON public.p USING btree (code)"),
                    List.of("p_pkey", "CREATE UNIQUE INDEX p_pkey ON public.p USING btree (id)"),
                    List.of("p_xy", "CREATE UNIQUE INDEX p_xy ON public.p USING btree (x, y)"));
            // A table whose second constraint cannot be made is not created at all.
            assertThat(stateOf(db, "CREATE TABLE q (a INTEGER CONSTRAINT p_xy UNIQUE)"))
                    .isEqualTo(SqlState.DUPLICATE_TABLE);
            assertThat(stateOf(db, "SELECT * FROM q")).isEqualTo(SqlState.UNDEFINED_TABLE);
        }
    }

    @Test
    void onConflictArbitratesOnTheUniqueIndexItNames() {
        try (LocusDB db = open(null)) {
            execute(db, "CREATE TABLE users (email VARCHAR(20) UNIQUE, handle VARCHAR(10) UNIQUE, visits INTEGER)");
            execute(db, "INSERT INTO users VALUES ('a@x', 'ann', 1), ('b@x', 'bob', 1)");
            execute(db, "INSERT INTO users VALUES ('a@x', 'ann', 1), ('c@x', 'cy', 1) ON CONFLICT (email) DO UPDATE"
                    + " SET visits = users.visits + excluded.visits");
            assertThat(rows(db, "SELECT email, visits FROM users ORDER BY email")).containsExactly(
                    List.of("a@x", 2), List.of("b@x", 1), List.of("c@x", 1));
            // Without a target DO NOTHING skips a row that conflicts on any unique index; NULL keys never do.
            execute(db, "INSERT INTO users VALUES ('d@x', 'bob', 1), ('e@x', 'eve', 1), (NULL, NULL, 7),"
                    + " (NULL, NULL, 8) ON CONFLICT DO NOTHING");
            assertThat(rows(db, "SELECT count(*), sum(visits) FROM users")).containsExactly(List.of(6L, 20L));
            execute(db, "INSERT INTO users VALUES ('e@x', 'x', 5) ON CONFLICT ON CONSTRAINT users_email_key"
                    + " DO UPDATE SET visits = 50");
            assertThat(rows(db, "SELECT visits FROM users WHERE email = 'e@x'")).containsExactly(List.of(50));
            // The arbiter is the named key: a conflict on the other one still fails the statement.
            assertThat(stateOf(db, "INSERT INTO users VALUES ('f@x', 'ann', 1) ON CONFLICT (email) DO NOTHING"))
                    .isEqualTo(SqlState.UNIQUE_VIOLATION);
            assertThat(stateOf(db, "INSERT INTO users VALUES ('g@x', 'g', 1) ON CONFLICT (visits) DO NOTHING"))
                    .isEqualTo(SqlState.INVALID_COLUMN_REFERENCE);
            assertThat(stateOf(db, "INSERT INTO users VALUES ('a@x', 'g', 1), ('a@x', 'h', 1) ON CONFLICT (email)"
                    + " DO UPDATE SET visits = 0")).isEqualTo(SqlState.CARDINALITY_VIOLATION);
            // A keyed table too: without a target DO NOTHING skips conflicts on its unique index as on its key.
            execute(db, "CREATE TABLE accounts (id INTEGER PRIMARY KEY, email VARCHAR(20) UNIQUE)");
            execute(db, "INSERT INTO accounts VALUES (1, 'a@x')");
            // A row skipped for one key does not hold its other key: (2, 'q@x') goes in after (2, 'a@x') was skipped.
            execute(db, "INSERT INTO accounts VALUES (2, 'a@x'), (1, 'z@x'), (3, 'c@x'), (2, 'q@x'), (4, 'c@x')"
                    + " ON CONFLICT DO NOTHING");
            assertThat(rows(db, "SELECT id, email FROM accounts ORDER BY id")).containsExactly(List.of(1, "a@x"),
                    List.of(2, "q@x"), List.of(3, "c@x"));
            assertThat(stateOf(db, "INSERT INTO accounts VALUES (4, 'a@x') ON CONFLICT (id) DO NOTHING"))
                    .isEqualTo(SqlState.UNIQUE_VIOLATION);
        }
    }

    @Test
    void badIndexStatementsAreRefusedWithTheirSqlState() {
        try (LocusDB db = open(null)) {
            execute(db, "CREATE TABLE t (a INTEGER, b VARCHAR(5))");
            execute(db, "CREATE VIEW v AS SELECT a FROM t");
            execute(db, "CREATE INDEX t_a ON t (a DESC NULLS LAST)");
            assertThat(stateOf(db, "CREATE INDEX t_a ON t (b)")).isEqualTo(SqlState.DUPLICATE_TABLE);
            execute(db, "CREATE INDEX IF NOT EXISTS t_a ON t (b)");
            assertThat(stateOf(db, "CREATE INDEX t ON t (b)")).isEqualTo(SqlState.DUPLICATE_TABLE);
            assertThat(stateOf(db, "CREATE INDEX i ON nowhere (a)")).isEqualTo(SqlState.UNDEFINED_TABLE);
            assertThat(stateOf(db, "CREATE INDEX i ON v (a)")).isEqualTo(SqlState.WRONG_OBJECT_TYPE);
            assertThat(stateOf(db, "CREATE INDEX i ON t (c)")).isEqualTo(SqlState.UNDEFINED_COLUMN);
            assertThat(stateOf(db, "CREATE INDEX i ON t (a, a)")).isEqualTo(SqlState.SEMANTIC_ERROR);
            assertThat(stateOf(db, "CREATE INDEX i ON t (lower(b))")).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
            assertThat(stateOf(db, "CREATE INDEX i ON t (a) WHERE a > 0")).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
            assertThat(stateOf(db, "CREATE INDEX i ON t USING gist (a)")).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
            assertThat(stateOf(db, "CREATE INDEX i ON t ()")).isEqualTo(SqlState.SYNTAX_ERROR);
            assertThat(stateOf(db, "DROP INDEX nothing")).isEqualTo(SqlState.UNDEFINED_OBJECT);
            // All or nothing: a missing name keeps the others.
            assertThat(stateOf(db, "DROP INDEX t_a, nothing")).isEqualTo(SqlState.UNDEFINED_OBJECT);
            assertThat(rows(db, "SELECT indexdef FROM pg_catalog.pg_indexes")).containsExactly(
                    List.of("CREATE INDEX t_a ON public.t USING btree (a DESC)"));
            execute(db, "DROP INDEX IF EXISTS t_a, nothing");
            assertThat(rows(db, "SELECT count(*) FROM pg_catalog.pg_indexes")).containsExactly(List.of(0L));
            // Dropping a table drops its indexes, and their names are free again.
            execute(db, "CREATE INDEX t_b ON t (b)");
            execute(db, "DROP VIEW v");
            execute(db, "DROP TABLE t");
            execute(db, "CREATE TABLE t2 (b INTEGER)");
            execute(db, "CREATE INDEX t_b ON t2 (b)");
        }
    }

    @Test
    void indexesLastThroughARestartFromTheLogAndFromACheckpoint() {
        try (LocusDB db = open(dir)) {
            execute(db, "CREATE TABLE t (a INTEGER UNIQUE, b INTEGER)");
            execute(db, "INSERT INTO t SELECT CAST(g AS INTEGER), CAST(g % 10 AS INTEGER) FROM"
                    + " generate_series(1, 3000) AS s(g)");
            execute(db, "CREATE INDEX t_b ON t (b)");
            execute(db, "CREATE INDEX t_gone ON t (b, a)");
            execute(db, "DROP INDEX t_gone");
        }
        try (LocusDB db = open(dir)) {
            assertThat(stateOf(db, "INSERT INTO t VALUES (7, 0)")).isEqualTo(SqlState.UNIQUE_VIOLATION);
            assertThat(rows(db, "SELECT indexname FROM pg_catalog.pg_indexes ORDER BY indexname"))
                    .containsExactly(List.of("t_a_key"), List.of("t_b"));
            db.durableStore().orElseThrow().checkpoint();
        }
        try (LocusDB db = open(dir)) {
            assertThat(stateOf(db, "INSERT INTO t VALUES (8, 0)")).isEqualTo(SqlState.UNIQUE_VIOLATION);
            assertThat(explain(db, "SELECT * FROM t WHERE a = 8")).contains("index lookup on a through t_a_key");
            assertThat(rows(db, "SELECT indexname FROM pg_catalog.pg_indexes ORDER BY indexname"))
                    .containsExactly(List.of("t_a_key"), List.of("t_b"));
            execute(db, "CREATE INDEX t_gone ON t (b, a)");
        }
    }
}
