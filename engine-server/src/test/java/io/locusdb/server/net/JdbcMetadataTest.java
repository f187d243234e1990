package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a tool's object browser asks the driver: the tables and views, and the columns of each. */
class JdbcMetadataTest {
    @Test
    void viewsAreListedBesideTablesWithTheirColumns() throws Exception {
        try (LocusServer server = TestServers.start("CREATE TABLE sales (id INTEGER NOT NULL, region VARCHAR(8))",
                "CREATE VIEW by_region AS SELECT region, count(*) AS n FROM sales GROUP BY region");
             Connection c = DriverManager.getConnection("jdbc:locusdb://127.0.0.1:" + server.port() + "/")) {
            DatabaseMetaData md = c.getMetaData();
            assertThat(tables(md, null)).containsExactly("TABLE sales", "VIEW by_region");
            assertThat(tables(md, new String[] {"VIEW"})).containsExactly("VIEW by_region");
            assertThat(tables(md, new String[] {"TABLE"})).containsExactly("TABLE sales");
            try (ResultSet rs = md.getColumns(null, null, "by_region", null)) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("COLUMN_NAME")).isEqualTo("region");
                assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.VARCHAR);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("COLUMN_NAME")).isEqualTo("n");
                assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.BIGINT);
                assertThat(rs.next()).isFalse();
            }
        }
    }

    private static List<String> tables(DatabaseMetaData md, String[] types) throws SQLException {
        List<String> found = new ArrayList<>();
        try (ResultSet rs = md.getTables(null, null, "%", types)) {
            while (rs.next()) {
                found.add(rs.getString("TABLE_TYPE") + " " + rs.getString("TABLE_NAME"));
            }
        }
        return found;
    }
}
