package io.locusdb.trino;

import java.util.ArrayList;
import java.util.List;

/**
 * The SQL a split sends to its server: a PART hint naming the table part, the columns Trino reads, the pushed-down
 * filter, and the split's own aggregation, top N or limit. Without columns (Trino counts rows) the server counts
 * them. With pushdown off, every column of every row of the part.
 */
final class PartQuery {
    private PartQuery() {
    }

    static String sql(LocusSplit split, LocusTableHandle table, List<LocusColumnHandle> columns, boolean pushdown) {
        String hint = "/*+ PART(" + PredicateSql.quote(split.table()) + " " + split.part() + " OF " + split.parts()
                + " AT " + split.division() + ") */ ";
        String from = " FROM " + PredicateSql.quote(split.table());
        if (!pushdown) {
            // Everything of the part: Trino filters, limits and drops columns itself.
            return hint + "SELECT *" + from;
        }
        List<String> conditions = new ArrayList<>();
        String where = PredicateSql.where(table.constraint());
        if (where != null) {
            conditions.add(where);
        }
        conditions.addAll(table.filters());
        StringBuilder body = new StringBuilder(from);
        if (!conditions.isEmpty()) {
            body.append(" WHERE ").append(conditions.size() == 1 ? conditions.getFirst()
                    : "(" + String.join(") AND (", conditions) + ")");
        }
        if (table.aggregated() && !table.groupBy().isEmpty()) {
            List<String> keys = new ArrayList<>();
            for (String k : table.groupBy()) {
                keys.add(PredicateSql.quote(k));
            }
            body.append(" GROUP BY ").append(String.join(", ", keys));
        }
        if (columns.isEmpty()) {
            // Only the number of rows (or groups) is read; a limit or an aggregation keeps its meaning inside the
            // count (a global aggregation is one row: its first aggregate computes it).
            boolean plain = !table.aggregated() && table.limit().isEmpty();
            String inner = table.aggregated() && table.groupBy().isEmpty() ? table.aggregates().getFirst().sql()
                    : "1";
            return hint + (plain ? "SELECT count(*)" + body
                    : "SELECT count(*) FROM (SELECT " + inner + body + table.limit().stream()
                    .mapToObj(l -> " LIMIT " + l).findFirst().orElse("") + ") t");
        }
        List<String> select = new ArrayList<>();
        for (LocusColumnHandle c : columns) {
            select.add(expression(table, c));
        }
        StringBuilder sql = new StringBuilder(hint).append("SELECT ").append(String.join(", ", select)).append(body);
        if (!table.topN().isEmpty()) {
            List<String> keys = new ArrayList<>();
            for (LocusTableHandle.SortKey k : table.topN()) {
                keys.add(PredicateSql.quote(k.column()) + (k.ascending() ? " ASC" : " DESC")
                        + (k.nullsFirst() ? " NULLS FIRST" : " NULLS LAST"));
            }
            sql.append(" ORDER BY ").append(String.join(", ", keys));
        }
        if (table.limit().isPresent()) {
            sql.append(" LIMIT ").append(table.limit().getAsLong());
        }
        return sql.toString();
    }

    /** A column of the table, or one of the aggregation's outputs. */
    private static String expression(LocusTableHandle table, LocusColumnHandle column) {
        for (LocusTableHandle.Aggregate a : table.aggregates()) {
            if (a.column().equals(column.name())) {
                return a.sql() + " AS " + PredicateSql.quote(a.column());
            }
        }
        return PredicateSql.quote(column.name());
    }
}
