package io.locusdb.core.storage.table;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A secondary index of a table (CREATE [UNIQUE] INDEX, or a UNIQUE constraint of CREATE TABLE): its name, unique
 * among the catalog's indexes, and the columns it orders rows by, leading column first. A unique index admits at
 * most one row per combination of non-null values; rows with a NULL in any of its columns never conflict (SQL's
 * NULLS DISTINCT). {@code descending} says, per column, the order the statement asked for; LocusDB's order-preserving
 * indexes serve both directions, so it only shapes the definition as shown back.
 *
 * <p>The structure behind an index is the one the primary key uses: per part, the main rows' {@link
 * io.locusdb.core.storage.index.MainKeyIndex} on the leading column (built on first use, freed with the part) and
 * the delta's {@link io.locusdb.core.storage.index.DeltaKeyIndex}; the other columns are compared on the rows the
 * leading column finds.
 */
public record IndexDefinition(String name, String table, List<String> columns, List<Boolean> descending,
                              boolean unique) {
    public IndexDefinition {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an index needs a name");
        }
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("index " + name + " needs at least one column");
        }
        if (descending.size() != columns.size()) {
            throw new IllegalArgumentException("index " + name + ": " + descending.size() + " orders for "
                    + columns.size() + " columns");
        }
        List<String> seen = new ArrayList<>();
        for (String column : columns) {
            String key = column.toLowerCase(Locale.ROOT);
            if (seen.contains(key)) {
                throw new IllegalArgumentException("column '" + column + "' appears twice in index " + name);
            }
            seen.add(key);
        }
        columns = List.copyOf(columns);
        descending = List.copyOf(descending);
    }

    /** An index whose columns are all in ascending order. */
    public static IndexDefinition ascending(String name, String table, List<String> columns, boolean unique) {
        return new IndexDefinition(name, table, columns, columns.stream().map(c -> false).toList(), unique);
    }

    /** The same index on a table of another name (the table's name as the catalog spells it). */
    public IndexDefinition onTable(String tableName) {
        return new IndexDefinition(name, tableName, columns, descending, unique);
    }

    /** The statement that creates this index, as PostgreSQL's {@code pg_indexes.indexdef} shows one. */
    public String sql() {
        StringBuilder s = new StringBuilder(unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ");
        s.append(quote(name)).append(" ON public.").append(quote(table)).append(" USING btree (");
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                s.append(", ");
            }
            s.append(quote(columns.get(i)));
            if (descending.get(i)) {
                s.append(" DESC");
            }
        }
        return s.append(')').toString();
    }

    private static String quote(String identifier) {
        return identifier.matches("[a-z_][a-z0-9_]*") ? identifier : '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
