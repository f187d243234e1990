package io.locusdb.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.predicate.TupleDomain;
import java.util.List;
import java.util.OptionalLong;

/**
 * A table of the catalog with what Trino pushed down to it: a filter each LocusDB server evaluates on its parts
 * (on dictionaries, for strings), a row limit or top N that each split applies to its own rows (Trino still
 * applies both to the union of the splits), and an aggregation (grouping columns and aggregates) where each group
 * can only come from one split.
 */
public record LocusTableHandle(String table, TupleDomain<ColumnHandle> constraint, OptionalLong limit,
                               List<SortKey> topN, List<String> groupBy, List<Aggregate> aggregates)
        implements ConnectorTableHandle {
    @JsonCreator
    public LocusTableHandle(@JsonProperty("table") String table,
                            @JsonProperty("constraint") TupleDomain<ColumnHandle> constraint,
                            @JsonProperty("limit") OptionalLong limit, @JsonProperty("topN") List<SortKey> topN,
                            @JsonProperty("groupBy") List<String> groupBy,
                            @JsonProperty("aggregates") List<Aggregate> aggregates) {
        this.table = table;
        this.constraint = constraint;
        this.limit = limit;
        this.topN = List.copyOf(topN);
        this.groupBy = List.copyOf(groupBy);
        this.aggregates = List.copyOf(aggregates);
    }

    static LocusTableHandle of(String table) {
        return new LocusTableHandle(table, TupleDomain.all(), OptionalLong.empty(), List.of(), List.of(), List.of());
    }

    @Override
    @JsonProperty
    public List<String> groupBy() {
        return groupBy;
    }

    @Override
    @JsonProperty
    public List<Aggregate> aggregates() {
        return aggregates;
    }

    /** Whether the splits return groups instead of rows. */
    boolean aggregated() {
        return !groupBy.isEmpty() || !aggregates.isEmpty();
    }

    LocusTableHandle withAggregation(List<String> keys, List<Aggregate> calls) {
        return new LocusTableHandle(table, constraint, limit, topN, keys, calls);
    }

    /** An aggregate a split computes: its SQL on the server, and the output column that names it. */
    public record Aggregate(String column, String sql) {
        @JsonCreator
        public Aggregate(@JsonProperty("column") String column, @JsonProperty("sql") String sql) {
            this.column = column;
            this.sql = sql;
        }

        @Override
        @JsonProperty
        public String column() {
            return column;
        }

        @Override
        @JsonProperty
        public String sql() {
            return sql;
        }
    }

    @Override
    @JsonProperty
    public String table() {
        return table;
    }

    @Override
    @JsonProperty
    public TupleDomain<ColumnHandle> constraint() {
        return constraint;
    }

    @Override
    @JsonProperty
    public OptionalLong limit() {
        return limit;
    }

    @Override
    @JsonProperty
    public List<SortKey> topN() {
        return topN;
    }

    LocusTableHandle withConstraint(TupleDomain<ColumnHandle> value) {
        return new LocusTableHandle(table, value, limit, topN, groupBy, aggregates);
    }

    LocusTableHandle withLimit(long rows, List<SortKey> order) {
        return new LocusTableHandle(table, constraint, OptionalLong.of(rows), order, groupBy, aggregates);
    }

    /** One key of a pushed-down top N: a column, ascending or not, NULLs first or not. */
    public record SortKey(String column, boolean ascending, boolean nullsFirst) {
        @JsonCreator
        public SortKey(@JsonProperty("column") String column, @JsonProperty("ascending") boolean ascending,
                       @JsonProperty("nullsFirst") boolean nullsFirst) {
            this.column = column;
            this.ascending = ascending;
            this.nullsFirst = nullsFirst;
        }

        @Override
        @JsonProperty
        public String column() {
            return column;
        }

        @Override
        @JsonProperty
        public boolean ascending() {
            return ascending;
        }

        @Override
        @JsonProperty
        public boolean nullsFirst() {
            return nullsFirst;
        }
    }
}
