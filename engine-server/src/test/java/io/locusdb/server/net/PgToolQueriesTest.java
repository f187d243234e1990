package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Catalog queries as tools send them (their text verbatim), against a server holding TPC-H: the answers come from
 * the real tables and columns.
 */
class PgToolQueriesTest {
    private static LocusServer server;

    @BeforeAll
    static void start() {
        server = TestServers.start(Map.of("pg.port", "0"), "LOAD TPCH SCALE 0.01");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static List<String> column(String sql, int column) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "tools");
        p.setProperty("preferQueryMode", "simple");
        List<String> values = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(server.pgJdbcUrl("locus"), p); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(column));
            }
        }
        return values;
    }

    /**
     * What DBeaver (connect, schemas, tables, columns), Metabase (privileges, tables, enums, time zone, session
     * settings) and Grafana (databases, schemas, tables, columns, version and extension probes, ping) send, verbatim
     * from their sources with their parameters filled in; each must run. DBeaver and Metabase send through pgjdbc's
     * extended protocol, Grafana (pgx) through the simple one.
     */
    @ParameterizedTest
    @ValueSource(strings = {"dbeaver-q01", "dbeaver-q02", "dbeaver-q03", "dbeaver-q04", "dbeaver-q05", "dbeaver-q06",
            "dbeaver-q07", "dbeaver-q08", "dbeaver-q09", "dbeaver-q10", "dbeaver-q11", "dbeaver-q12", "dbeaver-q13",
            "dbeaver-q14", "metabase-q15", "metabase-q16", "metabase-q17", "metabase-q18", "metabase-q19",
            "grafana-q20", "grafana-q21", "grafana-q22", "grafana-q23", "grafana-q24", "grafana-q25", "grafana-q26",
            "grafana-q27", "grafana-q28", "grafana-q29", "grafana-q30", "grafana-q31", "grafana-q32", "metabase-q33", "metabase-q34", "metabase-q35"})
    void toolsConnectTimeQueriesRun(String name) throws Exception {
        String sql = new String(PgToolQueriesTest.class.getResourceAsStream("/pg/tools/" + name + ".sql")
                .readAllBytes(), StandardCharsets.UTF_8);
        Properties p = new Properties();
        p.setProperty("user", "tools");
        if (name.startsWith("grafana")) {
            p.setProperty("preferQueryMode", "simple");
        }
        try (Connection c = DriverManager.getConnection(server.pgJdbcUrl("locus"), p);
             Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    @Test
    void metabasesTableListCarriesRowCounts() throws Exception {
        String sql = new String(PgToolQueriesTest.class.getResourceAsStream("/pg/tools/metabase-q16.sql")
                .readAllBytes(), StandardCharsets.UTF_8);
        assertThat(column(sql, 2)).contains("lineitem", "nation");
        assertThat(column(sql, 5)).contains("25");
    }

    @Test
    void grafanasSearchPathQueriesFindThePublicTablesAndColumns() throws Exception {
        // postgresMetaQuery.ts buildTableQuery / buildColumnQuery('value') / buildDatatypeQuery without a schema:
        // the schemas come from search_path through string_to_array, generate_series and subscripts.
        assertThat(column(resource("grafana-q30"), 1)).contains("lineitem", "nation", "region")
                .doesNotContain("pg_class", "tables");
        assertThat(column(resource("grafana-q31"), 1)).containsExactly("l_discount", "l_extendedprice",
                "l_linenumber", "l_orderkey", "l_partkey", "l_quantity", "l_suppkey", "l_tax");
        assertThat(column(resource("grafana-q32"), 1)).containsExactly("numeric");
    }

    @Test
    void metabasesFieldSyncDescribesEveryColumn() throws Exception {
        // metabase.driver.postgres describe-fields-sql (format('%I.%I', ...)::regclass, information_schema joins).
        String sql = resource("metabase-q33");
        assertThat(column(sql, 1)).hasSize(16 + 4).startsWith("l_orderkey", "l_partkey");
        assertThat(column(sql, 2)).contains("int8", "numeric", "varchar", "date");
    }

    private static String resource(String name) throws Exception {
        return new String(PgToolQueriesTest.class.getResourceAsStream("/pg/tools/" + name + ".sql").readAllBytes(),
                StandardCharsets.UTF_8);
    }

    @Test
    void grafanasColumnListOfATable() throws SQLException {
        // grafana-postgresql-datasource, postgresMetaQuery.ts getSchema('nation').
        String sql = "select quote_ident(column_name) as \"column\", data_type as \"type\"\n"
                + "    from information_schema.columns\n"
                + "    where quote_ident(table_name) = 'nation'";
        assertThat(column(sql, 1)).containsExactly("n_nationkey", "n_name", "n_regionkey", "n_comment");
        assertThat(column(sql, 2)).contains("character varying");
    }

    @Test
    void psqlsRelationLookupAndColumnList() throws SQLException {
        // What psql's \d sends first: the relation by a regular expression, then its columns.
        List<String> oids = column("SELECT c.oid,\n  n.nspname,\n  c.relname\nFROM pg_catalog.pg_class c\n"
                + "     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace\n"
                + "WHERE c.relname OPERATOR(pg_catalog.~) '^(nation)$' COLLATE pg_catalog.default\n"
                + "  AND pg_catalog.pg_table_is_visible(c.oid)\nORDER BY 2, 3;", 1);
        assertThat(oids).hasSize(1);
        List<String> columns = column("SELECT a.attname,\n  pg_catalog.format_type(a.atttypid, a.atttypmod),\n"
                + "  (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid, true)\n   FROM pg_catalog.pg_attrdef d\n"
                + "   WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef),\n  a.attnotnull,\n"
                + "  (SELECT c.collname FROM pg_catalog.pg_collation c, pg_catalog.pg_type t\n"
                + "   WHERE c.oid = a.attcollation AND t.oid = a.atttypid AND a.attcollation <> t.typcollation)"
                + " AS attcollation,\n  a.attidentity,\n  a.attgenerated\nFROM pg_catalog.pg_attribute a\n"
                + "WHERE a.attrelid = '" + oids.getFirst() + "' AND a.attnum > 0 AND NOT a.attisdropped\n"
                + "ORDER BY a.attnum;", 1);
        assertThat(columns).containsExactly("n_nationkey", "n_name", "n_regionkey", "n_comment");
    }

    @Test
    void psqlsRowLevelSecurityQueryFindsNoPolicies() throws SQLException {
        String sql = "SELECT pol.polname, pol.polpermissive,\n"
                + "  CASE WHEN pol.polroles = '{0}' THEN NULL ELSE pg_catalog.array_to_string(array(select rolname"
                + " from pg_catalog.pg_roles where oid = any (pol.polroles) order by 1),',') END,\n"
                + "  pg_catalog.pg_get_expr(pol.polqual, pol.polrelid),\n"
                + "  pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid),\n"
                + "  CASE pol.polcmd\n    WHEN 'r' THEN 'SELECT'\n    WHEN 'a' THEN 'INSERT'\n"
                + "    WHEN 'w' THEN 'UPDATE'\n    WHEN 'd' THEN 'DELETE'\n    END AS cmd\n"
                + "FROM pg_catalog.pg_policy pol\nWHERE pol.polrelid = '16385' ORDER BY 1;";
        assertThat(column(sql, 1)).isEmpty();
    }
}
