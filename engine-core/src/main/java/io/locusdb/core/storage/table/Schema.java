package io.locusdb.core.storage.table;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ordered columns of a table and, for a keyed table, its primary key: the columns whose values name at most one
 * row. Key columns are NOT NULL, as the SQL standard makes them.
 */
public final class Schema {
    private final List<ColumnDef> columns;
    private final List<Integer> primaryKey;
    private final Map<String, Integer> indexByName = new HashMap<>();

    public Schema(List<ColumnDef> columns) {
        this(columns, List.of());
    }

    /** {@code primaryKey}: positions of the key columns in key order (empty: no key). */
    public Schema(List<ColumnDef> columns, List<Integer> primaryKey) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table needs at least one column");
        }
        List<ColumnDef> defs = new ArrayList<>(columns);
        for (int i = 0; i < primaryKey.size(); i++) {
            int k = primaryKey.get(i);
            if (k < 0 || k >= defs.size()) {
                throw new IllegalArgumentException("primary key column " + k + " of a " + defs.size()
                        + "-column table");
            }
            if (primaryKey.subList(0, i).contains(k)) {
                throw new IllegalArgumentException("column '" + defs.get(k).name() + "' appears twice in the"
                        + " primary key");
            }
            ColumnDef def = defs.get(k);
            defs.set(k, new ColumnDef(def.name(), def.type(), false));
        }
        this.columns = List.copyOf(defs);
        this.primaryKey = List.copyOf(primaryKey);
        for (int i = 0; i < columns.size(); i++) {
            String key = columns.get(i).name().toLowerCase(Locale.ROOT);
            if (indexByName.putIfAbsent(key, i) != null) {
                throw new IllegalArgumentException("column '" + columns.get(i).name() + "' appears twice");
            }
        }
    }

    /** Positions of the primary key's columns in key order; empty for a table without one. */
    public List<Integer> primaryKey() {
        return primaryKey;
    }

    public boolean isKeyed() {
        return !primaryKey.isEmpty();
    }

    /** The primary key's column names in key order. */
    public List<String> primaryKeyNames() {
        return primaryKey.stream().map(k -> columns.get(k).name()).toList();
    }

    /** The same columns with another primary key. */
    public Schema withPrimaryKey(List<Integer> key) {
        return new Schema(columns, key);
    }

    public static Schema of(ColumnDef... columns) {
        return new Schema(List.of(columns));
    }

    public List<ColumnDef> columns() {
        return columns;
    }

    public int size() {
        return columns.size();
    }

    public ColumnDef column(int index) {
        return columns.get(index);
    }

    /** Index of a column by case-insensitive name; throws naming the table's columns if absent. */
    public int indexOf(String name) {
        Integer index = indexByName.get(name.toLowerCase(Locale.ROOT));
        if (index == null) {
            throw new IllegalArgumentException("no column '" + name + "' (columns: "
                    + columns.stream().map(ColumnDef::name).toList() + ")");
        }
        return index;
    }

    public boolean hasColumn(String name) {
        return indexByName.containsKey(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public String toString() {
        return columns.stream().map(c -> c.name() + " " + c.type() + (c.nullable() ? "" : " NOT NULL")).toList()
                + (primaryKey.isEmpty() ? "" : " PRIMARY KEY " + primaryKeyNames());
    }
}
