package io.locusdb.core.query;

import static io.locusdb.core.query.SqlTestDatabase.execute;
import static io.locusdb.core.query.SqlTestDatabase.explain;
import static io.locusdb.core.query.SqlTestDatabase.open;
import static io.locusdb.core.query.SqlTestDatabase.rows;
import static io.locusdb.core.query.SqlTestDatabase.stateOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusDB;
import io.locusdb.core.sql.SqlState;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ALTER TABLE ... ADD COLUMN, DROP COLUMN, RENAME COLUMN and RENAME TO: the table's visible rows (main and delta,
 * deletions applied) under the new definition, its partitioning, group, keys and indexes carried over, durable
 * across a restart, and the changes PostgreSQL refuses refused with its SQLSTATEs.
 */
class AlterTableTest {
    @TempDir
    Path dir;

    /** 1,000 items in two parts folded into main columns, then delta rows and a deletion on top. */
    private static void items(LocusDB db) {
        execute(db, "CREATE TABLE items (id BIGINT PRIMARY KEY, name VARCHAR(10), qty INTEGER)"
                + " PARTITION BY HASH(id) PARTITIONS 2");
        execute(db, "INSERT INTO items SELECT g, 'item' || CAST(g AS VARCHAR), CAST(g % 10 AS INTEGER)"
                + " FROM generate_series(1, 1000) AS s(g)");
        execute(db, "ALTER TABLE items MERGE PARTS");
        execute(db, "ALTER TABLE items PARTITION INTO 2 PARTS");
        execute(db, "INSERT INTO items VALUES (1001, 'late', 3), (1002, NULL, NULL)");
        execute(db, "DELETE FROM items WHERE id IN (5, 1001)");
    }

    @Test
    void addedColumnsHoldTheirDefaultInEveryRowAndTheOthersKeepTheirValues() {
        try (LocusDB db = open(null)) {
            items(db);
            List<List<Object>> before = rows(db, "SELECT id, name, qty FROM items ORDER BY id");
            execute(db, "ALTER TABLE items ADD COLUMN price DECIMAL(10,2) DEFAULT 9.5, ADD COLUMN tag VARCHAR(5),"
                    + " ADD COLUMN since DATE NOT NULL DEFAULT DATE '2024-02-29'");
            assertThat(rows(db, "SELECT id, name, qty FROM items ORDER BY id")).isEqualTo(before);
            assertThat(rows(db, "SELECT count(*), count(tag), count(DISTINCT price), min(price), max(since)"
                    + " FROM items")).containsExactly(List.of(1000L, 0L, 1L, new BigDecimal("9.50"),
                    LocalDate.of(2024, 2, 29)));
            // The partitioning is the table's still: rows of a key stay in the part that held them.
            assertThat(rows(db, "SELECT partitioning, parts, row_count FROM locus_tables WHERE table_name = 'items'"))
                    .containsExactly(List.of("HASH(id) PARTITIONS 2", 2, 1000L));
            execute(db, "INSERT INTO items VALUES (2000, 'new', 1, 1.25, 'x', DATE '2025-01-01')");
            assertThat(rows(db, "SELECT price, tag, since FROM items WHERE id = 2000"))
                    .containsExactly(List.of(new BigDecimal("1.25"), "x", LocalDate.of(2025, 1, 1)));
            // The defaults stay the columns' own: rows inserted later without them take them too.
            execute(db, "INSERT INTO items (id, name) VALUES (2001, 'defaults')");
            assertThat(rows(db, "SELECT price, tag, since FROM items WHERE id = 2001"))
                    .containsExactly(Arrays.asList(new BigDecimal("9.50"), null, LocalDate.of(2024, 2, 29)));
        }
    }

