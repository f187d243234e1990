package io.locusdb.core.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.TestStorage;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * UPDATE, DELETE, INSERT ... SELECT, CREATE TABLE ... AS and INSERT with parameters: what they change, what they
 * refuse, and that the log and checkpoints carry their effects through a crash.
 */
class WritingStatementsTest {
    @TempDir
    Path dir;

    private static LocusDB open(Path directory) {
        LocusConfig config = LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null)
                .withExecutor(b -> b.pinWorkers(false));
        return LocusDB.open(directory == null ? config : config.withDurability(Durability.in(directory)));
    }

    private static String query(LocusDB db, String sql) {
        try (Session s = db.connect(); QueryResult r = s.execute(sql)) {
            return r.toList().toString();
        }
    }

    private static long execute(LocusDB db, String sql) {
        try (Session s = db.connect(); QueryResult r = s.execute(sql)) {
            return r.updateCount();
        }
    }

    private static void people(LocusDB db) {
        execute(db, "CREATE TABLE people (id INTEGER NOT NULL, name VARCHAR(20), age INTEGER, born DATE,"
                + " balance DECIMAL(10,2)) PARTITION BY HASH(id) PARTITIONS 2");
        execute(db, "INSERT INTO people VALUES (1, 'ann', 30, DATE '1994-05-01', 10.00),"
                + " (2, 'bob', 40, DATE '1984-01-31', 20.50), (3, 'cy', NULL, NULL, NULL),"
                + " (4, 'dee', 40, DATE '1984-07-07', -5.25)");
    }

    @Test
    void deleteRemovesTheRowsTheConditionSelectsAndCountsThem() {
        try (LocusDB db = open(null)) {
            people(db);
            assertThat(execute(db, "DELETE FROM people WHERE age = 40 OR name LIKE 'c%'")).isEqualTo(3);
            assertThat(query(db, "SELECT id FROM people")).isEqualTo("[[1]]");
            assertThat(execute(db, "DELETE FROM people WHERE id > 100")).isZero();
            assertThat(execute(db, "DELETE FROM people")).isEqualTo(1);
            assertThat(query(db, "SELECT count(*) FROM people")).isEqualTo("[[0]]");
        }
    }

    @Test
    void equalRowsAreDeletedTogether() {
        try (LocusDB db = open(null)) {
            execute(db, "CREATE TABLE t (x INTEGER, y VARCHAR(5))");
            execute(db, "INSERT INTO t VALUES (1, 'a'), (1, 'a'), (2, 'b')");
            assertThat(execute(db, "DELETE FROM t WHERE x = 1")).isEqualTo(2);
            assertThat(query(db, "SELECT x, y FROM t")).isEqualTo("[[2, b]]");
        }
    }

    @Test
    void updateSetsExpressionsOfTheOldRowAndKeepsTheOtherColumns() {
        try (LocusDB db = open(null)) {
            people(db);
            assertThat(execute(db, "UPDATE people SET age = age + 1, balance = balance * 2, name = upper(name)"
                    + " WHERE age >= 40")).isEqualTo(2);
            assertThat(query(db, "SELECT id, name, age, born, balance FROM people ORDER BY id")).isEqualTo(
                    "[[1, ann, 30, 1994-05-01, 10.00], [2, BOB, 41, 1984-01-31, 41.00], [3, cy, null, null, null],"
                            + " [4, DEE, 41, 1984-07-07, -10.50]]");
            // The partitioning column changes too: the row moves to the part its new key hashes to.
            assertThat(execute(db, "UPDATE people SET id = id + 10, born = DATE '2000-01-01' WHERE id = 3"))
                    .isEqualTo(1);
            assertThat(query(db, "SELECT id, born FROM people WHERE id = 13")).isEqualTo("[[13, 2000-01-01]]");
            assertThat(query(db, "SELECT count(*) FROM people")).isEqualTo("[[4]]");
        }
    }

    @Test
    void anUpdateThatBreaksAConstraintChangesNothing() {
        try (LocusDB db = open(null)) {
            people(db);
            assertThatThrownBy(() -> execute(db, "UPDATE people SET id = NULL WHERE age = 40"))
                    .isInstanceOf(LocusSqlException.class);
            assertThatThrownBy(() -> execute(db, "UPDATE people SET nope = 1"))
                    .isInstanceOfSatisfying(LocusSqlException.class,
                            e -> assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_COLUMN));
            assertThatThrownBy(() -> execute(db, "DELETE FROM nowhere WHERE x = 1"))
                    .isInstanceOfSatisfying(LocusSqlException.class,
                            e -> assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_TABLE));
            assertThatThrownBy(() -> execute(db, "DELETE FROM people WHERE no_such_column = 1"))
                    .isInstanceOf(LocusSqlException.class);
            assertThat(query(db, "SELECT count(*), sum(age) FROM people")).isEqualTo("[[4, 110]]");
        }
    }

    @Test
    void insertSelectCopiesAQuerysRowsIntoNamedColumns() {
        try (LocusDB db = open(null)) {
            people(db);
            execute(db, "CREATE TABLE names (n VARCHAR(20), id BIGINT, note VARCHAR(5))");
            assertThat(execute(db, "INSERT INTO names (id, n) SELECT id, name FROM people WHERE age IS NOT NULL"))
                    .isEqualTo(3);
            assertThat(query(db, "SELECT n, id, note FROM names ORDER BY id"))
                    .isEqualTo("[[ann, 1, null], [bob, 2, null], [dee, 4, null]]");
            assertThatThrownBy(() -> execute(db, "INSERT INTO names SELECT id FROM people"))
                    .isInstanceOf(LocusSqlException.class);
        }
    }

    @Test
    void insertTakesParametersFromAPreparedStatement() {
        try (LocusDB db = open(null); Session s = db.connect()) {
            people(db);
            PreparedQuery insert = s.prepare("INSERT INTO people (id, name, born, balance) VALUES (?, ?, ?, ?)");
            assertThat(insert.parameterCount()).isEqualTo(4);
            insert.set(1, 7).set(2, "eve").set(3, LocalDate.of(2001, 2, 3)).set(4, new BigDecimal("1.25"));
            try (QueryResult r = insert.execute()) {
                assertThat(r.updateCount()).isEqualTo(1);
            }
            insert.set(1, 8L).set(2, null).set(3, null).set(4, 3);
            try (QueryResult r = insert.execute()) {
                assertThat(r.updateCount()).isEqualTo(1);
            }
            assertThat(query(db, "SELECT id, name, born, balance FROM people WHERE id >= 7 ORDER BY id"))
                    .isEqualTo("[[7, eve, 2001-02-03, 1.25], [8, null, null, 3.00]]");
            insert.set(1, "not a number");
            assertThatThrownBy(insert::execute).isInstanceOf(LocusSqlException.class);
        }
    }

    @Test
    void updatesAndDeletesSurviveACrashThroughTheLogAndThroughACheckpoint() throws IOException {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            people(db);
            db.durableStore().orElseThrow().checkpoint();
            // After the checkpoint: deletions of rows now in part files, replayed from the log after the crash.
            execute(db, "DELETE FROM people WHERE id = 1");
            execute(db, "UPDATE people SET age = 50 WHERE id = 2");
            execute(db, "INSERT INTO people SELECT id + 100, name, age, born, balance FROM people WHERE id = 4");
            String expected = query(db, "SELECT id, name, age FROM people ORDER BY id");
            Path crashed = crashImage(data, "crash1");
            try (LocusDB after = open(crashed)) {
                assertThat(query(after, "SELECT id, name, age FROM people ORDER BY id")).isEqualTo(expected);
                // A checkpoint now writes the deletions into delta files; the next start reads them back.
                after.durableStore().orElseThrow().checkpoint();
                Path again = crashImage(crashed, "crash2");
                try (LocusDB third = open(again)) {
                    assertThat(third.durableStore().orElseThrow().recoveryReport().replayedRecords()).isZero();
                    assertThat(query(third, "SELECT id, name, age FROM people ORDER BY id")).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void createTableAsMakesATableOfTheQuerysColumnsAndRows() {
        try (LocusDB db = open(null)) {
            people(db);
            assertThat(execute(db, "CREATE TABLE by_age AS SELECT age, count(*) AS n, sum(balance) AS total,"
                    + " max(born) AS youngest, 'group' AS label FROM people GROUP BY age")).isEqualTo(3);
            assertThat(query(db, "SELECT age, n, total, youngest, label FROM by_age ORDER BY age NULLS LAST"))
                    .isEqualTo("[[30, 1, 10.00, 1994-05-01, group], [40, 2, 15.25, 1984-07-07, group],"
                            + " [null, 1, null, null, group]]");
            // Every column is nullable, and text is VARCHAR (the literal's CHAR(5) would refuse a longer label).
            execute(db, "INSERT INTO by_age VALUES (NULL, NULL, NULL, NULL, 'a longer label')");
            assertThat(query(db, "SELECT count(*) FROM by_age WHERE label = 'a longer label'")).isEqualTo("[[1]]");
            assertThat(execute(db, "CREATE TABLE named (who, years) AS SELECT name, age FROM people WHERE age > 35"
                    + " ORDER BY id")).isEqualTo(2);
            assertThat(query(db, "SELECT who, years FROM named ORDER BY who")).isEqualTo("[[bob, 40], [dee, 40]]");
            assertThat(execute(db, "CREATE TABLE empty_copy AS SELECT * FROM people WITH NO DATA")).isZero();
            assertThat(query(db, "SELECT count(*) FROM empty_copy")).isEqualTo("[[0]]");
            assertThat(execute(db, "CREATE TABLE IF NOT EXISTS named AS SELECT 1 AS x")).isZero();
            assertThat(query(db, "SELECT count(*) FROM named")).isEqualTo("[[2]]");
        }
    }

    @Test
    void deleteUsingRemovesEachRowThatSomeUsingRowMatchesOnce() {
        try (LocusDB db = open(null)) {
            people(db);
            execute(db, "CREATE TABLE leavers (id INTEGER, reason VARCHAR(10))");
            execute(db, "INSERT INTO leavers VALUES (2, 'moved'), (2, 'again'), (3, 'retired'), (99, 'nobody')");
            // Bob matches two leavers and goes once; the count is of people's rows.
            assertThat(execute(db, "DELETE FROM people USING leavers WHERE people.id = leavers.id")).isEqualTo(2);
            assertThat(query(db, "SELECT id FROM people ORDER BY id")).isEqualTo("[[1], [4]]");
            assertThat(execute(db, "DELETE FROM ONLY people AS p USING leavers l, people q"
                    + " WHERE p.id = q.id + 3 AND l.reason = 'nobody'")).isEqualTo(1);
            assertThat(query(db, "SELECT id FROM people")).isEqualTo("[[1]]");
            assertThat(execute(db, "DELETE FROM people p USING leavers WHERE p.age > 100")).isZero();
            assertThat(execute(db, "UPDATE people AS p SET name = upper(p.name) WHERE p.id = 1")).isEqualTo(1);
            assertThat(query(db, "SELECT name FROM people")).isEqualTo("[[ANN]]");
            assertThat(execute(db, "UPDATE people SET name = l.reason FROM leavers l WHERE people.id = 1"
                    + " AND l.id = 3")).isEqualTo(1);
            assertThat(query(db, "SELECT name FROM people")).isEqualTo("[[retired]]");
            assertThat(execute(db, "UPDATE people SET age = EXTRACT(YEAR FROM born) - 1960 WHERE id = 1"))
                    .isEqualTo(1);
            assertThat(query(db, "SELECT age FROM people")).isEqualTo("[[34]]");
        }
    }

    @Test
    void updateSetsSeveralColumnsFromOneRowOfExpressions() {
        try (LocusDB db = open(null)) {
            people(db);
            assertThat(execute(db, "UPDATE people SET (age, name) = (age + 1, upper(name)), balance = 0 WHERE id = 1"))
                    .isEqualTo(1);
            assertThat(execute(db, "UPDATE people SET (name) = ROW('(' || name || ')') WHERE id = 2")).isEqualTo(1);
            assertThat(execute(db, "UPDATE people SET (age, born) = (CASE WHEN age IS DISTINCT FROM 40 THEN 1 END,"
                    + " born) WHERE id = 3")).isEqualTo(1);
            assertThat(query(db, "SELECT age FROM people WHERE id = 3")).isEqualTo("[[1]]");
            assertThat(query(db, "SELECT id, name, age, balance FROM people WHERE id <= 2 ORDER BY id"))
                    .isEqualTo("[[1, ANN, 31, 0.00], [2, (bob), 40, 20.50]]");
            assertThatThrownBy(() -> execute(db, "UPDATE people SET (age, name) = (1)"))
                    .isInstanceOf(LocusSqlException.class)
                    .extracting(e -> ((LocusSqlException) e).state()).isEqualTo(SqlState.SYNTAX_ERROR);
            assertThatThrownBy(() -> execute(db, "UPDATE people SET (age, name) = (SELECT 1, 'x')"))
                    .isInstanceOf(LocusSqlException.class)
                    .extracting(e -> ((LocusSqlException) e).state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
        }
    }

    @Test
    void aLeadingWithListIsReadByTheQueriesOfInsertUpdateAndDelete() {
        try (LocusDB db = open(null)) {
            people(db);
            assertThat(execute(db, "WITH old AS (SELECT id FROM people WHERE age >= 40)"
                    + " UPDATE people SET balance = 0 WHERE id IN (SELECT id FROM old)")).isEqualTo(2);
            assertThat(query(db, "SELECT id, balance FROM people WHERE balance = 0 ORDER BY id"))
                    .isEqualTo("[[2, 0.00], [4, 0.00]]");
            assertThat(execute(db, "WITH RECURSIVE n(k) AS (SELECT 10 UNION ALL SELECT k + 1 FROM n WHERE k < 12)"
                    + " INSERT INTO people (id, name) SELECT k, 'n' || CAST(k AS VARCHAR) FROM n")).isEqualTo(3);
            // The SELECT has a WITH list of its own; it sees both.
            assertThat(execute(db, "WITH a AS (SELECT 20 AS id) INSERT INTO people (id)"
                    + " WITH b AS (SELECT id + 1 AS id FROM a) SELECT id FROM a UNION ALL SELECT id FROM b"))
                    .isEqualTo(2);
            assertThat(query(db, "SELECT id, name FROM people WHERE id >= 10 ORDER BY id"))
                    .isEqualTo("[[10, n10], [11, n11], [12, n12], [20, null], [21, null]]");
            assertThat(execute(db, "WITH gone AS (SELECT id FROM people WHERE name IS NULL)"
                    + " DELETE FROM people p USING gone g WHERE p.id = g.id")).isEqualTo(2);
            assertThat(query(db, "WITH m AS (SELECT max(age) AS top FROM people) SELECT top FROM m"))
                    .as("a WITH before a query is still a query").isEqualTo("[[40]]");
            assertThat(execute(db, "WITH m AS (SELECT max(age) AS top FROM people)"
                    + " UPDATE people SET age = m.top FROM m WHERE people.id = 1")).isEqualTo(1);
            assertThat(query(db, "SELECT age FROM people WHERE id = 1")).isEqualTo("[[40]]");
            // The query that finds an UPDATE's or DELETE's rows names the table: a WITH query of that name would
            // be read instead.
            for (String hiding : List.of("WITH people AS (SELECT 1 AS id) DELETE FROM people WHERE id = 1",
                    "WITH people AS (SELECT 1 AS id) DELETE FROM \"PEOPLE\"",
                    "WITH \"People\" AS (SELECT 1 AS id) UPDATE People SET age = 1")) {
                assertThatThrownBy(() -> execute(db, hiding)).isInstanceOf(LocusSqlException.class)
                        .extracting(e -> ((LocusSqlException) e).state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
            }
            assertThatThrownBy(() -> execute(db, "WITH n AS (SELECT 1 AS id) INSERT INTO people (id) SELECT id FROM n"
                    + " ON CONFLICT DO NOTHING")).isInstanceOf(LocusSqlException.class)
                    .extracting(e -> ((LocusSqlException) e).state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
            assertThat(query(db, "SELECT count(*) FROM people")).isEqualTo("[[7]]");
            // A comment ending the list; RETURNING reads the changed rows.
            assertThat(query(db, "WITH bonus AS (SELECT 5 AS b) -- the bonus\n"
                    + "UPDATE people SET age = age + (SELECT b FROM bonus) WHERE id = 1"
                    + " RETURNING id, age -- the new age")).isEqualTo("[[1, 45]]");
            // A comment ending a FROM or USING list must not swallow the WHERE that follows it.
            assertThat(execute(db, "UPDATE people SET age = 0 FROM (SELECT 1 AS one) o -- joined\n"
                    + "WHERE people.id = 1 AND o.one = 1")).isEqualTo(1);
            assertThat(execute(db, "DELETE FROM people USING (SELECT 4 AS gone) g -- leavers\n"
                    + "WHERE people.id = g.gone")).isEqualTo(1);
            assertThat(query(db, "SELECT count(*) FROM people")).isEqualTo("[[6]]");
            assertThat(query(db, "SELECT age FROM people WHERE id = 1")).isEqualTo("[[0]]");
        }
    }

    @Test
    void updateFromChangesEachJoinedRowOnceFromTheRowsItJoinsAndSurvivesACrash() throws IOException {
        Path data = dir.resolve("update-from");
        try (LocusDB db = open(data)) {
            people(db);
            execute(db, "INSERT INTO people VALUES (4, 'dee', 40, DATE '1984-07-07', -5.25)");
            execute(db, "CREATE TABLE raises (who INTEGER, amount DECIMAL(10,2), note VARCHAR(10))");
            execute(db, "INSERT INTO raises VALUES (1, 5.00, 'a'), (4, 1.25, 'b'), (4, 1.25, 'c'), (9, 99, 'x')");
            // Dee is in the table twice and matches two raises: both of her rows change, each once.
            assertThat(execute(db, "UPDATE people AS p SET balance = p.balance + r.amount, age = age + 1"
                    + " FROM raises r WHERE r.who = p.id")).isEqualTo(3);
            assertThat(query(db, "SELECT id, age, balance FROM people ORDER BY id, balance")).isEqualTo(
                    "[[1, 31, 15.00], [2, 40, 20.50], [3, null, null], [4, 41, -4.00], [4, 41, -4.00]]");
            // Joined with a subquery and without an alias; no row joins: nothing changes.
            assertThat(execute(db, "UPDATE people SET name = t.top FROM (SELECT max(note) AS top FROM raises) t"
                    + " WHERE people.id = 2")).isEqualTo(1);
            assertThat(execute(db, "UPDATE people SET age = 0 FROM raises WHERE raises.who = people.id"
                    + " AND raises.amount > 1000")).isZero();
            assertThatThrownBy(() -> execute(db, "UPDATE people SET nosuch = 1 FROM raises"))
                    .isInstanceOf(LocusSqlException.class);
        }
        try (LocusDB after = open(crashImage(data, "crash"))) {
            assertThat(query(after, "SELECT id, name, age, balance FROM people ORDER BY id, balance")).isEqualTo(
                    "[[1, ann, 31, 15.00], [2, x, 40, 20.50], [3, cy, null, null], [4, dee, 41, -4.00],"
                            + " [4, dee, 41, -4.00]]");
        }
    }

    @Test
    void returningGivesTheRowsEachStatementInsertedUpdatedOrDeleted() {
        try (LocusDB db = open(null)) {
            people(db);
            assertThat(query(db, "INSERT INTO people (id, name, age) VALUES (5, 'eve', 22), (6, 'fay', NULL)"
                    + " RETURNING id, upper(name) AS shout, age + 1")).isEqualTo("[[5, EVE, 23], [6, FAY, null]]");
            assertThat(query(db, "UPDATE people AS p SET age = p.age * 2 WHERE p.age >= 40 RETURNING p.id, p.age"))
                    .isIn("[[2, 80], [4, 80]]", "[[4, 80], [2, 80]]");
            assertThat(query(db, "DELETE FROM people WHERE name LIKE '%y' RETURNING *")).isIn(
                    "[[3, cy, null, null, null], [6, fay, null, null, null]]",
                    "[[6, fay, null, null, null], [3, cy, null, null, null]]");
            assertThat(query(db, "DELETE FROM people WHERE id > 100 RETURNING id")).isEqualTo("[]");
            assertThat(query(db, "INSERT INTO people SELECT id + 10, name, age, born, balance FROM people"
                    + " WHERE id < 3 RETURNING id, balance;")).isIn("[[11, 10.00], [12, 20.50]]",
                    "[[12, 20.50], [11, 10.00]]");
            assertThat(query(db, "SELECT count(*) FROM people")).isEqualTo("[[6]]");
            // Many rows come back, read chunk by chunk.
            try (Session session = db.connect();
                 QueryResult many = session.execute("INSERT INTO people (id) SELECT 1000 + x"
                         + " FROM generate_series(1, 2500) AS g(x) RETURNING id")) {
                assertThat(many.toList().stream().map(row -> ((Number) row.getFirst()).longValue()))
                        .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1001, 3500).boxed().toList());
            }
            assertThatThrownBy(() -> query(db, "DELETE FROM people WHERE id = 1 RETURNING nosuch"))
                    .isInstanceOf(LocusSqlException.class);
            assertThat(query(db, "SELECT count(*) FROM people WHERE id = 1")).isEqualTo("[[1]]");
        }
    }

    @Test
    void insertValuesTakesExpressions() {
        try (LocusDB db = open(null)) {
            people(db);
            assertThat(execute(db, "INSERT INTO people VALUES (2 + 3, 'e' || 've', 20 + 1, DATE '2000-01-01' + 31,"
                    + " 10.0 / 4), (6, upper('fay'), abs(-33), CAST('1990-06-15' AS DATE), NULL)")).isEqualTo(2);
            assertThat(query(db, "SELECT id, name, age, born, balance FROM people WHERE id > 4 ORDER BY id"))
                    .isEqualTo("[[5, eve, 21, 2000-02-01, 2.50], [6, FAY, 33, 1990-06-15, null]]");
            assertThat(execute(db, "INSERT INTO people (id, name) VALUES (7, lower('GUS'))")).isEqualTo(1);
            assertThat(query(db, "SELECT name, age FROM people WHERE id = 7")).isEqualTo("[[gus, null]]");
            assertThatThrownBy(() -> execute(db, "INSERT INTO people VALUES (8, 'x', 1 / 0, NULL, NULL)"))
                    .isInstanceOfSatisfying(LocusSqlException.class,
                            e -> assertThat(e.state()).isEqualTo(SqlState.DIVISION_BY_ZERO));
            assertThat(query(db, "SELECT count(*) FROM people")).isEqualTo("[[7]]");
        }
    }

    @Test
    void truncateEmptiesEveryTableItNamesOrNoneWhenOneIsMissing() throws IOException {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            people(db);
            execute(db, "CREATE TABLE pets (name VARCHAR(10))");
            execute(db, "INSERT INTO pets VALUES ('rex'), ('tom')");
            assertThatThrownBy(() -> execute(db, "TRUNCATE people, nosuch"))
                    .isInstanceOfSatisfying(LocusSqlException.class,
                            e -> assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_TABLE));
            assertThat(query(db, "SELECT count(*) FROM people")).isEqualTo("[[4]]");
            assertThat(execute(db, "TRUNCATE TABLE ONLY people, pets RESTART IDENTITY CASCADE")).isEqualTo(6);
            assertThat(query(db, "SELECT count(*) FROM people")).isEqualTo("[[0]]");
            assertThat(query(db, "SELECT count(*) FROM pets")).isEqualTo("[[0]]");
            execute(db, "INSERT INTO pets VALUES ('kit')");
            try (LocusDB after = open(crashImage(data, "crash"))) {
                assertThat(query(after, "SELECT count(*) FROM people")).isEqualTo("[[0]]");
                assertThat(query(after, "SELECT name FROM pets")).isEqualTo("[[kit]]");
            }
        }
    }

    @Test
    void createTableAsRefusesWhatItCannotMakeAndLeavesNothingBehind() {
        try (LocusDB db = open(null)) {
            people(db);
            assertThatThrownBy(() -> execute(db, "CREATE TABLE twice AS SELECT id, id FROM people"))
                    .isInstanceOfSatisfying(LocusSqlException.class,
                            e -> assertThat(e.state()).isEqualTo(SqlState.DUPLICATE_COLUMN));
            assertThatThrownBy(() -> execute(db, "CREATE TABLE people AS SELECT 1 AS x"))
                    .isInstanceOfSatisfying(LocusSqlException.class,
                            e -> assertThat(e.state()).isEqualTo(SqlState.DUPLICATE_TABLE));
            assertThatThrownBy(() -> execute(db, "CREATE TABLE broken AS SELECT 10 / (age - 40) FROM people"))
                    .isInstanceOfSatisfying(LocusSqlException.class,
                            e -> assertThat(e.state()).isEqualTo(SqlState.DIVISION_BY_ZERO));
            assertThatThrownBy(() -> execute(db, "CREATE TEMP TABLE scratch AS SELECT * FROM people"))
                    .isInstanceOfSatisfying(LocusSqlException.class,
                            e -> assertThat(e.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED));
            assertThatThrownBy(() -> execute(db, "CREATE TABLE spans AS SELECT born - born AS d,"
                    + " CAST(born AS TIMESTAMP) - TIMESTAMP '2000-01-01 00:00:00' AS i FROM people"))
                    .isInstanceOfSatisfying(LocusSqlException.class,
                            e -> assertThat(e.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED));
            for (String table : new String[] {"twice", "broken", "scratch", "spans"}) {
                assertThatThrownBy(() -> query(db, "SELECT * FROM " + table))
                        .isInstanceOfSatisfying(LocusSqlException.class,
                                e -> assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_TABLE));
            }
        }
    }

    @Test
    void aTableMadeFromAQuerySurvivesACrash() throws IOException {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            people(db);
            execute(db, "CREATE TABLE rich AS SELECT id, name, balance FROM people WHERE balance > 0");
            String expected = query(db, "SELECT id, name, balance FROM rich ORDER BY id");
            assertThat(expected).isEqualTo("[[1, ann, 10.00], [2, bob, 20.50]]");
            try (LocusDB after = open(crashImage(data, "crash"))) {
                assertThat(query(after, "SELECT id, name, balance FROM rich ORDER BY id")).isEqualTo(expected);
            }
        }
    }

    private Path crashImage(Path from, String name) throws IOException {
        return CrashImage.copy(from, dir.resolve(name));
    }

    @Test
    void theParserKeepsExpressionsWhole() {
        try (LocusDB db = open(null)) {
            execute(db, "CREATE TABLE t (a INTEGER, b VARCHAR(20))");
            execute(db, "INSERT INTO t VALUES (1, 'x'), (2, 'y')");
            assertThat(execute(db, "UPDATE t SET b = CASE WHEN a IN (1, 3) THEN 'one, or three' ELSE b END,"
                    + " a = coalesce(a, 0) * (2 + 1) WHERE a < 10;")).isEqualTo(2);
            assertThat(query(db, "SELECT a, b FROM t ORDER BY a")).isEqualTo("[[3, one, or three], [6, y]]");
        }
    }
}
