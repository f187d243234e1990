package io.locusdb.core.query;

import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.sql.Statement;
import io.locusdb.core.storage.table.KeyViolationException;
import io.locusdb.core.storage.table.Replacement;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.type.PhysicalText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.function.Function;

/**
 * {@code INSERT ... ON CONFLICT}: which proposed rows go in, which existing rows they update (DO UPDATE) or leave
 * alone (DO NOTHING), decided while the caller holds the table's write lock and applied by it as one commit
 * (existing rows out, their updated copies and the new rows in). The SET expressions and the WHERE condition are
 * evaluated by one query over the conflicting rows, each paired with its proposed row as {@code EXCLUDED}.
 */
final class Upsert {
    private static final String ROW_NUMBER = "locus_row";
    private final Table table;
    private final Statement.OnConflict clause;
    private final List<Object[]> rows;
    private final Function<String, QueryResult> queries;

    /** {@code rows}: the proposed rows, every column in schema order, converted to physical values. */
    Upsert(Table table, Statement.OnConflict clause, List<Object[]> rows, Function<String, QueryResult> queries) {
        this.table = table;
        this.clause = clause;
        this.rows = rows;
        this.queries = queries;
    }

    Replacement compute() {
        Schema schema = table.schema();
        List<int[]> arbiters = arbiters(schema);
        int[] set = new int[clause.columns().size()];
        for (int i = 0; i < set.length; i++) {
            String column = clause.columns().get(i);
            if (!schema.hasColumn(column)) {
                throw new LocusSqlException(SqlState.UNDEFINED_COLUMN, "column '" + column + "' of table '"
                        + table.name() + "' does not exist (ON CONFLICT DO UPDATE SET)");
            }
            set[i] = schema.indexOf(column);
        }
        List<Set<List<Object>>> proposed = new ArrayList<>();
        arbiters.forEach(a -> proposed.add(new HashSet<>()));
        List<Object[]> added = new ArrayList<>();
        List<Object[]> conflicting = new ArrayList<>();
        List<Object[]> excluded = new ArrayList<>();
        rows:
        for (Object[] row : rows) {
            Object[] existing = null;
            List<List<Object>> keysOfRow = new ArrayList<>(arbiters.size());
            for (int a = 0; a < arbiters.size(); a++) {
                int[] key = arbiters.get(a);
                Object[] values = new Object[key.length];
                boolean hasNull = false;
                for (int k = 0; k < values.length; k++) {
                    values[k] = row[key[k]];
                    hasNull |= values[k] == null;
                }
                if (hasNull) {
                    // A key with a NULL in it equals no other: this row conflicts with nothing on it.
                    keysOfRow.add(null);
                    continue;
                }
                List<Object> proposedKey = Arrays.asList(values);
                if (proposed.get(a).contains(proposedKey)) {
                    if (clause.doNothing()) {
                        continue rows;
                    }
                    throw new LocusSqlException(SqlState.CARDINALITY_VIOLATION, "ON CONFLICT DO UPDATE command"
                            + " cannot affect row a second time: the statement proposes key (" + names(schema, key)
                            + ")=(" + text(schema, key, row) + ") twice");
                }
                keysOfRow.add(proposedKey);
                existing = existing != null ? existing : table.rowWithKey(key, values);
            }
            if (existing != null && clause.doNothing()) {
                continue;
            }
            // Only a row that goes in (or updates one) holds its keys against the statement's later rows.
            for (int a = 0; a < arbiters.size(); a++) {
                if (keysOfRow.get(a) != null) {
                    proposed.get(a).add(keysOfRow.get(a));
                }
            }
            if (existing == null) {
                added.add(row);
            } else {
                conflicting.add(existing);
                excluded.add(row);
            }
        }
        List<Object[]> removed = new ArrayList<>();
        if (!conflicting.isEmpty()) {
            update(schema, set, conflicting, excluded, removed, added);
        }
        return new Replacement(removed, added);
    }

