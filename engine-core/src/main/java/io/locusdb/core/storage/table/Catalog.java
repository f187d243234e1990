package io.locusdb.core.storage.table;

import io.locusdb.natives.memory.NodeMemory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tables and table groups by case-insensitive name. A table appears only once it is complete (loaders build all
 * parts first and then {@link #register}), so no query ever sees half a table.
 */
public final class Catalog {
    private final NodeMemory memory;
    private final Map<String, Table> tables = new ConcurrentHashMap<>();
    private final Map<String, TableGroup> groups = new ConcurrentHashMap<>();
    private final Map<String, ViewDefinition> views = new ConcurrentHashMap<>();
    /** Secondary indexes by name (one namespace for all tables, as in PostgreSQL and SQLite). */
    private final Map<String, IndexDefinition> indexes = new ConcurrentHashMap<>();
    /** Counts catalog changes (tables and groups created, dropped or replaced). */
    private final AtomicLong changes = new AtomicLong();

    public Catalog(NodeMemory memory) {
        this.memory = memory;
    }

    public NodeMemory memory() {
        return memory;
    }

    /**
     * Creates an empty table with its parts placed per {@code placement} (CREATE TABLE), optionally in a table
     * group, which must be co-partitioned with it.
     */
    public Table createTable(String name, Schema schema, PartitionSpec spec, InitialPlacement placement,
                             String groupName) {
        return createTable(name, schema, spec, placement, groupName, List.of());
    }

    /**
     * As above, with the bounds of a RANGE table: the lowest key of parts 1..n-1 (physical values); without them a
     * RANGE table's rows all go to its first part.
     */
    public Table createTable(String name, Schema schema, PartitionSpec spec, InitialPlacement placement,
                             String groupName, List<Long> rangeBounds) {
        if (find(name).isPresent()) {
            throw new IllegalArgumentException("table '" + name + "' already exists");
        }
        TableGroup group = groupName == null ? null : group(groupName);
        List<TablePart> parts = new ArrayList<>();
        try {
            for (int p = 0; p < spec.parts(); p++) {
                parts.add(new TablePartBuilder(schema).build(p, memory, placement.place(p, memory.topology())));
            }
            List<Long> bounds = new ArrayList<>(rangeBounds);
            if (spec instanceof PartitionSpec.Range) {
                if (!rangeBounds.isEmpty() && rangeBounds.size() != spec.parts() - 1) {
                    throw new IllegalArgumentException(spec.parts() + " RANGE parts need " + (spec.parts() - 1)
                            + " bounds, not " + rangeBounds.size());
                }
                for (int p = bounds.size() + 1; p < spec.parts(); p++) {
                    bounds.add(Long.MAX_VALUE);
                }
            }
            Table table = new Table(name, schema, spec, parts, bounds);
            if (group != null) {
                group.add(table);
            }
            try {
                return register(table);
            } catch (RuntimeException e) {
                if (group != null) {
                    group.remove(table);
                }
                throw e;
            }
        } catch (RuntimeException | Error e) {
            parts.forEach(TablePart::release);
            throw e;
        }
    }

    public Table register(Table table) {
        if (views.containsKey(key(table.name()))) {
            throw new IllegalArgumentException("a view named '" + table.name() + "' already exists");
        }
        if (indexes.containsKey(key(table.name()))) {
            throw new IllegalArgumentException("an index named '" + table.name() + "' already exists");
        }
        Table existing = tables.putIfAbsent(key(table.name()), table);
        if (existing != null) {
            throw new IllegalArgumentException("table '" + table.name() + "' already exists");
        }
        changes.incrementAndGet();
        return table;
    }

    /**
     * Changes whenever a plan made against the catalog may no longer fit: a table or group is created, dropped or
     * replaced, or a table gets a new version (a move, repartitioning, merge of parts or delta merge changes the
     * statistics and placement a plan was made with). Versions only grow, so their sum identifies the tables' state
     * between catalog changes.
     */
    public long epoch() {
        long versions = 0;
        for (Table t : tables.values()) {
            versions += t.version().number();
        }
        return (changes.get() << 40) + (versions & ((1L << 40) - 1));
    }

    /**
     * Adds a view, or replaces the one of that name ({@code replace}); a table of that name, or a view without
     * {@code replace}, is an error.
     */
    public synchronized void createView(ViewDefinition view, boolean replace) {
        if (tables.containsKey(key(view.name()))) {
            throw new IllegalArgumentException("a table named '" + view.name() + "' already exists");
        }
        if (!replace && views.containsKey(key(view.name()))) {
            throw new IllegalArgumentException("view '" + view.name() + "' already exists");
        }
        views.put(key(view.name()), view);
        changes.incrementAndGet();
    }

    public synchronized void dropView(String name) {
        if (views.remove(key(name)) == null) {
            throw new IllegalArgumentException("no view '" + name + "'");
        }
        changes.incrementAndGet();
    }

    public Optional<ViewDefinition> findView(String name) {
        return Optional.ofNullable(views.get(key(name)));
    }

    /** The views by name. */
    public List<ViewDefinition> views() {
        List<ViewDefinition> list = new ArrayList<>(views.values());
        list.sort(Comparator.comparing(ViewDefinition::name, String.CASE_INSENSITIVE_ORDER));
        return list;
    }

    /**
     * Adds a secondary index to its table (which checks a unique one against the rows it holds) and returns it as
     * stored, with the table's name as the catalog spells it.
     */
    public IndexDefinition createIndex(IndexDefinition index) {
        return createIndex(index, true);
    }

    /**
     * As {@link #createIndex(IndexDefinition)}, for an index a data directory recorded with rows that were checked
     * when they were written: a unique one is not checked again.
     */
    public IndexDefinition restoreIndex(IndexDefinition index) {
        return createIndex(index, false);
    }

    private synchronized IndexDefinition createIndex(IndexDefinition index, boolean check) {
        if (indexes.containsKey(key(index.name()))) {
            throw new IllegalArgumentException("index '" + index.name() + "' already exists");
        }
        if (tables.containsKey(key(index.name())) || views.containsKey(key(index.name()))) {
            throw new IllegalArgumentException("a table or view named '" + index.name() + "' already exists");
        }
        Table table = table(index.table());
        IndexDefinition stored = index.onTable(table.name());
        table.addIndex(stored, check);
        indexes.put(key(index.name()), stored);
        changes.incrementAndGet();
        return stored;
    }

    /** Removes a secondary index; its table keeps its rows and its other indexes. */
    public synchronized IndexDefinition dropIndex(String name) {
        IndexDefinition index = indexes.remove(key(name));
        if (index == null) {
            throw new IllegalArgumentException("no index '" + name + "'");
        }
        find(index.table()).ifPresent(t -> t.removeIndex(index.name()));
        changes.incrementAndGet();
        return index;
    }

    public Optional<IndexDefinition> findIndex(String name) {
        return Optional.ofNullable(indexes.get(key(name)));
    }

    /** Every table's secondary indexes, table by table in creation order. */
    public List<IndexDefinition> indexes() {
        List<IndexDefinition> list = new ArrayList<>();
        for (Table t : tables()) {
            list.addAll(t.indexes());
        }
        return list;
    }

    public Optional<Table> find(String name) {
        return Optional.ofNullable(tables.get(key(name)));
    }

    public Table table(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("no table '" + name + "'"));
    }

    public List<Table> tables() {
        List<Table> list = new ArrayList<>(tables.values());
        list.sort(Comparator.comparing(Table::name, String.CASE_INSENSITIVE_ORDER));
        return list;
    }

    /**
     * Puts {@code replacement} (not registered, perhaps under another name) where {@code old} is, in one step: no
     * statement finds neither, and on a refusal (a name another table, view or index has) nothing changed. The
     * replacement takes {@code indexes} (rows it holds were checked when written) and {@code old}'s group; {@code
     * old} is dropped, its memory freed once queries that still read it finish.
     */
    public synchronized void replace(Table old, Table replacement, List<IndexDefinition> indexes) {
        String oldKey = key(old.name());
        String newKey = key(replacement.name());
        if (tables.get(oldKey) != old) {
            throw new IllegalArgumentException("table '" + old.name() + "' was dropped or replaced meanwhile");
        }
        if (!newKey.equals(oldKey) && (tables.containsKey(newKey) || views.containsKey(newKey)
                || this.indexes.containsKey(newKey))) {
            throw new IllegalArgumentException("relation '" + replacement.name() + "' already exists");
        }
        TableGroup group = old.group() == null ? null : groups.get(key(old.group()));
        if (group != null) {
            // Checks that the replacement is co-partitioned with the group before anything changes.
            group.add(replacement);
        }
        for (IndexDefinition index : old.indexes()) {
            this.indexes.remove(key(index.name()));
        }
        tables.remove(oldKey);
        tables.put(newKey, replacement);
        for (IndexDefinition index : indexes) {
            createIndex(index, false);
        }
        changes.incrementAndGet();
        if (group != null) {
            group.remove(old);
        }
        old.drop();
    }

    /** Removes a table; its memory is freed once queries that still read it finish. */
    public synchronized void drop(String name) {
        Table table = tables.remove(key(name));
        if (table == null) {
            throw new IllegalArgumentException("no table '" + name + "'");
        }
        for (IndexDefinition index : table.indexes()) {
            indexes.remove(key(index.name()));
        }
        changes.incrementAndGet();
        if (table.group() != null) {
            TableGroup group = groups.get(key(table.group()));
            if (group != null) {
                group.remove(table);
            }
        }
        table.drop();
    }

    public TableGroup createGroup(String name) {
        TableGroup group = new TableGroup(name);
        if (groups.putIfAbsent(key(name), group) != null) {
            throw new IllegalArgumentException("table group '" + name + "' already exists");
        }
        changes.incrementAndGet();
        return group;
    }

    public Optional<TableGroup> findGroup(String name) {
        return Optional.ofNullable(groups.get(key(name)));
    }

    public TableGroup group(String name) {
        return findGroup(name).orElseThrow(() -> new IllegalArgumentException("no table group '" + name + "'"));
    }

    public List<TableGroup> groups() {
        return List.copyOf(groups.values());
    }

    public void dropGroup(String name) {
        TableGroup group = groups.get(key(name));
        if (group == null) {
            throw new IllegalArgumentException("no table group '" + name + "'");
        }
        if (!group.tables().isEmpty()) {
            throw new IllegalArgumentException("table group '" + name + "' still has tables "
                    + group.tables().stream().map(Table::name).toList());
        }
        groups.remove(key(name));
        changes.incrementAndGet();
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