    @Test
    void droppedAndRenamedColumnsAndTablesAreGoneUnderTheirOldNames() {
        try (LocusDB db = open(null)) {
            items(db);
            List<List<Object>> before = rows(db, "SELECT id, name FROM items ORDER BY id");
            execute(db, "ALTER TABLE items DROP COLUMN qty");
            execute(db, "ALTER TABLE items RENAME COLUMN name TO label");
            execute(db, "ALTER TABLE items RENAME TO goods");
            assertThat(rows(db, "SELECT * FROM goods ORDER BY id")).isEqualTo(before);
            assertThat(stateOf(db, "SELECT * FROM items")).isEqualTo(SqlState.UNDEFINED_TABLE);
            assertThat(stateOf(db, "SELECT name FROM goods")).isEqualTo(SqlState.UNDEFINED_COLUMN);
            assertThat(stateOf(db, "SELECT qty FROM goods")).isEqualTo(SqlState.UNDEFINED_COLUMN);
            // The primary key came along: a second row with a key is refused.
            assertThat(stateOf(db, "INSERT INTO goods VALUES (7, 'dup')")).isEqualTo(SqlState.UNIQUE_VIOLATION);
            assertThat(rows(db, "SELECT column_name FROM information_schema.columns WHERE table_name = 'goods'"
                    + " ORDER BY ordinal_position")).containsExactly(List.of("id"), List.of("label"));
        }
    }

    @Test
    void indexesAndTableGroupsFollowTheirTable() {
        try (LocusDB db = open(null)) {
            items(db);
            execute(db, "CREATE UNIQUE INDEX items_by_name ON items (name)");
            execute(db, "ALTER TABLE items RENAME COLUMN name TO label");
            String query = "SELECT id FROM items WHERE label = 'item17'";
            assertThat(explain(db, query)).contains("index lookup on label through items_by_name");
            assertThat(rows(db, query)).containsExactly(List.of(17L));
            assertThat(stateOf(db, "INSERT INTO items VALUES (3000, 'item17', 1)"))
                    .isEqualTo(SqlState.UNIQUE_VIOLATION);
            assertThat(stateOf(db, "ALTER TABLE items DROP COLUMN label"))
                    .isEqualTo(SqlState.DEPENDENT_OBJECTS_STILL_EXIST);
            execute(db, "ALTER TABLE items RENAME TO goods");
            assertThat(rows(db, "SELECT tablename FROM pg_indexes WHERE indexname = 'items_by_name'"))
                    .containsExactly(List.of("goods"));

            execute(db, "CREATE TABLE GROUP pair");
            execute(db, "CREATE TABLE a (k BIGINT, v INTEGER) PARTITION BY HASH(k) PARTITIONS 2 IN GROUP pair");
            execute(db, "CREATE TABLE b (k BIGINT, w INTEGER) PARTITION BY HASH(k) PARTITIONS 2 IN GROUP pair");
            execute(db, "INSERT INTO a VALUES (1, 10), (2, 20)");
            execute(db, "ALTER TABLE a ADD COLUMN extra VARCHAR(3) DEFAULT 'x'");
            assertThat(rows(db, "SELECT table_group FROM locus_tables WHERE table_name IN ('a', 'b')"))
                    .containsExactly(List.of("pair"), List.of("pair"));
            assertThat(stateOf(db, "ALTER TABLE a DROP COLUMN k")).isEqualTo(SqlState.DEPENDENT_OBJECTS_STILL_EXIST);
        }
    }

