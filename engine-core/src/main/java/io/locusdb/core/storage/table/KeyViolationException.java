package io.locusdb.core.storage.table;

import io.locusdb.core.storage.type.PhysicalText;
import java.util.ArrayList;
import java.util.List;

/** A write would give a keyed table two rows with one primary key; nothing of the write was applied. */
public final class KeyViolationException extends RuntimeException {
    private final String table;
    private final List<Object> key;

    KeyViolationException(String table, Schema schema, Object[] row) {
        super(message(table, schema, row));
        this.table = table;
        List<Object> values = new ArrayList<>();
        for (int k : schema.primaryKey()) {
            values.add(row[k]);
        }
        this.key = values;
    }

    public String table() {
        return table;
    }

    /** The duplicate key's physical values, in key order. */
    public List<Object> key() {
        return key;
    }

    /** The constraint's name as PostgreSQL names a primary key: {@code table_pkey}. */
    public static String constraintName(String table) {
        return table + "_pkey";
    }

    private static String message(String table, Schema schema, Object[] row) {
        StringBuilder values = new StringBuilder();
        for (int k : schema.primaryKey()) {
            if (!values.isEmpty()) {
                values.append(", ");
            }
            values.append(PhysicalText.of(schema.column(k).type(), row[k]));
        }
        return "duplicate key value violates unique constraint \"" + constraintName(table) + "\": Key ("
                + String.join(", ", schema.primaryKeyNames()) + ")=(" + values + ") already exists";
    }
}
