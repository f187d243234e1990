package io.locusdb.server.pg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Statements, first words and placeholders found without parsing, past strings, names and comments. */
class PgSqlTextTest {
    @Test
    void splitsAtSemicolonsOutsideStringsAndComments() {
        List<PgSqlText.Piece> pieces = PgSqlText.split("SELECT ';'; -- a; comment\nSELECT $$a;b$$; /* x; /* y; */ */ ;"
                + " SELECT E'\\';' ;   ");
        assertThat(pieces).extracting(PgSqlText.Piece::sql).containsExactly("SELECT ';'",
                " -- a; comment\nSELECT $$a;b$$", " SELECT E'\\';' ");
        assertThat(pieces.get(1).offset()).isEqualTo(11);
        assertThat(PgSqlText.split(" -- only a comment\n /* and another */ ")).isEmpty();
    }

    @Test
    void placeholdersBecomePositionalInOrderOfAppearance() {
        PgSqlText.Placeholders p = PgSqlText.placeholders("SELECT $2, '$1', $1, $2 FROM t WHERE x = $$a$1$$");
        assertThat(p.sql()).isEqualTo("SELECT ?, '$1', ?, ? FROM t WHERE x = $$a$1$$");
        assertThat(p.order()).containsExactly(2, 1, 2);
        assertThat(p.highest()).isEqualTo(2);
    }

    @Test
    void commandTagsAreThoseOfPostgres() {
        assertThat(PgCommandTags.forUpdate("insert into t values (1)", 3)).isEqualTo("INSERT 0 3");
        assertThat(PgCommandTags.forUpdate("CREATE OR REPLACE VIEW v AS SELECT 1", 0)).isEqualTo("CREATE VIEW");
        assertThat(PgCommandTags.forUpdate("create table t2 (a, b) as select 1, 2", 1)).isEqualTo("SELECT 1");
        assertThat(PgCommandTags.forUpdate("CREATE TABLE IF NOT EXISTS \"T 2\" AS (SELECT 1)", 0))
                .isEqualTo("SELECT 0");
        assertThat(PgCommandTags.forUpdate("/* copy */ CREATE TABLE t2 AS SELECT 1", 1)).isEqualTo("SELECT 1");
        assertThat(PgCommandTags.forUpdate("CREATE TABLE t (a DECIMAL(9,2), b INT)", 0)).isEqualTo("CREATE TABLE");
        assertThat(PgCommandTags.forUpdate("/* c */ DELETE FROM t", 7)).isEqualTo("DELETE 7");
        assertThat(PgCommandTags.forRows("WITH x AS (SELECT 1) SELECT * FROM x", 1)).isEqualTo("SELECT 1");
        // A WITH list before a change: the change's tag, and a change inside a transaction block.
        assertThat(PgCommandTags.forUpdate("WITH x AS (SELECT 1 AS id) DELETE FROM t WHERE id IN (SELECT id FROM x)",
                2)).isEqualTo("DELETE 2");
        assertThat(PgCommandTags.forRows("with x as (select 1) insert into t select * from x returning *", 1))
                .isEqualTo("INSERT 0 1");
        assertThat(PgCommandTags.changesData("WITH x AS (SELECT 1) UPDATE t SET a = 1")).isTrue();
        assertThat(PgCommandTags.changesData("WITH x AS (SELECT 'update') SELECT * FROM x")).isFalse();
        assertThat(PgCommandTags.position("SELECT 1;\nSELECT nope", 9, 2, 8)).isEqualTo(18);
    }
}
