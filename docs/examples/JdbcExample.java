import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A generic JDBC program: it knows only java.sql.* and finds LocusDB's driver through the driver jar on the class
 * path. Lists the tables and their columns through DatabaseMetaData, then runs a prepared query.
 *
 * <pre>
 * ./locus serve --tpch 0.1 &amp;
 * java -cp client-java/target/client-java-0.1.0-SNAPSHOT.jar docs/examples/JdbcExample.java [jdbc-url]
 * </pre>
 */
public class JdbcExample {
    public static void main(String[] args) throws SQLException {
        String url = args.length > 0 ? args[0] : "jdbc:locusdb://127.0.0.1:5499/";
        try (Connection connection = DriverManager.getConnection(url, System.getProperty("user", ""),
                System.getProperty("password", ""))) {
            DatabaseMetaData meta = connection.getMetaData();
            System.out.println(meta.getDatabaseProductName() + " " + meta.getDatabaseProductVersion() + " via "
                    + meta.getDriverName() + " " + meta.getDriverVersion());
            try (ResultSet tables = meta.getTables(null, null, "%", new String[] {"TABLE"})) {
                while (tables.next()) {
                    String table = tables.getString("TABLE_NAME");
                    StringBuilder columns = new StringBuilder();
                    try (ResultSet cs = meta.getColumns(null, null, table, "%")) {
                        while (cs.next()) {
                            columns.append(columns.isEmpty() ? "" : ", ").append(cs.getString("COLUMN_NAME"))
                                    .append(' ').append(cs.getString("TYPE_NAME"));
                        }
                    }
                    System.out.println("table " + table + " (" + columns + ")");
                }
            }
            try (PreparedStatement q = connection.prepareStatement(
                    "SELECT l_returnflag, count(*) AS n, sum(l_quantity) AS qty FROM lineitem"
                            + " WHERE l_quantity < ? GROUP BY l_returnflag ORDER BY l_returnflag")) {
                q.setInt(1, 10);
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        System.out.println("returnflag " + rs.getString("l_returnflag") + ": " + rs.getLong("n")
                                + " rows, quantity " + rs.getBigDecimal("qty"));
                    }
                }
            }
        }
    }
}
