package io.locusdb.core.storage.table;

import io.locusdb.core.storage.type.PhysicalText;
import java.util.ArrayList;
import java.util.List;

/**
 * A write would give a table two rows with one value of its primary key or of a unique index; nothing of the write
 * was applied.
 */
public final class KeyViolationException extends RuntimeException {
    private final String table;
    private final String constraint;
    private final List<Object> key;

    /** A violation of the unique key on {@code columns} (positions in {@code schema}) named {@code constraint}. */
    KeyViolationException(String table, String constraint, Schema schema, int[] columns, Object[] row) {
        super(message(constraint, schema, columns, row));
        this.table = table;
        this.constraint = constraint;
        List<Object> values = new ArrayList<>();
        for (int k : columns) {
            values.add(row[k]);
        }
        this.key = values;
    }

    public String table() {
        return table;
    }

    /** The violated constraint: {@code table_pkey} for the primary key, else the unique index's name. */
    public String constraint() {
        return constraint;
    }

    /** The duplicate key's physical values, in key order. */
    public List<Object> key() {
        return key;
    }

    /** The constraint's name as PostgreSQL names a primary key: {@code table_pkey}. */
    public static String constraintName(String table) {
        return table + "_pkey";
    }

    private static String message(String constraint, Schema schema, int[] columns, Object[] row) {
        StringBuilder names = new StringBuilder();
        StringBuilder values = new StringBuilder();
        for (int k : columns) {
            if (!values.isEmpty()) {
                names.append(", ");
                values.append(", ");
            }
            names.append(schema.column(k).name());
            values.append(PhysicalText.of(schema.column(k).type(), row[k]));
        }
        return "duplicate key value violates unique constraint \"" + constraint + "\": Key (" + names + ")=("
                + values + ") already exists";
    }
}
