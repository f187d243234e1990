package io.locusdb.jdbc;

import static io.locusdb.jdbc.FakeServer.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.protocol.Message;
import io.locusdb.protocol.WireType;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a generic tool sees through DatabaseMetaData. */
class LocusDatabaseMetaDataTest {
    private FakeServer server;
    private Connection connection;

    @BeforeEach
    void start() throws Exception {
        server = new FakeServer();
        server.tables = List.of(row("orders", "TABLE", "hash(o_orderkey), 2 parts"),
                row("lineitem", "TABLE", "4 parts"));
        server.columnsOfTables = List.of(
                row("lineitem", "l_orderkey", 1, "BIGINT", WireType.BIGINT, 19, 0, 0, false),
                row("lineitem", "l_extendedprice", 2, "DECIMAL(15,2)", WireType.DECIMAL, 15, 2, 0, false),
                row("lineitem", "l_shipmode", 3, "VARCHAR(10)", WireType.VARCHAR, 0, 0, 10, true),
                row("lineitem", "l_shipdate", 4, "DATE", WireType.DATE, 0, 0, 0, true));
        connection = DriverManager.getConnection(server.url() + "?user=ada");
    }

    @AfterEach
    void stop() throws Exception {
        connection.close();
        server.close();
    }

    @Test
    void tablesComeFromTheServerInTheStandardShape() throws Exception {
        DatabaseMetaData md = connection.getMetaData();
        List<String> names = new ArrayList<>();
        try (ResultSet rs = md.getTables(null, null, "%", new String[] {"TABLE"})) {
            assertThat(rs.getMetaData().getColumnName(3)).isEqualTo("TABLE_NAME");
            assertThat(rs.getMetaData().getColumnCount()).isEqualTo(10);
            while (rs.next()) {
                names.add(rs.getString("TABLE_NAME"));
                assertThat(rs.getString("TABLE_TYPE")).isEqualTo("TABLE");
                assertThat(rs.getString("TABLE_CAT")).isNull();
                assertThat(rs.getString("TABLE_SCHEM")).isNull();
            }
        }
        assertThat(names).containsExactly("lineitem", "orders");
        Message.Metadata request = server.received(Message.Metadata.class).getFirst();
        assertThat(request.what()).isEqualTo(Message.Metadata.TABLES);
        assertThat(request.tablePattern()).isEqualTo("%");
        try (ResultSet rs = md.getTables(null, null, null, new String[] {"VIEW"})) {
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void columnsCarryJdbcTypesSizesAndNullability() throws Exception {
        try (ResultSet rs = connection.getMetaData().getColumns(null, null, "lineitem", null)) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString("TABLE_NAME")).isEqualTo("lineitem");
            assertThat(rs.getString("COLUMN_NAME")).isEqualTo("l_orderkey");
            assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.BIGINT);
            assertThat(rs.getInt("NULLABLE")).isEqualTo(DatabaseMetaData.columnNoNulls);
            assertThat(rs.getString("IS_NULLABLE")).isEqualTo("NO");
            assertThat(rs.getInt("ORDINAL_POSITION")).isEqualTo(1);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.DECIMAL);
            assertThat(rs.getString("TYPE_NAME")).isEqualTo("DECIMAL");
            assertThat(rs.getInt("COLUMN_SIZE")).isEqualTo(15);
            assertThat(rs.getInt("DECIMAL_DIGITS")).isEqualTo(2);
            assertThat(rs.getInt("NUM_PREC_RADIX")).isEqualTo(10);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.VARCHAR);
            assertThat(rs.getInt("COLUMN_SIZE")).isEqualTo(10);
            assertThat(rs.getInt("DECIMAL_DIGITS")).isZero();
            assertThat(rs.wasNull()).isTrue();
            assertThat(rs.getString("IS_NULLABLE")).isEqualTo("YES");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.DATE);
            assertThat(rs.getString("IS_AUTOINCREMENT")).isEqualTo("NO");
            assertThat(rs.next()).isFalse();
        }
        Message.Metadata request = server.received(Message.Metadata.class).getFirst();
        assertThat(request.what()).isEqualTo(Message.Metadata.COLUMNS);
        assertThat(request.tablePattern()).isEqualTo("lineitem");
        assertThat(request.columnPattern()).isEmpty();
    }

    @Test
    void whatLocusDbDoesNotHaveIsEmptyButWellShaped() throws Exception {
        DatabaseMetaData md = connection.getMetaData();
        try (ResultSet rs = md.getPrimaryKeys(null, null, "lineitem")) {
            assertThat(rs.getMetaData().getColumnName(4)).isEqualTo("COLUMN_NAME");
            assertThat(rs.next()).isFalse();
        }
        assertThat(md.getSchemas().next()).isFalse();
        assertThat(md.getCatalogs().next()).isFalse();
        assertThat(md.getIndexInfo(null, null, "lineitem", false, true).next()).isFalse();
        assertThat(md.getImportedKeys(null, null, "lineitem").next()).isFalse();
        try (ResultSet rs = md.getTableTypes()) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("TABLE");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("VIEW");
            assertThat(rs.next()).isFalse();
        }
        List<String> types = new ArrayList<>();
        try (ResultSet rs = md.getTypeInfo()) {
            while (rs.next()) {
                types.add(rs.getString("TYPE_NAME") + ":" + rs.getInt("DATA_TYPE"));
            }
        }
        assertThat(types).containsExactly("BIGINT:-5", "CHAR:1", "DECIMAL:3", "INTEGER:4", "DOUBLE:8",
                "VARCHAR:12", "BOOLEAN:16", "DATE:91", "TIMESTAMP:93",
                "TIMESTAMP WITH TIME ZONE:2014");
    }

    @Test
    void productDriverAndDialectAnswersAreTrueToLocusDb() throws Exception {
        DatabaseMetaData md = connection.getMetaData();
        assertThat(md.getDatabaseProductName()).isEqualTo("LocusDB");
        assertThat(md.getDatabaseProductVersion()).isEqualTo("0.1.0-fake");
        assertThat(md.getDatabaseMajorVersion()).isZero();
        assertThat(md.getDatabaseMinorVersion()).isEqualTo(1);
        assertThat(md.getDriverName()).isEqualTo("LocusDB JDBC Driver");
        assertThat(md.getDriverVersion()).isEqualTo(LocusDriver.VERSION);
        assertThat(md.getURL()).isEqualTo(server.url() + "?user=ada");
        assertThat(md.getUserName()).isEqualTo("ada");
        assertThat(md.getIdentifierQuoteString()).isEqualTo("\"");
        assertThat(md.supportsTransactions()).isFalse();
        assertThat(md.supportsOuterJoins()).isFalse();
        assertThat(md.supportsSubqueriesInIns()).isFalse();
        assertThat(md.supportsUnion()).isFalse();
        assertThat(md.supportsGroupBy()).isTrue();
        assertThat(md.supportsBatchUpdates()).isTrue();
        assertThat(md.getMaxTablesInSelect()).isEqualTo(1);
        assertThat(md.isReadOnly()).isFalse();
        assertThat(md.supportsResultSetType(ResultSet.TYPE_FORWARD_ONLY)).isTrue();
        assertThat(md.supportsResultSetType(ResultSet.TYPE_SCROLL_INSENSITIVE)).isFalse();
        assertThat(md.getConnection()).isSameAs(connection);
    }
}
