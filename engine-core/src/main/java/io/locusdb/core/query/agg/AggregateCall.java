package io.locusdb.core.query.agg;

import io.locusdb.core.storage.type.ColumnType;

/**
 * One aggregate of an aggregation: its function, the input column it reads ({@code -1} for COUNT(*)), whether
 * DISTINCT, the argument's and the result's types.
 */
public record AggregateCall(Function function, int argument, boolean distinct, ColumnType argumentType,
                            ColumnType resultType, String name) {
    public enum Function {
        /** SUM0 is SUM whose value over no rows is 0, not NULL: the sum of partial counts (COUNT split in two). */
        COUNT, SUM, SUM0, AVG, MIN, MAX,
        /**
         * The value of a group's one row (a scalar subquery's value, as decorrelation makes it): NULL without rows,
         * an error with more than one.
         */
        SINGLE_VALUE
    }

    @Override
    public String toString() {
        return function + "(" + (distinct ? "DISTINCT " : "") + (argument < 0 ? "*" : "$" + argument) + ")";
    }
}
