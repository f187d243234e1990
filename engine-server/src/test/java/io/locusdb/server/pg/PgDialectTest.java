package io.locusdb.server.pg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.sql.pg.PgOids;
import org.junit.jupiter.api.Test;

/** PostgreSQL spellings the engine does not read, rewritten without touching strings, names or comments. */
class PgDialectTest {
    private final PgSettings settings = new PgSettings("alice", true);
    private final PgDialect dialect = new PgDialect("alice", "locus", 42, settings);

    @Test
    void driverInlinedParametersBecomeTypedLiterals() {
        assertThat(dialect.rewrite("INSERT INTO t VALUES (('0'::int8), ('n0'), ('-2.5'::double precision))"))
                .isEqualTo("INSERT INTO t VALUES (0, 'n0', -2.5)");
        assertThat(dialect.rewrite("SELECT 1 WHERE d = ('1999-12-31 +00'::date) AND b = ('TRUE'::boolean)"))
                .isEqualTo("SELECT 1 WHERE d = DATE '1999-12-31' AND b = TRUE");
        assertThat(dialect.rewrite("SELECT x FROM t WHERE x IN ('a')")).isEqualTo("SELECT x FROM t WHERE x IN ('a')");
        assertThat(dialect.rewrite("SELECT f('a'::text)")).isEqualTo("SELECT f( 'a' )");
        assertThat(dialect.rewrite("SELECT 'x1'::int8")).as("not an integer: the engine's CAST reports it")
                .isEqualTo("SELECT CAST('x1' AS int8)");
    }

    @Test
    void escapeStringsBecomeStandardStrings() {
        assertThat(dialect.rewrite("SELECT E'a\\nb', E'it\\'s', 'E''x'")).isEqualTo("SELECT 'a\nb', 'it''s', 'E''x'");
    }

    @Test
    void operatorAndCollateSpellingsGo() {
        assertThat(dialect.rewrite("SELECT 1 WHERE c.relname OPERATOR(pg_catalog.~) '^(t)$' COLLATE pg_catalog.default"))
                .isEqualTo("SELECT 1 WHERE c.relname  ~  '^(t)$' ");
    }

    @Test
    void sessionFunctionsBecomeTheSessionsValues() {
        assertThat(dialect.rewrite("SELECT current_database(), pg_catalog.current_user, pg_backend_pid()"))
                .isEqualTo("SELECT 'locus', 'alice', 42");
        assertThat(dialect.rewrite("SELECT current_setting('DateStyle')")).isEqualTo("SELECT 'ISO, MDY'");
        assertThat(dialect.rewrite("SELECT set_config('application_name', 'job', false)")).isEqualTo("SELECT 'job'");
        assertThat(settings.get("application_name")).isEqualTo("job");
        assertThat(dialect.rewrite("SELECT (pg_catalog.current_schemas(true))[1]")).isEqualTo("SELECT 'pg_catalog'");
        assertThat(dialect.rewrite("SELECT 'current_database()', \"current_user\"")).as("strings and quoted names")
                .isEqualTo("SELECT 'current_database()', \"current_user\"");
        assertThatThrownBy(() -> dialect.rewrite("SELECT current_setting('no_such')"))
                .isInstanceOfSatisfying(PgDataException.class, e -> assertThat(e.sqlState()).isEqualTo("42704"));
    }

    @Test
    void castsBindTighterThanAnyOperatorAsInPostgres() {
        assertThat(dialect.rewrite("SELECT 1 FROM t WHERE t.oid = ?::regclass + 1"))
                .isEqualTo("SELECT 1 FROM t WHERE t.oid = CAST(? AS regclass) + 1");
        assertThat(dialect.rewrite("SELECT a.b::double precision, f(x)::text[], \"Q\"::int8 FROM t"))
                .isEqualTo("SELECT CAST(a.b AS double precision), CAST(f(x) AS _text), CAST(\"Q\" AS int8) FROM t");
        assertThat(dialect.rewrite("SELECT oid::regtype::text FROM pg_type WHERE oid = to_regtype(?)"))
                .isEqualTo("SELECT pg_catalog.format_type(oid, NULL) FROM pg_type WHERE oid = to_regtype(?)");
        assertThat(dialect.rewrite("SELECT '::' AS s -- x::int")).isEqualTo("SELECT '::' AS s -- x::int");
    }

