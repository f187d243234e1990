package io.locusdb.core.query;

import static io.locusdb.core.query.SqlTestDatabase.execute;
import static io.locusdb.core.query.SqlTestDatabase.open;
import static io.locusdb.core.query.SqlTestDatabase.rows;
import static io.locusdb.core.query.SqlTestDatabase.stateOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusDB;
import io.locusdb.core.sql.SqlState;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Column defaults (CREATE TABLE and ALTER TABLE ... ADD COLUMN): a column an INSERT leaves out takes its default
 * (a literal, or the statement's time), an explicit NULL stays NULL, and the defaults survive a restart from the
 * log and from a checkpoint.
 */
class ColumnDefaultTest {
    @TempDir
    Path dir;

    private static final String ORDERS = "CREATE TABLE orders (id INTEGER, status VARCHAR(8) DEFAULT 'new',"
            + " qty INTEGER NOT NULL DEFAULT 0, price DECIMAL(8,2) DEFAULT 1.5, created TIMESTAMP DEFAULT"
            + " CURRENT_TIMESTAMP, day DATE DEFAULT CURRENT_DATE, note VARCHAR(10)) PARTITION BY HASH(id) PARTITIONS 2";

    @Test
    void columnsAnInsertLeavesOutTakeTheirDefaults() {
        try (LocusDB db = open(null)) {
            execute(db, ORDERS);
            LocalDateTime before = LocalDateTime.now(ZoneOffset.UTC).minusSeconds(1);
            execute(db, "INSERT INTO orders (id) VALUES (1), (2)");
            execute(db, "INSERT INTO orders (id, status, note) VALUES (3, NULL, 'explicit')");
            execute(db, "INSERT INTO orders (id, qty) SELECT g, g * 10 FROM generate_series(4, 5) AS s(g)");
            LocalDateTime after = LocalDateTime.now(ZoneOffset.UTC).plusSeconds(1);
            assertThat(rows(db, "SELECT id, status, qty, price, note FROM orders ORDER BY id")).containsExactly(
                    withNulls(1, "new", 0, new BigDecimal("1.50"), null),
                    withNulls(2, "new", 0, new BigDecimal("1.50"), null),
                    withNulls(3, null, 0, new BigDecimal("1.50"), "explicit"),
                    withNulls(4, "new", 40, new BigDecimal("1.50"), null),
                    withNulls(5, "new", 50, new BigDecimal("1.50"), null));
            for (List<Object> r : rows(db, "SELECT created, day FROM orders")) {
                assertThat((LocalDateTime) r.get(0)).isBetween(before, after);
                assertThat((LocalDate) r.get(1)).isBetween(before.toLocalDate(), after.toLocalDate());
            }
            assertThat(rows(db, "SELECT count(DISTINCT created) FROM orders WHERE id IN (1, 2)"))
                    .as("one instant per statement").containsExactly(List.of(1L));
            // Tools read the defaults where PostgreSQL shows them.
            assertThat(rows(db, "SELECT column_name, column_default FROM information_schema.columns WHERE"
                    + " table_name = 'orders' ORDER BY ordinal_position")).containsExactly(withNulls("id", null),
                    withNulls("status", "'new'::character varying"), withNulls("qty", "0"),
                    withNulls("price", "1.50"), withNulls("created", "CURRENT_TIMESTAMP"),
                    withNulls("day", "CURRENT_DATE"), withNulls("note", null));
            assertThat(rows(db, "SELECT count(*) FROM pg_attribute a JOIN pg_class c ON a.attrelid = c.oid"
                    + " WHERE c.relname = 'orders' AND a.atthasdef")).containsExactly(List.of(5L));
            // psql's \d reads them from pg_attrdef through pg_get_expr.
            assertThat(rows(db, "SELECT a.attname, pg_catalog.pg_get_expr(d.adbin, d.adrelid, true)"
                    + " FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON a.attrelid = c.oid"
                    + " JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
                    + " WHERE c.relname = 'orders' AND a.atthasdef ORDER BY a.attnum")).containsExactly(
                    List.of("status", "'new'::character varying"), List.of("qty", "0"), List.of("price", "1.50"),
                    List.of("created", "CURRENT_TIMESTAMP"), List.of("day", "CURRENT_DATE"));
            // A value given wins over the default, also the full-row form.
            execute(db, "INSERT INTO orders VALUES (6, 'paid', 1, 9.99, TIMESTAMP '2024-01-01 00:00:00',"
                    + " DATE '2024-01-01', NULL)");
            assertThat(rows(db, "SELECT status, price, day FROM orders WHERE id = 6"))
                    .containsExactly(List.of("paid", new BigDecimal("9.99"), LocalDate.of(2024, 1, 1)));
        }
    }

    private static List<Object> withNulls(Object... values) {
        return Arrays.asList(values);
    }

    @Test
    void aColumnAddedWithADefaultFillsTheRowsThereAndTheRowsToCome() {
        try (LocusDB db = open(null)) {
            execute(db, "CREATE TABLE t (k BIGINT)");
            execute(db, "INSERT INTO t VALUES (1), (2)");
            execute(db, "ALTER TABLE t ADD COLUMN level INTEGER DEFAULT 3, ADD COLUMN seen TIMESTAMP DEFAULT now()");
            execute(db, "INSERT INTO t (k) VALUES (3)");
            assertThat(rows(db, "SELECT k, level FROM t ORDER BY k"))
                    .containsExactly(List.of(1L, 3), List.of(2L, 3), List.of(3L, 3));
            assertThat(rows(db, "SELECT count(seen) FROM t")).containsExactly(List.of(3L));
            // Dropping a column keeps the others' defaults in their places.
            execute(db, "ALTER TABLE t DROP COLUMN seen");
            execute(db, "ALTER TABLE t RENAME COLUMN level TO lvl");
            execute(db, "INSERT INTO t (k) VALUES (4)");
            assertThat(rows(db, "SELECT lvl FROM t WHERE k = 4")).containsExactly(List.of(3));
        }
    }

    @Test
    void defaultsSurviveARestartFromTheLogAndFromACheckpoint() {
        try (LocusDB db = open(dir)) {
            execute(db, ORDERS);
            execute(db, "INSERT INTO orders (id) VALUES (1)");
        }
        try (LocusDB db = open(dir)) {
            execute(db, "INSERT INTO orders (id) VALUES (2)");
            assertThat(rows(db, "SELECT status, qty FROM orders WHERE id = 2")).containsExactly(List.of("new", 0));
            // ALTER TABLE puts the table in place at a checkpoint: the defaults go into the manifest.
            execute(db, "ALTER TABLE orders ADD COLUMN flag BOOLEAN DEFAULT TRUE");
        }
        try (LocusDB db = open(dir)) {
            execute(db, "INSERT INTO orders (id) VALUES (3)");
            assertThat(rows(db, "SELECT status, qty, price, flag FROM orders WHERE id = 3"))
                    .containsExactly(List.of("new", 0, new BigDecimal("1.50"), true));
            assertThat(rows(db, "SELECT count(*) FROM orders WHERE flag")).containsExactly(List.of(3L));
        }
    }

    @Test
    void aDefaultTheColumnCannotHoldIsRefused() {
        try (LocusDB db = open(null)) {
            assertThat(stateOf(db, "CREATE TABLE bad (n INTEGER DEFAULT now())"))
                    .isEqualTo(SqlState.DATATYPE_MISMATCH);
            assertThat(stateOf(db, "CREATE TABLE bad (n INTEGER DEFAULT 1 + 2)"))
                    .isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
            assertThat(stateOf(db, "CREATE TABLE bad (n INTEGER DEFAULT 'many')")).isNotNull();
            assertThat(rows(db, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'bad'"))
                    .as("nothing created").containsExactly(List.of(0L));
        }
    }
}
