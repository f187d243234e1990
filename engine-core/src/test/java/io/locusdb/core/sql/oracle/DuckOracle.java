package io.locusdb.core.sql.oracle;

import io.locusdb.core.storage.load.TpchSchemas;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Timestamps;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * The reference engine of the oracle tests: an in-memory DuckDB (JDBC, two threads) holding the same data as the
 * LocusDB under test. Results come back as rows of Java values normalized like LocusDB's (see {@link #normalize}).
 *
 * <p>There is no network here, so DuckDB's {@code tpch} extension is not used: lineitem is written once per scale
 * factor by the same {@code io.trino.tpch} generator LocusDB loads from, to {@code target/oracle-data}, and read
 * with {@code read_csv}.
 */
public final class DuckOracle implements AutoCloseable {
    /** Where generated {@code .tbl} files are cached (relative to the module directory Maven runs tests in). */
    static final Path DATA_DIR = Path.of("target", "oracle-data");

    private final Connection connection;

    private DuckOracle(Connection connection) {
        this.connection = connection;
    }

    /** A fresh in-memory DuckDB with two threads (the machine is shared with the engine under test). */
    public static DuckOracle open() {
        try {
            Connection c = DriverManager.getConnection("jdbc:duckdb:");
            try (Statement s = c.createStatement()) {
                s.execute("SET threads = 2");
            }
            return new DuckOracle(c);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open DuckDB", e);
        }
    }

    /** A query's result in DuckDB: column names, DuckDB type names, and normalized rows. */
    public record DuckRows(List<String> names, List<String> typeNames, List<List<Object>> rows) {
    }

    /** Creates {@code lineitem} (TPC-H types as LocusDB has them) from the generator's rows at {@code sf}. */
    public void loadLineitem(double sf) {
        Path file = writeLineitemTbl(sf);
        execute("CREATE TABLE lineitem AS SELECT * FROM read_csv('" + file.toAbsolutePath() + "', delim = '|',"
                + " header = false, quote = '', escape = '', auto_detect = false,"
                + " columns = {'l_orderkey': 'BIGINT', 'l_partkey': 'BIGINT', 'l_suppkey': 'BIGINT',"
                + " 'l_linenumber': 'INTEGER', 'l_quantity': 'DECIMAL(15,2)', 'l_extendedprice': 'DECIMAL(15,2)',"
                + " 'l_discount': 'DECIMAL(15,2)', 'l_tax': 'DECIMAL(15,2)', 'l_returnflag': 'VARCHAR',"
                + " 'l_linestatus': 'VARCHAR', 'l_shipdate': 'DATE', 'l_commitdate': 'DATE',"
                + " 'l_receiptdate': 'DATE', 'l_shipinstruct': 'VARCHAR', 'l_shipmode': 'VARCHAR',"
                + " 'l_comment': 'VARCHAR', 'dummy': 'VARCHAR'})");
        execute("ALTER TABLE lineitem DROP COLUMN dummy");
    }

    /**
     * The generator's lineitem rows at {@code sf} as a {@code .tbl} file (each line ends with a '|'), written once
     * and reused by later runs.
     */
    static Path writeLineitemTbl(double sf) {
        return writeTbl(TpchTable.LINE_ITEM, sf);
    }

    /** Every TPC-H table at {@code sf} from the generator's rows, with the types LocusDB gives them. */
    public void loadTpch(double sf) {
        for (TpchTable<?> table : TpchTable.getTables()) {
            Path file = writeTbl(table, sf);
            Schema schema = TpchSchemas.schemaOf(table);
            StringJoiner columns = new StringJoiner(", ");
            for (ColumnDef c : schema.columns()) {
                columns.add("'" + c.name() + "': '" + duckType(c.type()) + "'");
            }
            columns.add("'dummy': 'VARCHAR'");
            execute("CREATE TABLE " + table.getTableName() + " AS SELECT * FROM read_csv('" + file.toAbsolutePath()
                    + "', delim = '|', header = false, quote = '', escape = '', auto_detect = false, columns = {"
                    + columns + "})");
            execute("ALTER TABLE " + table.getTableName() + " DROP COLUMN dummy");
        }
    }

