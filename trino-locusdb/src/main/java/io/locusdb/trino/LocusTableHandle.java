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
 * (on dictionaries, for strings), and a row limit or top N that each split applies to its own rows (Trino still
 * applies both to the union of the splits).
 */
public record LocusTableHandle(String table, TupleDomain<ColumnHandle> constraint, OptionalLong limit,
                               List<SortKey> topN) implements ConnectorTableHandle {
    @JsonCreator
    public LocusTableHandle(@JsonProperty("table") String table,
                            @JsonProperty("constraint") TupleDomain<ColumnHandle> constraint,
                            @JsonProperty("limit") OptionalLong limit, @JsonProperty("topN") List<SortKey> topN) {
        this.table = table;
        this.constraint = constraint;
        this.limit = limit;
        this.topN = List.copyOf(topN);
    }

    static LocusTableHandle of(String table) {
        return new LocusTableHandle(table, TupleDomain.all(), OptionalLong.empty(), List.of());
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
        return new LocusTableHandle(table, value, limit, topN);
    }

    LocusTableHandle withLimit(long rows, List<SortKey> order) {
        return new LocusTableHandle(table, constraint, OptionalLong.of(rows), order);
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
