package io.locusdb.core.storage.table;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Tables co-partitioned on a key: same partitioning kind and part count on columns of the same type, so part i of
 * each table (together a table-group part) holds the same keys and is placed on the same node.
 */
public final class TableGroup {
    private final String name;
    private final List<Table> tables = new CopyOnWriteArrayList<>();

    TableGroup(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a table group needs a name");
        }
        this.name = name;
    }

    public String name() {
        return name;
    }

    public List<Table> tables() {
        return List.copyOf(tables);
    }

    /** Adds a table after checking it is co-partitioned with the members. */
    public synchronized void add(Table table) {
        if (!tables.isEmpty()) {
            Table first = tables.getFirst();
            PartitionSpec a = first.spec();
            PartitionSpec b = table.spec();
            if (a.getClass() != b.getClass() || a.parts() != b.parts()) {
                throw new IllegalArgumentException("table " + table.name() + " (" + b + ") is not co-partitioned "
                        + "with group " + name + " (" + a + ")");
            }
            if (a.column() != null) {
                var ta = first.schema().column(first.schema().indexOf(a.column())).type().kind();
                var tb = table.schema().column(table.schema().indexOf(b.column())).type().kind();
                if (ta != tb) {
                    throw new IllegalArgumentException("table " + table.name() + " partitions on a " + tb
                            + " column, group " + name + " on " + ta);
                }
            }
        }
        table.group(name);
        tables.add(table);
    }

    synchronized void remove(Table table) {
        tables.remove(table);
        table.group(null);
    }

    /** Part count shared by the members (0 for an empty group). */
    public int parts() {
        return tables.isEmpty() ? 0 : tables.getFirst().version().parts().size();
    }
}
