package io.locusdb.core.query;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.sql.Statement;
import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.ColumnDefault;
import io.locusdb.core.storage.table.IndexDefinition;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.table.ViewDefinition;
import io.locusdb.core.storage.type.Intervals;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * What ALTER TABLE's ADD/DROP/RENAME actions make of a table's definition, checked as PostgreSQL checks them: the
 * new columns (each with the old column it takes its values from, or a default), primary key, partitioning,
 * indexes and name. Refused: a column that exists twice or not at all, a NOT NULL column without a default added
 * to rows, and removing or renaming what something still uses (a key, index or partitioning uses a dropped column;
 * a view reads the table by its text, so it holds a dropped or renamed column or table).
 */
record TableAlteration(String name, Schema schema, PartitionSpec spec, int[] sources, Object[] fill,
                       List<ColumnDefault> defaults, List<IndexDefinition> indexes, boolean changed) {

    /**
     * @param convert a literal as a column's physical value (the row number for messages is 1); a new column's
     *                default fills the rows already there, the time ones with the statement's time
     */
    static TableAlteration of(Table table, List<Statement.AlterAction> actions, Catalog catalog,
                              BiFunction<Object, ColumnDef, Object> convert) {
        Schema old = table.schema();
        List<ColumnDef> columns = new ArrayList<>(old.columns());
        List<Integer> sources = new ArrayList<>();
        List<Object> fill = new ArrayList<>();
        List<ColumnDefault> defaults = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            sources.add(i);
            fill.add(null);
            defaults.add(table.defaultOf(i));
        }
        Instant now = Instant.now();
        List<String> key = new ArrayList<>(old.primaryKeyNames());
        PartitionSpec spec = table.spec();
        List<IndexDefinition> indexes = new ArrayList<>(table.indexes());
        String name = table.name();
        boolean changed = false;
        for (Statement.AlterAction action : actions) {
            switch (action) {
                case Statement.AddColumn add -> {
                    ColumnDef column = add.column();
                    if (position(columns, column.name()) >= 0) {
                        if (add.ifNotExists()) {
                            continue;
                        }
                        throw new LocusSqlException(SqlState.DUPLICATE_COLUMN, "column \"" + column.name()
                                + "\" of relation \"" + table.name() + "\" already exists");
                    }
                    if (Intervals.isInterval(column.type().kind())) {
                        throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "column '" + column.name()
                                + "' would hold " + column.type() + " values, which tables do not store yet");
                    }
                    ColumnDefault columnDefault = ColumnDefaults.resolve(add.defaultValue(), column, convert);
                    Object value = ColumnDefaults.valueOf(columnDefault, column.type().kind(), now);
                    if (value == null && !column.nullable() && visibleRows(table) > 0) {
                        throw new LocusSqlException(SqlState.NOT_NULL_VIOLATION, "column \"" + column.name()
                                + "\" of relation \"" + table.name() + "\" contains null values (add it with a"
                                + " DEFAULT)");
                    }
                    requireNoViewReads(table, catalog, "add a column to", true);
                    columns.add(column);
                    sources.add(-1);
                    fill.add(value);
                    defaults.add(columnDefault);
                }
                case Statement.DropColumn drop -> {
                    int at = position(columns, drop.name());
                    if (at < 0) {
                        if (drop.ifExists()) {
                            continue;
                        }
                        throw missingColumn(drop.name(), table);
                    }
                    String column = columns.get(at).name();
                    String user = userOf(column, key, spec, indexes);
                    if (user != null) {
                        throw new LocusSqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop column "
                                + column + " of table " + table.name() + ": " + user + " uses it");
                    }
                    requireNoViewReads(table, catalog, "drop column " + column + " of", false);
                    if (columns.size() == 1) {
                        throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot drop column " + column
                                + ": a table keeps at least one column");
                    }
                    columns.remove(at);
                    sources.remove(at);
                    fill.remove(at);
                    defaults.remove(at);
                }
                case Statement.RenameColumn rename -> {
                    int at = position(columns, rename.from());
                    if (at < 0) {
                        throw missingColumn(rename.from(), table);
                    }
                    String from = columns.get(at).name();
                    int clash = position(columns, rename.to());
                    if (clash >= 0 && clash != at) {
                        throw new LocusSqlException(SqlState.DUPLICATE_COLUMN, "column \"" + rename.to()
                                + "\" of relation \"" + table.name() + "\" already exists");
                    }
                    requireNoViewReads(table, catalog, "rename column " + from + " of", false);
                    ColumnDef def = columns.get(at);
                    columns.set(at, new ColumnDef(rename.to(), def.type(), def.nullable()));
                    key.replaceAll(k -> k.equalsIgnoreCase(from) ? rename.to() : k);
                    spec = renamed(spec, from, rename.to());
                    indexes.replaceAll(index -> new IndexDefinition(index.name(), index.table(),
                            index.columns().stream().map(c -> c.equalsIgnoreCase(from) ? rename.to() : c).toList(),
                            index.descending(), index.unique()));
                }
                case Statement.AlterColumn alter -> {
                    int at = position(columns, alter.column());
                    if (at < 0) {
                        throw missingColumn(alter.column(), table);
                    }
                    ColumnDef def = columns.get(at);
                    // What is so already changes nothing: no rewrite of the table for it.
                    boolean noChange = switch (alter.change()) {
                        case DROP_DEFAULT -> defaults.get(at) == null;
                        case SET_NOT_NULL -> !def.nullable();
                        case DROP_NOT_NULL -> def.nullable();
                        case SET_DEFAULT -> false;
                    };
                    if (noChange) {
                        continue;
                    }
                    switch (alter.change()) {
                        case SET_DEFAULT -> defaults.set(at, ColumnDefaults.resolve(alter.defaultValue(), def,
                                convert));
                        case DROP_DEFAULT -> defaults.set(at, null);
                        case SET_NOT_NULL -> {
                            int source = sources.get(at);
                            if (source < 0 ? fill.get(at) == null && visibleRows(table) > 0
                                    : holdsNull(table, source)) {
                                throw new LocusSqlException(SqlState.NOT_NULL_VIOLATION, "column \"" + def.name()
                                        + "\" of relation \"" + table.name() + "\" contains null values");
                            }
                            columns.set(at, new ColumnDef(def.name(), def.type(), false));
                        }
                        case DROP_NOT_NULL -> {
                            if (key.stream().anyMatch(k -> k.equalsIgnoreCase(def.name()))) {
                                throw new LocusSqlException(SqlState.INVALID_TABLE_DEFINITION, "column \""
                                        + def.name() + "\" is in a primary key");
                            }
                            columns.set(at, new ColumnDef(def.name(), def.type(), true));
                        }
                    }
                }
                case Statement.RenameTable rename -> {
                    if (!rename.to().equalsIgnoreCase(name) && (catalog.find(rename.to()).isPresent()
                            || catalog.findView(rename.to()).isPresent()
                            || catalog.findIndex(rename.to()).isPresent())) {
                        throw new LocusSqlException(SqlState.DUPLICATE_TABLE, "relation \"" + rename.to()
                                + "\" already exists");
                    }
                    requireNoViewReads(table, catalog, "rename", false);
                    name = rename.to();
                    String newName = name;
                    indexes.replaceAll(index -> index.onTable(newName));
                }
            }
            changed = true;
        }
        List<Integer> keyPositions = new ArrayList<>();
        for (String k : key) {
            keyPositions.add(position(columns, k));
        }
        return new TableAlteration(name, new Schema(columns, keyPositions), spec,
                sources.stream().mapToInt(Integer::intValue).toArray(), fill.toArray(),
                defaults.stream().allMatch(d -> d == null) ? List.of() : Collections.unmodifiableList(defaults),
                List.copyOf(indexes), changed);
    }

    /** Rows a statement now sees: main and delta rows, deletions applied. */
    private static long visibleRows(Table table) {
        try (TableSnapshot snapshot = table.snapshot()) {
            return snapshot.visibleRows();
        }
    }

    /** Whether a row the statement sees holds NULL in column {@code column} (main rows by code, delta rows by value). */
    private static boolean holdsNull(Table table, int column) {
        try (TableSnapshot snapshot = table.snapshot()) {
            for (TablePart part : snapshot.parts()) {
                Column values = part.column(column);
                if (values.nullCount() > 0) {
                    for (long row = 0; row < part.rows(); row++) {
                        if (values.codes().get(row) == 0 && snapshot.isVisible(part, row)) {
                            return true;
                        }
                    }
                }
                int delta = snapshot.deltaRows(part);
                for (int d = 0; d < delta; d++) {
                    if (part.delta().row(d)[column] == null && snapshot.isVisible(part, part.rows() + d)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    private static int position(List<ColumnDef> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private static LocusSqlException missingColumn(String column, Table table) {
        return new LocusSqlException(SqlState.UNDEFINED_COLUMN, "column \"" + column + "\" of relation \""
                + table.name() + "\" does not exist");
    }

    /** What uses {@code column}: the primary key, the partitioning or an index; null when nothing does. */
    private static String userOf(String column, List<String> key, PartitionSpec spec, List<IndexDefinition> indexes) {
        if (key.stream().anyMatch(k -> k.equalsIgnoreCase(column))) {
            return "the primary key";
        }
        if (spec.column() != null && spec.column().equalsIgnoreCase(column)) {
            return "the table's partitioning (" + spec + ")";
        }
        for (IndexDefinition index : indexes) {
            if (index.columns().stream().anyMatch(c -> c.equalsIgnoreCase(column))) {
                return "index " + index.name() + " (DROP INDEX " + index.name() + " first)";
            }
        }
        return null;
    }

    /**
     * Views are kept as their query's text, which names tables and columns: one that mentions the table would read
     * a column or table that is no longer there, so the change is refused (as PostgreSQL refuses to drop a column a
     * view uses) until the view is dropped. A column added changes what {@code *} expands to, so with
     * {@code onlyStars} views that mention the table and use {@code *} refuse it.
     */
    private static void requireNoViewReads(Table table, Catalog catalog, String change, boolean onlyStars) {
        String name = Pattern.quote(table.name().toLowerCase(Locale.ROOT));
        Pattern mention = Pattern.compile("(?<![\\p{L}\\p{N}_$])" + name + "(?![\\p{L}\\p{N}_$])");
        for (ViewDefinition view : catalog.views()) {
            if (mention.matcher(view.sql().toLowerCase(Locale.ROOT)).find() && (!onlyStars
                    || view.sql().contains("*"))) {
                throw new LocusSqlException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot " + change + " table "
                        + table.name() + ": view " + view.name() + " depends on it (DROP VIEW " + view.name()
                        + " first, then create it again)");
            }
        }
    }

    private static PartitionSpec renamed(PartitionSpec spec, String from, String to) {
        return switch (spec) {
            case PartitionSpec.Hash h when h.column().equalsIgnoreCase(from) ->
                    new PartitionSpec.Hash(to, h.parts());
            case PartitionSpec.Range r when r.column().equalsIgnoreCase(from) ->
                    new PartitionSpec.Range(to, r.parts());
            default -> spec;
        };
    }
}
