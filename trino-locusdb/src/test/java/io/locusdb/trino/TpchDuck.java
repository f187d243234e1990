package io.locusdb.trino;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * DuckDB in this process holding TPC-H at one scale, generated row by row by the same generator LocusDB and Trino's
 * tpch catalog use (never read through the connector under test), to answer the same query texts.
 */
final class TpchDuck implements AutoCloseable {
    private final Connection duck;

    TpchDuck(double scaleFactor) throws SQLException {
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = duck.createStatement()) {
            s.execute("SET threads = 2");
        }
        for (TpchTable<?> table : TpchTable.getTables()) {
            load(table, scaleFactor);
        }
    }

    private <E extends TpchEntity> void load(TpchTable<E> table, double scaleFactor) throws SQLException {
        List<TpchColumn<E>> columns = table.getColumns();
        List<String> defs = new ArrayList<>();
        for (TpchColumn<E> c : columns) {
            defs.add(c.getColumnName() + " " + switch (c.getType().getBase()) {
                case IDENTIFIER -> "BIGINT";
                case INTEGER -> "INTEGER";
                case DATE -> "DATE";
                case DOUBLE -> "DECIMAL(15,2)";
                case VARCHAR -> "VARCHAR";
            });
        }
        try (Statement s = duck.createStatement()) {
            s.execute("CREATE TABLE " + table.getTableName() + " (" + String.join(", ", defs) + ")");
        }
        // DuckDB's appender: rows go into its column chunks directly (an INSERT per row takes minutes at SF 1).
        try (DuckDBAppender appender = duck.unwrap(DuckDBConnection.class).createAppender("main",
                table.getTableName())) {
            for (E row : table.createGenerator(scaleFactor, 1, 1)) {
                appender.beginRow();
                for (TpchColumn<E> c : columns) {
                    switch (c.getType().getBase()) {
                        case IDENTIFIER -> appender.append(c.getIdentifier(row));
                        case INTEGER -> appender.append(c.getInteger(row));
                        case DATE -> appender.appendEpochDays(c.getDate(row));
                        case DOUBLE -> appender.append(BigDecimal.valueOf(c.getDouble(row))
                                .setScale(2, RoundingMode.HALF_UP));
                        case VARCHAR -> appender.append(c.getString(row));
                    }
                }
                appender.endRow();
            }
        }
    }

    /** The query's rows as {@link TpchQueries#canonical} writes them, numbers to {@code places} places. */
    List<String> answer(String sql, int places) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet r = s.executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                List<Object> fields = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    Object v = r.getObject(i);
                    fields.add(v instanceof Date d ? d.toLocalDate() : v);
                }
                rows.add(TpchQueries.row(fields, places));
            }
        }
        rows.sort(null);
        return rows;
    }

    @Override
    public void close() throws SQLException {
        duck.close();
    }
}
