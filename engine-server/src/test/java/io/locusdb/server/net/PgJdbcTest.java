package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
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
 * PostgreSQL's own JDBC driver (pgjdbc) against the PostgreSQL listener: simple and extended protocol, text and
 * binary values, batches, row limits with PortalSuspended, timeouts through cancel requests, transaction blocks.
 * Each connection mode is one the driver's users pick: {@code prepareThreshold=5} (named statements after five
 * runs), {@code -1} (always named, binary results at once) and {@code preferQueryMode=simple}.
 */
class PgJdbcTest {
    private static LocusServer server;

    @BeforeAll
    static void start() {
        List<String> setup = new ArrayList<>(List.of(TestServers.ITEMS));
        setup.add("CREATE TABLE numbers (n BIGINT, label VARCHAR)");
        setup.add("LOAD TPCH SCALE 0.05 PARTS 2");
        server = TestServers.start(Map.of("pg.port", "0"), setup.toArray(String[]::new));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static Connection connect(String mode) throws SQLException {
        return DriverManager.getConnection(server.pgJdbcUrl("locus"), properties(mode));
    }

    /** pgjdbc's settings for a connection mode: "simple", "always-prepared" or (anything else) "threshold-5". */
    static Properties properties(String mode) {
        Properties p = new Properties();
        p.setProperty("user", "tester");
        switch (mode) {
            case "simple" -> p.setProperty("preferQueryMode", "simple");
            case "always-prepared" -> p.setProperty("prepareThreshold", "-1");
            default -> p.setProperty("prepareThreshold", "5");
        }
        return p;
    }

    @ParameterizedTest
    @ValueSource(strings = {"threshold-5", "always-prepared", "simple"})
    void everyTypeReadsBackAsWritten(String mode) throws SQLException {
        try (Connection c = connect(mode);
             PreparedStatement ps = c.prepareStatement("SELECT id, name, price, sold, ok, w, n FROM items"
                     + " WHERE id >= ? ORDER BY id")) {
            // Run it often enough that the threshold mode switches to a named statement and binary results.
            for (int round = 0; round < 7; round++) {
                ps.setLong(1, 1);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(1);
                    assertThat(rs.getString(2)).isEqualTo("apple");
                    assertThat(rs.getBigDecimal(3)).isEqualByComparingTo("1.50");
                    assertThat(rs.getObject(4, LocalDate.class)).isEqualTo(LocalDate.of(2024, 1, 2));
                    assertThat(rs.getBoolean(5)).isTrue();
                    assertThat(rs.getDouble(6)).isEqualTo(0.5);
                    assertThat(rs.getInt(7)).isEqualTo(10);
                    rs.next();
                    rs.next();
                    assertThat(rs.getObject(3)).isNull();
                    assertThat(rs.getObject(4)).isNull();
                    assertThat(rs.getObject(5)).isNull();
                    assertThat(rs.getObject(6)).isNull();
                    assertThat(rs.getObject(7)).isNull();
                    rs.next();
                    assertThat(rs.getString(2)).isEqualTo("grüne Äpfel");
                    assertThat(rs.getBigDecimal(3)).isEqualByComparingTo("10.00");
                    assertThat(rs.getObject(4, LocalDate.class)).isEqualTo(LocalDate.of(1999, 12, 31));
                    assertThat(rs.getDouble(6)).isEqualTo(-2.0);
                    assertThat(rs.getInt(7)).isEqualTo(-40);
                    rs.next();
                    assertThat(rs.getString(2)).isEmpty();
                    assertThat(rs.getBigDecimal(3)).isEqualByComparingTo("0.01");
                    assertThat(rs.getDouble(6)).isEqualTo(1e300);
                    assertThat(rs.getInt(7)).isEqualTo(Integer.MAX_VALUE);
                    assertThat(rs.next()).isFalse();
                }
            }
            if (mode.equals("simple")) {
                return;
            }
            assertThat(ps.getMetaData().getColumnTypeName(3)).isEqualTo("numeric");
            assertThat(ps.getMetaData().getPrecision(3)).isEqualTo(10);
            assertThat(ps.getMetaData().getScale(3)).isEqualTo(2);
            assertThat(ps.getMetaData().getColumnTypeName(2)).isEqualTo("varchar");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"threshold-5", "always-prepared", "simple"})
    void parametersOfEveryTypeBind(String mode) throws SQLException {
        try (Connection c = connect(mode);
             PreparedStatement ps = c.prepareStatement("SELECT id FROM items WHERE name = ? AND price = ?"
                     + " AND sold = ? AND ok = ? AND w = ? AND n = ? AND id = ?")) {
            for (int round = 0; round < 6; round++) {
                ps.setString(1, "grüne Äpfel");
                ps.setBigDecimal(2, new BigDecimal("10.00"));
                ps.setDate(3, Date.valueOf("1999-12-31"));
                ps.setBoolean(4, true);
                ps.setDouble(5, -2.0);
                ps.setInt(6, -40);
                ps.setLong(7, 4);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(4);
                    assertThat(rs.next()).isFalse();
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"threshold-5", "always-prepared", "simple"})
    void batchesInsertAndLargeResultsArriveInFetchSizeSteps(String mode) throws SQLException {
        try (Connection c = connect(mode)) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("DELETE FROM numbers");
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO numbers VALUES (?, ?)")) {
                for (int i = 0; i < 3000; i++) {
                    insert.setLong(1, i);
                    insert.setString(2, "n" + i);
                    insert.addBatch();
                }
                int[] counts = insert.executeBatch();
                assertThat(counts).hasSize(3000).containsOnly(1);
            }
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.setFetchSize(100);
                long sum = 0;
                int rows = 0;
                try (ResultSet rs = s.executeQuery("SELECT n, label FROM numbers ORDER BY n")) {
                    while (rs.next()) {
                        assertThat(rs.getString(2)).isEqualTo("n" + rs.getLong(1));
                        sum += rs.getLong(1);
                        rows++;
                    }
                }
                assertThat(rows).isEqualTo(3000);
                assertThat(sum).isEqualTo(2999L * 3000 / 2);
            }
            c.commit();
        }
    }

    @Test
    void aFailedStatementLeavesTheSessionUsable() throws SQLException {
        try (Connection c = connect("threshold-5"); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeQuery("SELECT nope FROM items"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).startsWith("42"));
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM items")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(5);
            }
        }
    }

    @Test
    void aFailedStatementFailsItsTransactionBlockUntilRollback() throws SQLException {
        try (Connection c = connect("threshold-5"); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            assertThatThrownBy(() -> s.executeQuery("SELECT nope FROM items")).isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> s.executeQuery("SELECT 1"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25P02"));
            c.rollback();
            try (ResultSet rs = s.executeQuery("SELECT 1")) {
                assertThat(rs.next()).isTrue();
            }
        }
    }

    @Test
    void commitKeepsChangesAndRollbackSaysTheyWereAlreadyCommitted() throws SQLException {
        try (Connection c = connect("threshold-5"); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE tx_demo (id BIGINT)");
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO tx_demo VALUES (1)");
            c.commit();
            s.executeUpdate("INSERT INTO tx_demo VALUES (2)");
            c.rollback();
            SQLWarning warning = c.getWarnings();
            assertThat((Object) warning).isNotNull();
            assertThat(warning.getMessage()).contains("already committed");
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM tx_demo")) {
                rs.next();
                assertThat(rs.getLong(1)).as("LocusDB does not undo: the warning says so").isEqualTo(2);
            }
            c.commit();
        }
    }

    /** Several seconds (see ServerCancelTest): the one-second timeout cancels it, so the test does not wait for it. */
    static final String SLOWER = ServerCancelTest.SLOWER;

    @Test
    void aQueryTimeoutCancelsTheStatementWith57014() throws SQLException {
        try (Connection c = connect("threshold-5"); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            long start = System.nanoTime();
            assertThatThrownBy(() -> s.executeQuery(SLOWER))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
            assertThat((System.nanoTime() - start) / 1e9).isLessThan(30);
            s.setQueryTimeout(0);
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM items")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(5);
            }
        }
    }

    @Test
    void statementTimeoutSettingStopsLongStatements() throws SQLException {
        try (Connection c = connect("threshold-5"); Statement s = c.createStatement()) {
            s.execute("SET statement_timeout = '200ms'");
            try (ResultSet rs = s.executeQuery("SHOW statement_timeout")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("200");
            }
            assertThatThrownBy(() -> s.executeQuery(ServerCancelTest.SLOW))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("57014");
                        assertThat(e.getMessage()).contains("statement timeout");
                    });
            s.execute("RESET statement_timeout");
        }
    }

    @Test
    void settingsReadBackAndUnknownOnesAreRefused() throws SQLException {
        try (Connection c = connect("simple"); Statement s = c.createStatement()) {
            s.execute("SET application_name = 'report job'");
            try (ResultSet rs = s.executeQuery("SHOW application_name")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("report job");
            }
            assertThatThrownBy(() -> s.execute("SET no_such_setting = 1"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42704"));
            s.execute("DISCARD ALL");
            try (ResultSet rs = s.executeQuery("SHOW application_name")) {
                rs.next();
                assertThat(rs.getString(1)).isEmpty();
            }
        }
    }

    @Test
    void databaseMetadataListsTheRealTablesColumnsAndSchemas() throws SQLException {
        try (Connection c = connect("threshold-5")) {
            DatabaseMetaData meta = c.getMetaData();
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = meta.getTables(null, "public", "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            assertThat(tables).contains("items", "numbers", "lineitem", "nation").doesNotContain("pg_class");
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = meta.getColumns(null, "public", "items", "%")) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME") + ":" + rs.getString("TYPE_NAME") + ":"
                            + rs.getInt("ORDINAL_POSITION") + ":" + rs.getInt("DATA_TYPE"));
                }
            }
            assertThat(columns).containsExactly("id:int8:1:" + Types.BIGINT, "name:varchar:2:" + Types.VARCHAR,
                    "price:numeric:3:" + Types.NUMERIC, "sold:date:4:" + Types.DATE, "ok:bool:5:" + Types.BIT,
                    "w:float8:6:" + Types.DOUBLE, "n:int4:7:" + Types.INTEGER);
            List<String> schemas = new ArrayList<>();
            try (ResultSet rs = meta.getSchemas()) {
                while (rs.next()) {
                    schemas.add(rs.getString("TABLE_SCHEM"));
                }
            }
            assertThat(schemas).contains("public", "pg_catalog", "information_schema");
        }
    }

    @Test
    void informationSchemaDescribesTheColumns() throws SQLException {
        try (Connection c = connect("simple"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT column_name, data_type, numeric_precision, numeric_scale"
                     + " FROM information_schema.columns WHERE table_name = 'items' ORDER BY ordinal_position")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("id");
            assertThat(rs.getString(2)).isEqualTo("bigint");
            rs.next();
            rs.next();
            assertThat(rs.getString(2)).isEqualTo("numeric");
            assertThat(rs.getInt(3)).isEqualTo(10);
            assertThat(rs.getInt(4)).isEqualTo(2);
        }
    }

    @Test
    void databaseMetadataNamesTheServer() throws SQLException {
        try (Connection c = connect("threshold-5")) {
            assertThat(c.getMetaData().getDatabaseMajorVersion()).isGreaterThanOrEqualTo(12);
        }
    }
}
