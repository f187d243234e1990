package io.locusdb.bench.query;

import io.locusdb.core.storage.load.TpchSchemas;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.type.ColumnType;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * The TPC-H tables besides lineitem for DuckDB, from the same generator rows LocusDB loads, with the types LocusDB
 * gives them (written once as {@code .tbl} files under the data folder).
 */
public final class TpchTablesForDuck {
    private TpchTablesForDuck() {
    }

    public static void load(Statement duck, Path dir, double sf) throws IOException, SQLException {
        for (TpchTable<?> table : TpchTable.getTables()) {
            if (table == TpchTable.LINE_ITEM) {
                continue;
            }
            Path file = write(dir, table, sf);
            StringJoiner columns = new StringJoiner(", ");
            for (ColumnDef c : TpchSchemas.schemaOf(table).columns()) {
                columns.add("'" + c.name() + "': '" + duckType(c.type()) + "'");
            }
            columns.add("'dummy': 'VARCHAR'");
            duck.execute("CREATE TABLE " + table.getTableName() + " AS SELECT * FROM read_csv('" + file
                    + "', delim = '|', header = false, quote = '', escape = '', auto_detect = false, columns = {"
                    + columns + "})");
            duck.execute("ALTER TABLE " + table.getTableName() + " DROP COLUMN dummy");
        }
    }

    /**
     * One TPC-H table with the primary key its schema declares (DuckDB then keeps an ART index on it and answers
     * lookups by key from it), from the same generator rows.
     */
    public static void loadKeyed(Statement duck, Path dir, TpchTable<?> table, double sf)
            throws IOException, SQLException {
        Path file = write(dir, table, sf);
        StringJoiner read = new StringJoiner(", ");
        StringJoiner create = new StringJoiner(", ");
        for (ColumnDef c : TpchSchemas.schemaOf(table).columns()) {
            read.add("'" + c.name() + "': '" + duckType(c.type()) + "'");
            create.add(c.name() + " " + duckType(c.type()) + " NOT NULL");
        }
        read.add("'dummy': 'VARCHAR'");
        create.add("PRIMARY KEY (" + String.join(", ", TpchSchemas.primaryKey(table)) + ")");
        duck.execute("CREATE TABLE " + table.getTableName() + " (" + create + ")");
        duck.execute("INSERT INTO " + table.getTableName() + " SELECT * EXCLUDE (dummy) FROM read_csv('" + file
                + "', delim = '|', header = false, quote = '', escape = '', auto_detect = false, columns = {"
                + read + "})");
    }

    private static String duckType(ColumnType type) {
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

    private static Path write(Path dir, TpchTable<?> table, double sf) throws IOException {
        Path file = dir.resolve(String.format(Locale.ROOT, "%s-sf%s.tbl", table.getTableName(), sf));
        if (Files.exists(file)) {
            return file;
        }
        Files.createDirectories(dir);
        Path tmp = dir.resolve(file.getFileName() + ".tmp");
        try (BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            for (TpchEntity row : table.createGenerator(sf, 1, 1)) {
                out.write(row.toLine());
                out.write('\n');
            }
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return file;
    }
}
