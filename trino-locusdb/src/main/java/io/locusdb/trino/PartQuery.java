package io.locusdb.trino;

import java.util.ArrayList;
import java.util.List;

/**
 * The SQL a split sends to its server: a PART hint naming the table part, the columns Trino reads, the pushed-down
 * filter, and the split's own top N or limit. Without columns (Trino counts rows) the server counts them.
 */
final class PartQuery {
    private PartQuery() {
    }

    static String sql(LocusSplit split, LocusTableHandle table, List<LocusColumnHandle> columns) {
        StringBuilder sql = new StringBuilder("/*+ PART(").append(PredicateSql.quote(split.table())).append(' ')
                .append(split.part()).append(" OF ").append(split.parts()).append(") */ SELECT ");
        String where = PredicateSql.where(table.constraint());
        if (columns.isEmpty()) {
            sql.append("count(*) FROM ").append(PredicateSql.quote(split.table()));
            if (where != null) {
                sql.append(" WHERE ").append(where);
            }
            if (table.limit().isPresent()) {
                // Counting the rows of a subquery keeps the limit's meaning.
                return "/*+ PART(" + PredicateSql.quote(split.table()) + " " + split.part() + " OF " + split.parts()
                        + ") */ SELECT count(*) FROM (SELECT 1 FROM " + PredicateSql.quote(split.table())
                        + (where == null ? "" : " WHERE " + where) + " LIMIT " + table.limit().getAsLong() + ") t";
            }
            return sql.toString();
        }
        List<String> names = new ArrayList<>();
        for (LocusColumnHandle c : columns) {
            names.add(PredicateSql.quote(c.name()));
        }
        sql.append(String.join(", ", names)).append(" FROM ").append(PredicateSql.quote(split.table()));
        if (where != null) {
            sql.append(" WHERE ").append(where);
        }
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
}