    @Test
    void reservedWordsAsAliasesAreQuoted() {
        assertThat(dialect.rewrite("select t.a as table, t.b AS update\n from t"))
                .isEqualTo("select t.a as \"table\", t.b AS \"update\"\n from t");
        assertThat(dialect.rewrite("CREATE VIEW v AS select * from t")).isEqualTo("CREATE VIEW v AS select * from t");
        assertThat(dialect.rewrite("WITH x AS (select 1) SELECT * FROM x"))
                .isEqualTo("WITH x AS (select 1) SELECT * FROM x");
    }

    @Test
    void membershipInArraysBecomesIn() {
        assertThat(dialect.rewrite("SELECT 1 WHERE k = ANY (ARRAY[?, ?]) AND n != ALL (ARRAY['a'])"))
                .isEqualTo("SELECT 1 WHERE k  IN (?, ?) AND n  NOT IN ('a')");
    }

    @Test
    void regclassLiteralsBecomeStableOids() {
        assertThat(dialect.rewrite("SELECT 'pg_class'::regclass")).isEqualTo("SELECT  1259 ");
        assertThat(dialect.rewrite("SELECT 'lineitem'::regclass"))
                .isEqualTo("SELECT  " + PgOids.relation("public", "lineitem") + " ");
    }

    @Test
    void arrayTypesTakePostgresqlsUnderscoreNames() {
        assertThat(dialect.rewrite("SELECT x::pg_catalog.int2[], CAST(y AS integer[ ]), z::text[]"))
                .isEqualTo("SELECT CAST(x AS pg_catalog._int2), CAST(y AS _int4), CAST(z AS _text)");
        assertThat(dialect.rewrite("SELECT a[1], '[]' FROM t")).isEqualTo("SELECT a[1], '[]' FROM t");
        assertThat(dialect.rewrite("SELECT CAST(ARRAY[] AS int[]), CAST(x AS double precision[]),"
                + " CAST(y AS character varying[])")).isEqualTo("SELECT CAST(ARRAY[] AS _int4), CAST(x AS _float8),"
                + " CAST(y AS _varchar)");
    }

    @Test
    void generateSeriesInFromIsCalledThroughTable() {
        assertThat(dialect.rewrite("SELECT * FROM generate_series(abs(1), 3) AS i, pg_catalog.generate_series(1, 2) j"))
                .isEqualTo("SELECT * FROM TABLE(generate_series(abs(1), 3)) AS i, "
                        + "TABLE(pg_catalog.generate_series(1, 2)) j");
        assertThat(dialect.rewrite("SELECT 'FROM generate_series(1)' /* FROM generate_series(2) */"))
                .isEqualTo("SELECT 'FROM generate_series(1)' /* FROM generate_series(2) */");
        assertThat(dialect.rewrite("SELECT user, x FROM t")).isEqualTo("SELECT 'alice', x FROM t");
        assertThat(dialect.rewrite("SELECT a, generate_series(1, 3) FROM t WHERE x IN (1, generate_series(1))"))
                .as("not in a FROM list").isEqualTo("SELECT a, generate_series(1, 3) FROM t WHERE x IN (1,"
                        + " generate_series(1))");
        assertThat(dialect.rewrite("SELECT * FROM a JOIN b ON a.k = b.k, generate_series(f(1), 2) g"))
                .isEqualTo("SELECT * FROM a JOIN b ON a.k = b.k, TABLE(generate_series(f(1), 2)) g");
        assertThat(dialect.rewrite("SELECT * FROM (SELECT 1 FROM generate_series(f(1), 2)) s, generate_series(f(2), 3)"))
                .isEqualTo("SELECT * FROM (SELECT 1 FROM TABLE(generate_series(f(1), 2))) s,"
                        + " TABLE(generate_series(f(2), 3))");
    }
}
