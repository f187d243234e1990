package io.locusdb.core.storage.table;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The ordered columns of a table. */
public final class Schema {
    private final List<ColumnDef> columns;
    private final Map<String, Integer> indexByName = new HashMap<>();

    public Schema(List<ColumnDef> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table needs at least one column");
        }
        this.columns = List.copyOf(columns);
        for (int i = 0; i < columns.size(); i++) {
            String key = columns.get(i).name().toLowerCase(Locale.ROOT);
            if (indexByName.putIfAbsent(key, i) != null) {
                throw new IllegalArgumentException("column '" + columns.get(i).name() + "' appears twice");
            }
        }
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
                .toString();
    }
}