    private static synchronized Path writeTbl(TpchTable<?> table, double sf) {
        Path file = DATA_DIR.resolve(String.format(Locale.ROOT, "%s-sf%s.tbl", table.getTableName(), sf));
        if (Files.exists(file)) {
            return file;
        }
        try {
            Files.createDirectories(DATA_DIR);
            Path tmp = Files.createTempFile(DATA_DIR, file.getFileName().toString(), ".tmp");
            try (BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                for (TpchEntity row : table.createGenerator(sf, 1, 1)) {
                    out.write(row.toLine());
                    out.write('\n');
                }
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** CREATE TABLE with DuckDB's spelling of a LocusDB schema (CHAR becomes VARCHAR: DuckDB does not pad). */
    public void createTable(String name, Schema schema) {
        StringJoiner columns = new StringJoiner(", ");
        for (ColumnDef c : schema.columns()) {
            columns.add(c.name() + " " + duckType(c.type()) + (c.nullable() ? "" : " NOT NULL"));
        }
        execute("CREATE TABLE " + name + " (" + columns + ")");
    }

    static String duckType(ColumnType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "BOOLEAN";
            case INTEGER -> "INTEGER";
            case BIGINT -> "BIGINT";
            case DOUBLE -> "DOUBLE";
            case DECIMAL -> "DECIMAL(" + type.precision() + "," + type.scale() + ")";
            case DATE -> "DATE";
            case TIMESTAMP -> "TIMESTAMP";
            case TIMESTAMP_TZ -> "TIMESTAMPTZ";
            case VARCHAR, CHAR -> "VARCHAR";
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> "INTERVAL";
        };
    }

    /**
     * Inserts rows of logical values (Integer/Long, BigDecimal, Double, String, LocalDate, Boolean, null; schema
     * order) as SQL literals in batches; doubles go through their shortest round-trip text, so DuckDB holds the
     * very same double.
     */
    public void insert(String table, Schema schema, List<Object[]> rows) {
        final int batch = 500;
        for (int from = 0; from < rows.size(); from += batch) {
            StringJoiner values = new StringJoiner(",\n");
            for (Object[] row : rows.subList(from, Math.min(rows.size(), from + batch))) {
                if (row.length != schema.size()) {
                    throw new IllegalArgumentException("row of " + row.length + " values for " + schema);
                }
                StringJoiner v = new StringJoiner(", ", "(", ")");
                for (int c = 0; c < row.length; c++) {
                    v.add(insertLiteral(schema.column(c).type(), row[c]));
                }
                values.add(v.toString());
            }
            execute("INSERT INTO " + table + " VALUES " + values);
        }
    }

    private static String insertLiteral(ColumnType type, Object value) {
        if (value == null) {
            return "NULL";
        }
        return switch (type.kind()) {
            case DOUBLE -> "CAST('" + Double.toString(((Number) value).doubleValue()) + "' AS DOUBLE)";
            case DECIMAL -> "CAST(" + ((BigDecimal) value).toPlainString() + " AS " + duckType(type) + ")";
            default -> sqlLiteral(value);
        };
    }

    /** A value as a SQL literal both DuckDB and Calcite read as the same value. */
    static String sqlLiteral(Object value) {
        return switch (value) {
            case null -> "NULL";
            case String s -> "'" + s.replace("'", "''") + "'";
            case LocalDate d -> "DATE '" + d + "'";
            case LocalDateTime t -> "TIMESTAMP '" + Timestamps.format(Timestamps.of(t)) + "'";
            case Boolean b -> b ? "TRUE" : "FALSE";
            case BigDecimal d -> d.signum() < 0 ? "(" + d.toPlainString() + ")" : d.toPlainString();
            case Double d -> {
                BigDecimal exact = new BigDecimal(Double.toString(d));
                yield exact.signum() < 0 ? "(" + exact.toPlainString() + ")" : exact.toPlainString();
            }
            case Number n -> n.longValue() < 0 ? "(" + n + ")" : n.toString();
            default -> throw new IllegalArgumentException("no literal for " + value.getClass());
        };
    }

    public void execute(String sql) {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("DuckDB failed on: " + abbreviate(sql) + "\n" + e.getMessage(), e);
        }
    }

    /**
     * Runs a query with {@code ?} parameters bound by position (BigDecimal, Long, Integer, Double, String,
     * LocalDate, Boolean) and returns every row normalized.
     */
    public DuckRows query(String sql, Object... parameters) {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                Object p = parameters[i];
                if (p instanceof LocalDate d) {
                    ps.setObject(i + 1, d);
                } else {
                    ps.setObject(i + 1, p);
                }
            }
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                int n = md.getColumnCount();
                List<String> names = new ArrayList<>(n);
                List<String> types = new ArrayList<>(n);
                for (int c = 1; c <= n; c++) {
                    names.add(md.getColumnLabel(c));
                    types.add(md.getColumnTypeName(c));
                }
                List<List<Object>> rows = new ArrayList<>();
                while (rs.next()) {
                    Object[] row = new Object[n];
                    for (int c = 0; c < n; c++) {
                        row[c] = normalize(rs.getObject(c + 1));
                    }
                    rows.add(Arrays.asList(row));
                }
                return new DuckRows(List.copyOf(names), List.copyOf(types), rows);
            }
        } catch (SQLException e) {
            String message = "DuckDB failed on: " + sql + " " + Arrays.toString(parameters) + "\n" + e.getMessage();
            if (e.getMessage() != null && e.getMessage().startsWith(DIVISION_BY_ZERO_MESSAGE)) {
                throw new DivisionByZero(message, e);
            }
            throw new IllegalStateException(message, e);
        }
    }

    /** How DuckDB's error for an integer division or modulo by zero begins (its JDBC driver sets no SQLSTATE). */
    private static final String DIVISION_BY_ZERO_MESSAGE = "Invalid Input Error: Division by zero";

    /** DuckDB refused a query because it divided an integer by zero: SQLSTATE 22012 in PostgreSQL and LocusDB. */
    public static final class DivisionByZero extends IllegalStateException {
        DivisionByZero(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * DuckDB's JDBC values as LocusDB's Java types where the two differ only in representation: DATE as
     * LocalDate, and TIMESTAMP at midnight as LocalDate too (DuckDB types {@code date + INTERVAL} as TIMESTAMP,
     * standard SQL as DATE). HUGEINT stays a BigInteger and is compared numerically.
     */
    static Object normalize(Object v) {
        return switch (v) {
            case null -> null;
            case java.sql.Date d -> d.toLocalDate();
            case Timestamp t -> midnightAsDate(t.toLocalDateTime());
            case LocalDateTime t -> midnightAsDate(t);
            case Short s -> s.intValue();
            case Byte b -> b.intValue();
            case Float f -> f.doubleValue();
            case BigInteger b -> b;
            default -> v;
        };
    }

    private static Object midnightAsDate(LocalDateTime t) {
        return t.toLocalTime().equals(LocalTime.MIDNIGHT) ? t.toLocalDate() : t;
    }

    private static String abbreviate(String sql) {
        return sql.length() <= 400 ? sql : sql.substring(0, 400) + "...";
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