    @Test
    void whatPostgresqlRefusesIsRefusedWithItsSqlstate() {
        try (LocusDB db = open(null)) {
            items(db);
            assertThat(stateOf(db, "ALTER TABLE nope ADD COLUMN x INTEGER")).isEqualTo(SqlState.UNDEFINED_TABLE);
            execute(db, "ALTER TABLE IF EXISTS nope ADD COLUMN x INTEGER");
            assertThat(stateOf(db, "ALTER TABLE items ADD COLUMN name INTEGER")).isEqualTo(SqlState.DUPLICATE_COLUMN);
            execute(db, "ALTER TABLE items ADD COLUMN IF NOT EXISTS name INTEGER");
            assertThat(stateOf(db, "ALTER TABLE items DROP COLUMN nope")).isEqualTo(SqlState.UNDEFINED_COLUMN);
            execute(db, "ALTER TABLE items DROP COLUMN IF EXISTS nope");
            assertThat(stateOf(db, "ALTER TABLE items ADD COLUMN must INTEGER NOT NULL"))
                    .isEqualTo(SqlState.NOT_NULL_VIOLATION);
            assertThat(stateOf(db, "ALTER TABLE items DROP COLUMN id")).isEqualTo(SqlState.DEPENDENT_OBJECTS_STILL_EXIST);
            assertThat(stateOf(db, "ALTER TABLE items RENAME COLUMN name TO qty")).isEqualTo(SqlState.DUPLICATE_COLUMN);
            execute(db, "CREATE TABLE other (x INTEGER)");
            assertThat(stateOf(db, "ALTER TABLE items RENAME TO other")).isEqualTo(SqlState.DUPLICATE_TABLE);
            assertThat(stateOf(db, "ALTER TABLE items ADD COLUMN z INTEGER DEFAULT 1 + 2"))
                    .isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
            assertThat(stateOf(db, "ALTER TABLE items ALTER COLUMN qty TYPE BIGINT"))
                    .isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
            execute(db, "CREATE VIEW cheap AS SELECT id FROM items WHERE qty < 3");
            assertThat(stateOf(db, "ALTER TABLE items DROP COLUMN qty"))
                    .isEqualTo(SqlState.DEPENDENT_OBJECTS_STILL_EXIST);
            assertThat(stateOf(db, "ALTER TABLE items RENAME TO things"))
                    .isEqualTo(SqlState.DEPENDENT_OBJECTS_STILL_EXIST);
            execute(db, "ALTER TABLE items ADD COLUMN note VARCHAR(8)");
            // A view of * would show one column more than it was made with.
            execute(db, "CREATE VIEW everything AS SELECT * FROM items");
            assertThat(stateOf(db, "ALTER TABLE items ADD COLUMN more INTEGER"))
                    .isEqualTo(SqlState.DEPENDENT_OBJECTS_STILL_EXIST);
            // Rows not merged yet count as rows: a NOT NULL column without a default is refused over them too.
            execute(db, "CREATE TABLE fresh (k INTEGER)");
            execute(db, "INSERT INTO fresh VALUES (1)");
            assertThat(stateOf(db, "ALTER TABLE fresh ADD COLUMN must INTEGER NOT NULL"))
                    .isEqualTo(SqlState.NOT_NULL_VIOLATION);
            execute(db, "DELETE FROM fresh");
            execute(db, "ALTER TABLE fresh ADD COLUMN must INTEGER NOT NULL");
            // Nothing refused changed anything.
            assertThat(rows(db, "SELECT column_name FROM information_schema.columns WHERE table_name = 'items'"
                    + " ORDER BY ordinal_position")).containsExactly(List.of("id"), List.of("name"), List.of("qty"),
                    List.of("note"));
            assertThat(rows(db, "SELECT count(*) FROM items")).containsExactly(List.of(1000L));
        }
    }

