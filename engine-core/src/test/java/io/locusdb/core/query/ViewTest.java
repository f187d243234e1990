package io.locusdb.core.query;

import static io.locusdb.core.query.SqlTestDatabase.execute;
import static io.locusdb.core.query.SqlTestDatabase.open;
import static io.locusdb.core.query.SqlTestDatabase.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.LocusDB;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CREATE [OR REPLACE] VIEW and DROP VIEW [IF EXISTS]: a view reads as the query it names, sees the tables as they
 * are when it is read, nests, keeps its names apart from tables', refuses definitions that cannot be planned, and
 * lasts through a restart, from the log and from a checkpoint.
 */
class ViewTest {
    @TempDir
    Path dir;

    private static void people(LocusDB db) {
        execute(db, "CREATE TABLE people (id INTEGER NOT NULL, name VARCHAR(20), age INTEGER)"
                + " PARTITION BY HASH(id) PARTITIONS 2");
        execute(db, "INSERT INTO people VALUES (1, 'ann', 30), (2, 'bob', 40), (3, 'cy', NULL), (4, 'dee', 40)");
    }

    @Test
    void aViewReadsAsItsQueryAndSeesLaterRows() {
        try (LocusDB db = open(null)) {
            people(db);
            execute(db, "CREATE VIEW adults (who, years) AS SELECT name, age FROM people WHERE age >= 35");
            assertThat(rows(db, "SELECT who FROM adults ORDER BY who")).containsExactly(List.of("bob"),
                    List.of("dee"));
            execute(db, "INSERT INTO people VALUES (5, 'eve', 50)");
            assertThat(rows(db, "SELECT count(*), max(years) FROM adults")).containsExactly(List.of(3L, 50));
            execute(db, "CREATE VIEW old_adults AS SELECT who FROM adults WHERE years > 45");
            assertThat(rows(db, "SELECT * FROM old_adults")).containsExactly(List.of("eve"));
            assertThat(rows(db, "SELECT p.id FROM people p JOIN adults a ON p.name = a.who WHERE a.years = 40"
                    + " ORDER BY p.id")).containsExactly(List.of(2), List.of(4));
        }
    }

    @Test
    void tpchQ15AsTheSpecificationWritesIt() {
        try (LocusDB db = open(null)) {
            execute(db, "LOAD TPCH SCALE 0.01 PARTS 2");
            String revenue = "SELECT l_suppkey, sum(l_extendedprice * (1 - l_discount)) FROM lineitem"
                    + " WHERE l_shipdate >= DATE '1996-01-01' AND l_shipdate < DATE '1996-01-01' + INTERVAL '3' MONTH"
                    + " GROUP BY l_suppkey";
            execute(db, "CREATE VIEW revenue0 (supplier_no, total_revenue) AS " + revenue);
            List<List<Object>> viaView = rows(db, "SELECT s_suppkey, s_name, total_revenue FROM supplier, revenue0"
                    + " WHERE s_suppkey = supplier_no AND total_revenue = (SELECT max(total_revenue) FROM revenue0)"
                    + " ORDER BY s_suppkey");
            List<List<Object>> viaWith = rows(db, "WITH r (supplier_no, total_revenue) AS (" + revenue + ")"
                    + " SELECT s_suppkey, s_name, total_revenue FROM supplier, r WHERE s_suppkey = supplier_no"
                    + " AND total_revenue = (SELECT max(total_revenue) FROM r) ORDER BY s_suppkey");
            assertThat(viaView).isNotEmpty().isEqualTo(viaWith);
            execute(db, "DROP VIEW revenue0");
            assertThatThrownBy(() -> rows(db, "SELECT * FROM revenue0")).isInstanceOfSatisfying(
                    LocusSqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_TABLE));
        }
    }

    @Test
    void namesAreCheckedAndABadDefinitionKeepsThePreviousOne() {
        try (LocusDB db = open(null)) {
            people(db);
            execute(db, "CREATE VIEW v AS SELECT id FROM people");
            assertThatThrownBy(() -> execute(db, "CREATE VIEW v AS SELECT name FROM people"))
                    .isInstanceOfSatisfying(LocusSqlException.class,
                            e -> assertThat(e.state()).isEqualTo(SqlState.DUPLICATE_TABLE));
            assertThatThrownBy(() -> execute(db, "CREATE VIEW people AS SELECT 1"))
                    .isInstanceOfSatisfying(LocusSqlException.class,
                            e -> assertThat(e.state()).isEqualTo(SqlState.DUPLICATE_TABLE));
            assertThatThrownBy(() -> execute(db, "CREATE TABLE v (x INTEGER)")).isInstanceOf(
                    LocusSqlException.class);
            assertThatThrownBy(() -> execute(db, "CREATE VIEW w (a, b) AS SELECT id FROM people"))
                    .isInstanceOf(LocusSqlException.class).hasMessageContaining("names 2 column(s)");
            assertThatThrownBy(() -> execute(db, "CREATE VIEW w AS SELECT id, id FROM people"))
                    .isInstanceOf(LocusSqlException.class);
            assertThatThrownBy(() -> execute(db, "CREATE VIEW w (a, a) AS SELECT id, age FROM people"))
                    .isInstanceOf(LocusSqlException.class).hasMessageContaining("two columns named");
            assertThatThrownBy(() -> execute(db, "CREATE OR REPLACE VIEW v AS SELECT * FROM v"))
                    .isInstanceOf(LocusSqlException.class);
            assertThat(rows(db, "SELECT count(*) FROM v")).containsExactly(List.of(4L));
            execute(db, "CREATE OR REPLACE VIEW v AS SELECT name FROM people WHERE id = 1");
            assertThat(rows(db, "SELECT * FROM v")).containsExactly(List.of("ann"));
            execute(db, "DROP VIEW IF EXISTS nothing_here");
            assertThatThrownBy(() -> execute(db, "DROP VIEW nothing_here")).isInstanceOfSatisfying(
                    LocusSqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_TABLE));
            execute(db, "DROP TABLE people");
            assertThatThrownBy(() -> rows(db, "SELECT * FROM v")).isInstanceOf(LocusSqlException.class)
                    .hasMessageContaining("people");
        }
    }

    @Test
    void viewsLastThroughRestartsFromTheLogAndFromACheckpoint() {
        try (LocusDB db = open(dir)) {
            people(db);
            execute(db, "CREATE VIEW forties AS SELECT name FROM people WHERE age = 40");
            execute(db, "CREATE VIEW gone AS SELECT 1 AS one");
            execute(db, "DROP VIEW gone");
        }
        try (LocusDB db = open(dir)) {
            assertThat(rows(db, "SELECT name FROM forties ORDER BY name")).containsExactly(List.of("bob"),
                    List.of("dee"));
            assertThatThrownBy(() -> rows(db, "SELECT * FROM gone")).isInstanceOf(LocusSqlException.class);
            execute(db, "CREATE OR REPLACE VIEW forties AS SELECT name FROM people WHERE age = 40 AND id > 2");
            db.durableStore().orElseThrow().checkpoint();
        }
        try (LocusDB db = open(dir)) {
            assertThat(rows(db, "SELECT * FROM forties")).containsExactly(List.of("dee"));
        }
    }
}
