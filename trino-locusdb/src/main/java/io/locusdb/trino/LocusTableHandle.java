package io.locusdb.trino;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.predicate.TupleDomain;
import java.util.List;
import java.util.OptionalLong;

/**
 * A table of the catalog with what Trino pushed down to it: a filter each LocusDB server evaluates on its parts
 * (on dictionaries, for strings: domains, and LIKE conditions as SQL), a row limit or top N that each split applies to its own rows (Trino still
 * applies both to the union of the splits), and an aggregation (grouping columns and aggregates) where each group
 * can only come from one split; and whether Trino reads it bucket by bucket ({@code partitioned}: asked for by
 * {@code applyPartitioning} where a join or grouping above can use the table's layout).
 */
public record LocusTableHandle(String table, TupleDomain<ColumnHandle> constraint, List<String> filters,
                               OptionalLong limit, List<SortKey> topN, List<String> groupBy,
                               List<Aggregate> aggregates, boolean partitioned) implements ConnectorTableHandle {
    public LocusTableHandle {
        filters = List.copyOf(filters);
        topN = List.copyOf(topN);
        groupBy = List.copyOf(groupBy);
        aggregates = List.copyOf(aggregates);
    }

    static LocusTableHandle of(String table) {
        return new LocusTableHandle(table, TupleDomain.all(), List.of(), OptionalLong.empty(), List.of(), List.of(),
                List.of(), false);
    }

    /** Whether the splits return groups instead of rows. */
    boolean aggregated() {
        return !groupBy.isEmpty() || !aggregates.isEmpty();
    }

    /** With {@code value} as the domains and {@code sql} as the other conditions (LIKE) the splits filter by. */
    LocusTableHandle withConstraint(TupleDomain<ColumnHandle> value, List<String> sql) {
        return new LocusTableHandle(table, value, sql, limit, topN, groupBy, aggregates, partitioned);
    }

    LocusTableHandle withLimit(long rows, List<SortKey> order) {
        return new LocusTableHandle(table, constraint, filters, OptionalLong.of(rows), order, groupBy, aggregates,
                partitioned);
    }

    LocusTableHandle withAggregation(List<String> keys, List<Aggregate> calls) {
        return new LocusTableHandle(table, constraint, filters, limit, topN, keys, calls, partitioned);
    }

    LocusTableHandle withPartitioning() {
        return new LocusTableHandle(table, constraint, filters, limit, topN, groupBy, aggregates, true);
    }

    /** One key of a pushed-down top N: a column, ascending or not, NULLs first or not. */
    public record SortKey(String column, boolean ascending, boolean nullsFirst) {
    }

    /** An aggregate a split computes: the output column that names it, and its SQL on the server. */
    public record Aggregate(String column, String sql) {
    }
}
