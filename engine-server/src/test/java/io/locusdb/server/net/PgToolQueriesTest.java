package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;

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
