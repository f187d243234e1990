package io.locusdb.core.sql;

import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.type.ColumnType;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A read-only table computed from the database's state each time a statement runs ({@code locus_parts},
 * {@code locus_placer_events}...). Values per column type: Long or Integer for INTEGER/BIGINT, Double for DOUBLE,
 * Boolean for BOOLEAN, String for VARCHAR; null where nullable. {@code schema} is null for the database's own schema,
 * else the schema it belongs to ({@code pg_catalog}, {@code information_schema}). {@code arrays} names the VARCHAR
 * columns that SQL sees as arrays of the given element type (PostgreSQL's catalogs have such columns; their values
 * are array text, see {@code ArrayText}).
 */
public record SystemTable(String schema, String name, List<ColumnDef> columns, Supplier<List<Object[]>> rows,
                          Map<String, ColumnType> arrays) {
    /** Tables named so are the system's: users cannot create them. */
    public static final String RESERVED_PREFIX = "locus_";

    public static boolean isReservedName(String name) {
        return name.toLowerCase(Locale.ROOT).startsWith(RESERVED_PREFIX);
    }

    /** A table of the database's own schema (beside the user's tables). */
    public SystemTable(String name, List<ColumnDef> columns, Supplier<List<Object[]>> rows) {
        this(null, name, columns, rows, Map.of());
    }

    public SystemTable(String schema, String name, List<ColumnDef> columns, Supplier<List<Object[]>> rows) {
        this(schema, name, columns, rows, Map.of());
    }

    /** This table with {@code arrays} as its array columns. */
    public SystemTable withArrays(Map<String, ColumnType> arrays) {
        return new SystemTable(schema, name, columns, rows, arrays);
    }

    private static final Supplier<List<Object[]>> NO_ROWS = List::of;

    /** A catalog of things LocusDB does not have (indexes, constraints...): present, and never holding a row. */
    public static SystemTable empty(String schema, String name, List<ColumnDef> columns) {
        return new SystemTable(schema, name, columns, NO_ROWS);
    }

    /** Whether the table never holds a row, so that plans reading it can be simplified away while planning. */
    public boolean alwaysEmpty() {
        return rows == NO_ROWS;
    }

    public SystemTable {
        Objects.requireNonNull(name, "name");
        columns = List.copyOf(columns);
        Objects.requireNonNull(rows, "rows");
        arrays = Map.copyOf(arrays);
    }
}
