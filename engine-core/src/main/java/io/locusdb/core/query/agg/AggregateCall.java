package io.locusdb.core.query.agg;

import io.locusdb.core.storage.type.ColumnType;

/**
 * One aggregate of an aggregation: its function, the input column it reads ({@code -1} for COUNT(*)), whether
 * DISTINCT, the argument's and the result's types; for STRING_AGG the separator, for the aggregates that
 * collect values the order of the argument they are collected in, and for the percentiles the fraction (their
 * argument is the WITHIN GROUP order key).
 */
public record AggregateCall(Function function, int argument, boolean distinct, ColumnType argumentType,
                            ColumnType resultType, String name, String separator, Order order, double fraction) {
    public AggregateCall(Function function, int argument, boolean distinct, ColumnType argumentType,
                         ColumnType resultType, String name) {
        this(function, argument, distinct, argumentType, resultType, name, null, Order.NONE, 0);
    }

    /** This call reading its argument from another input column. */
    public AggregateCall withArgument(int column) {
        return new AggregateCall(function, column, distinct, argumentType, resultType, name, separator, order,
                fraction);
    }

    /**
     * The order STRING_AGG and ARRAY_AGG collect values in: as they come, or sorted by the argument, NULLs last
     * ascending and first descending unless the query says otherwise (as PostgreSQL orders them).
     */
    public enum Order {
        NONE(false, false), ASCENDING(false, false), ASCENDING_NULLS_FIRST(false, true), DESCENDING(true, true),
        DESCENDING_NULLS_LAST(true, false);

        private final boolean descending;
        private final boolean nullsFirst;

        Order(boolean descending, boolean nullsFirst) {
            this.descending = descending;
            this.nullsFirst = nullsFirst;
        }

        public boolean descending() {
            return descending;
        }

        public boolean nullsFirst() {
            return nullsFirst;
        }
    }

    public enum Function {
        /** SUM0 is SUM whose value over no rows is 0, not NULL: the sum of partial counts (COUNT split in two). */
        COUNT, SUM, SUM0, AVG, MIN, MAX,
        /**
         * The value of a group's one row (a scalar subquery's value, as decorrelation makes it): NULL without rows,
         * an error with more than one.
         */
        SINGLE_VALUE,
        /** The values joined with the separator, NULLs skipped. */
        STRING_AGG,
        /** The values as an array ({@code ArrayText}), NULLs included. */
        ARRAY_AGG,
        /** The value at a fraction of the sorted values, interpolated (see {@code Percentile}). */
        PERCENTILE_CONT,
        /** The first sorted value whose cumulative share reaches the fraction. */
        PERCENTILE_DISC,
        /** The most frequent value, the least of equally frequent ones (see {@code Mode}). */
        MODE
    }

    @Override
    public String toString() {
        return function + "(" + (distinct ? "DISTINCT " : "") + (argument < 0 ? "*" : "$" + argument) + ")";
    }
}
