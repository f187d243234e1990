package io.locusdb.core.storage.table;

import io.locusdb.core.storage.type.ColumnType;

/** A column of a schema. Names are kept as given and matched case-insensitively. */
public record ColumnDef(String name, ColumnType type, boolean nullable) {
    public ColumnDef {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a column needs a name");
        }
    }

    public static ColumnDef of(String name, ColumnType type) {
        return new ColumnDef(name, type, true);
    }

    public static ColumnDef notNull(String name, ColumnType type) {
        return new ColumnDef(name, type, false);
    }
}