    /**
     * The unique keys a proposed row is checked against (column positions): the one the conflict target names (its
     * columns in any order, or its constraint's name), or without a target for DO NOTHING every unique key (the
     * primary key and each unique index). A conflict on another key than the arbiters still fails with 23505.
     */
    private List<int[]> arbiters(Schema schema) {
        Map<String, int[]> keys = table.uniqueKeys();
        if (clause.constraint() != null) {
            for (Map.Entry<String, int[]> key : keys.entrySet()) {
                if (key.getKey().equalsIgnoreCase(clause.constraint())) {
                    return List.<int[]>of(key.getValue());
                }
            }
            throw new LocusSqlException(SqlState.UNDEFINED_OBJECT, "constraint \"" + clause.constraint()
                    + "\" for table \"" + table.name() + "\" does not exist" + described(keys));
        }
        if (clause.target().isEmpty()) {
            if (clause.doNothing() && !keys.isEmpty()) {
                // As in PostgreSQL: without a target, DO NOTHING skips a row that conflicts on any unique key.
                return List.copyOf(keys.values());
            }
            if (schema.isKeyed()) {
                return List.<int[]>of(keys.get(KeyViolationException.constraintName(table.name())));
            }
            throw new LocusSqlException(SqlState.INVALID_COLUMN_REFERENCE, "there is no unique or exclusion"
                    + " constraint matching the ON CONFLICT specification: table '" + table.name() + "' has"
                    + (keys.isEmpty() ? " no primary key or unique index" : " no primary key; name the unique"
                    + " index's columns (ON CONFLICT (...))") + described(keys));
        }
        Set<Integer> target = new HashSet<>();
        for (String column : clause.target()) {
            if (!schema.hasColumn(column)) {
                throw new LocusSqlException(SqlState.UNDEFINED_COLUMN, "column '" + column + "' of table '"
                        + table.name() + "' does not exist (ON CONFLICT)");
            }
            target.add(schema.indexOf(column));
        }
        for (int[] key : keys.values()) {
            if (target.equals(Arrays.stream(key).boxed().collect(Collectors.toSet()))) {
                return List.<int[]>of(key);
            }
        }
        throw new LocusSqlException(SqlState.INVALID_COLUMN_REFERENCE, "there is no unique or exclusion"
                + " constraint matching the ON CONFLICT specification" + described(keys));
    }

    /** The table's unique keys as an error message lists them. */
    private String described(Map<String, int[]> keys) {
        if (keys.isEmpty()) {
            return "";
        }
        List<String> listed = new ArrayList<>();
        keys.forEach((name, columns) -> listed.add(name + " (" + names(table.schema(), columns) + ")"));
        return ": the unique keys of '" + table.name() + "' are " + String.join(", ", listed);
    }

    /** DO UPDATE: evaluates SET and WHERE on each conflicting row with its proposed row, in one query. */
    private void update(Schema schema, int[] set, List<Object[]> conflicting, List<Object[]> excluded,
                        List<Object[]> removed, List<Object[]> added) {
        StringBuilder sql = new StringBuilder("SELECT ").append(quoted(ROW_NUMBER));
        for (String e : clause.expressions()) {
            sql.append(", (").append(e).append(')');
        }
        sql.append(clause.condition() == null ? ", TRUE" : ", CASE WHEN (" + clause.condition()
                + ") THEN TRUE ELSE FALSE END");
        sql.append(" FROM (VALUES ");
        for (int r = 0; r < conflicting.size(); r++) {
            sql.append(r == 0 ? "(" : ", (").append(r);
            for (Object[] row : List.of(conflicting.get(r), excluded.get(r))) {
                for (int c = 0; c < schema.size(); c++) {
                    sql.append(", ").append(PhysicalText.literal(schema.column(c).type(), row[c]));
                }
            }
            sql.append(')');
        }
        sql.append(") AS ").append(quoted(clause.alias() == null ? table.name() : clause.alias())).append('(')
                .append(quoted(ROW_NUMBER));
        for (String prefix : List.of("", Statement.OnConflict.EXCLUDED_PREFIX)) {
            for (int c = 0; c < schema.size(); c++) {
                sql.append(", ").append(quoted(prefix + schema.column(c).name()));
            }
        }
        sql.append(')');
        try (QueryResult result = evaluate(sql.toString())) {
            for (List<Object> values : result.toList()) {
                int r = ((Number) values.get(0)).intValue();
                if (!Boolean.TRUE.equals(values.get(set.length + 1))) {
                    continue;
                }
                Object[] old = conflicting.get(r);
                Object[] updated = old.clone();
                for (int i = 0; i < set.length; i++) {
                    updated[set[i]] = StatementRunner.convert(values.get(1 + i), schema.column(set[i]), r + 1);
                }
                removed.add(old);
                added.add(updated);
            }
        }
    }

    /**
     * Runs the query that evaluates SET and WHERE; its errors speak of the statement the user wrote: the proposed
     * row's columns as {@code excluded.c}, no positions inside the query made here.
     */
    private QueryResult evaluate(String sql) {
        try {
            QueryResult result = queries.apply(sql);
            result.columns();
            return result;
        } catch (LocusSqlException e) {
            throw new LocusSqlException(e.state(), e.getMessage().replace(Statement.OnConflict.EXCLUDED_PREFIX,
                    "excluded.") + " (in ON CONFLICT DO UPDATE)", 0, 0, e);
        }
    }

    private static String text(Schema schema, int[] key, Object[] row) {
        List<String> values = new ArrayList<>();
        for (int k : key) {
            values.add(PhysicalText.of(schema.column(k).type(), row[k]));
        }
        return String.join(", ", values);
    }

    private static String names(Schema schema, int[] key) {
        return Arrays.stream(key).mapToObj(k -> schema.column(k).name()).collect(Collectors.joining(", "));
    }

    private static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }
}