    @Test
    void alterColumnSetsAndDropsDefaultsAndNotNullAndTheyLastAcrossARestart() {
        try (LocusDB db = open(dir)) {
            items(db);
            execute(db, "ALTER TABLE items ALTER COLUMN qty SET DEFAULT 42, ALTER name SET DEFAULT 'anon'");
            execute(db, "INSERT INTO items (id) VALUES (3000)");
            assertThat(rows(db, "SELECT name, qty FROM items WHERE id = 3000")).containsExactly(List.of("anon", 42));
            // Row 1002, a delta row, holds NULLs.
            assertThat(stateOf(db, "ALTER TABLE items ALTER COLUMN qty SET NOT NULL"))
                    .isEqualTo(SqlState.NOT_NULL_VIOLATION);
            // A NULL only in a deleted row does not count.
            execute(db, "DELETE FROM items WHERE id = 1002");
            execute(db, "ALTER TABLE items ALTER COLUMN qty SET NOT NULL");
            assertThat(stateOf(db, "INSERT INTO items VALUES (3001, 'x', NULL)"))
                    .isEqualTo(SqlState.NOT_NULL_VIOLATION);
            assertThat(rows(db, "SELECT is_nullable, column_default FROM information_schema.columns"
                    + " WHERE table_name = 'items' AND column_name = 'qty'")).containsExactly(List.of("NO", "42"));
            assertThat(stateOf(db, "ALTER TABLE items ALTER COLUMN id DROP NOT NULL"))
                    .isEqualTo(SqlState.INVALID_TABLE_DEFINITION);
            // What is so already is no change (and no rewrite).
            execute(db, "ALTER TABLE items ALTER COLUMN id SET NOT NULL, ALTER COLUMN id DROP DEFAULT");
            assertThat(stateOf(db, "ALTER TABLE items ALTER COLUMN nope SET NOT NULL"))
                    .isEqualTo(SqlState.UNDEFINED_COLUMN);
            assertThat(stateOf(db, "ALTER TABLE items ALTER COLUMN qty SET DATA TYPE BIGINT"))
                    .isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
            // NULLs in main rows are found by their codes.
            execute(db, "CREATE TABLE m (k INTEGER, v INTEGER)");
            execute(db, "INSERT INTO m VALUES (1, 10), (2, NULL), (3, 30)");
            execute(db, "ALTER TABLE m MERGE PARTS");
            assertThat(stateOf(db, "ALTER TABLE m ALTER COLUMN v SET NOT NULL"))
                    .isEqualTo(SqlState.NOT_NULL_VIOLATION);
            execute(db, "ALTER TABLE m ALTER COLUMN k SET NOT NULL");
            execute(db, "ALTER TABLE items ALTER COLUMN qty DROP NOT NULL, ALTER COLUMN qty DROP DEFAULT");
            execute(db, "INSERT INTO items (id) VALUES (3002)");
            assertThat(rows(db, "SELECT name, qty FROM items WHERE id = 3002")).containsExactly(
                    Arrays.asList("anon", null));
        }
        try (LocusDB db = open(dir)) {
            assertThat(rows(db, "SELECT column_name, is_nullable, column_default FROM information_schema.columns"
                    + " WHERE table_name = 'items' ORDER BY ordinal_position")).containsExactly(
                    Arrays.asList("id", "NO", null), Arrays.asList("name", "YES", "'anon'::character varying"),
                    Arrays.asList("qty", "YES", null));
            assertThat(stateOf(db, "INSERT INTO m VALUES (NULL, 1)")).isEqualTo(SqlState.NOT_NULL_VIOLATION);
            assertThat(rows(db, "SELECT count(*) FROM items")).containsExactly(List.of(1001L));
        }
    }

    @Test
    void theNewDefinitionSurvivesARestartWithTheRowsWrittenAfterIt() {
        List<List<Object>> expected;
        try (LocusDB db = open(dir)) {
            items(db);
            execute(db, "ALTER TABLE items ADD COLUMN price INTEGER DEFAULT 7, DROP COLUMN qty");
            execute(db, "ALTER TABLE items RENAME COLUMN name TO label");
            execute(db, "ALTER TABLE items RENAME TO goods");
            execute(db, "INSERT INTO goods VALUES (5000, 'after', 8)");
            execute(db, "DELETE FROM goods WHERE id = 10");
            expected = rows(db, "SELECT * FROM goods ORDER BY id");
            assertThat(expected).hasSize(1000);
        }
        try (LocusDB db = open(dir)) {
            assertThat(rows(db, "SELECT * FROM goods ORDER BY id")).isEqualTo(expected);
            assertThat(stateOf(db, "SELECT * FROM items")).isEqualTo(SqlState.UNDEFINED_TABLE);
            assertThat(stateOf(db, "INSERT INTO goods VALUES (5000, 'again', 1)"))
                    .isEqualTo(SqlState.UNIQUE_VIOLATION);
        }
    }
}
