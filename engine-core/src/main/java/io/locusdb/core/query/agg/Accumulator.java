package io.locusdb.core.query.agg;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.query.expr.Numerics;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Intervals;
import io.locusdb.core.storage.type.TypeKind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The state of one aggregate for every group of a table, in arrays indexed by group: updated a batch at a time
 * from the batch's group numbers, merged group by group into another table's, finished into a result column.
 * Row counts per group are kept once by the {@link GroupTable}; an aggregate counts only the NULLs it skipped, so
 * COUNT(*) costs nothing per row and SUM or AVG one add.
 */
public abstract class Accumulator {
    protected int capacity;

    /** Makes room for groups {@code 0..groups-1}, which the table now has. */
    public abstract void grow(int groups);

    /** Makes room for groups {@code 0..groups-1} ahead of the table's growth. */
    public void reserve(int groups) {
        grow(groups);
    }

    /** Adds rows {@code 0..rows-1} of {@code argument} (null for COUNT(*)) to their groups. */
    public abstract void update(int[] groups, ColumnVector argument, int rows);

    /** Folds group {@code source} of {@code other} into group {@code target} of this. */
    public abstract void merge(int target, Accumulator other, int source);

    /**
     * Folds groups {@code from..from+count-1} of {@code other} into groups {@code targets[0..count-1]} of this (a
     * target may repeat). The aggregates a merge meets most override it with a loop of their own.
     */
    public void mergeAll(int[] targets, Accumulator other, int from, int count) {
        for (int i = 0; i < count; i++) {
            merge(targets[i], other, from + i);
        }
    }

    /**
     * Writes the final value of groups {@code 0..groups-1} into rows {@code 0..groups-1} of {@code out};
     * {@code rows[g]} is how many rows group g has (kept once by the table, not per aggregate).
     */
    public abstract void finish(int groups, ColumnVector out, long[] rows);

    /** Reorders the states of groups {@code 0..size-1}: group i takes the state group {@code order[i]} had. */
    public abstract void permute(int[] order, int size);

    /** Whether {@code values[0..size-1]} are all zero. */
    static boolean allZero(long[] values, int size) {
        long any = 0;
        for (int i = 0; i < size; i++) {
            any |= values[i];
        }
        return any == 0;
    }

    static long[] permuted(long[] values, int[] order, int size) {
        long[] out = new long[values.length];
        for (int i = 0; i < size; i++) {
            out[i] = values[order[i]];
        }
        return out;
    }

    static double[] permuted(double[] values, int[] order, int size) {
        double[] out = new double[values.length];
        for (int i = 0; i < size; i++) {
            out[i] = values[order[i]];
        }
        return out;
    }

    static boolean[] permuted(boolean[] values, int[] order, int size) {
        boolean[] out = new boolean[values.length];
        for (int i = 0; i < size; i++) {
            out[i] = values[order[i]];
        }
        return out;
    }

    static <T> T[] permuted(T[] values, int[] order, int size) {
        T[] out = Arrays.copyOf(values, values.length);
        for (int i = 0; i < size; i++) {
            out[i] = values[order[i]];
        }
        return out;
    }

    public static Accumulator create(AggregateCall call) {
        if (call.function() == AggregateCall.Function.STRING_AGG
                || call.function() == AggregateCall.Function.ARRAY_AGG) {
            return new CollectValues(call);
        }
        if (call.function() == AggregateCall.Function.PERCENTILE_CONT
                || call.function() == AggregateCall.Function.PERCENTILE_DISC) {
            return new Percentile(call);
        }
        if (call.function() == AggregateCall.Function.MODE) {
            return new Mode(call);
        }
        if (call.distinct() && call.function() != AggregateCall.Function.MIN
                && call.function() != AggregateCall.Function.MAX) {
            return new Distinct(call);
        }
        ColumnType arg = call.argumentType();
        return switch (call.function()) {
            case COUNT -> new Count(call.argument() < 0);
            case SUM, SUM0 -> {
                boolean emptyIsZero = call.function() == AggregateCall.Function.SUM0;
                yield arg.kind() == TypeKind.DOUBLE ? new SumDouble(false, emptyIsZero)
                        : new SumExact(Numerics.scale(arg), Numerics.scale(call.resultType()), emptyIsZero);
            }
            case AVG -> arg.kind() == TypeKind.DOUBLE ? new SumDouble(true, false)
                    : new AvgExact(Numerics.scale(arg), Intervals.isInterval(arg.kind()));
            case MIN, MAX -> new Extreme(call.function() == AggregateCall.Function.MAX, arg, false);
            case SINGLE_VALUE -> new Extreme(false, arg, true);
            case STRING_AGG, ARRAY_AGG -> new CollectValues(call);
            case PERCENTILE_CONT, PERCENTILE_DISC -> new Percentile(call);
            case MODE -> new Mode(call);
        };
    }

    /**
     * The accumulators of {@code calls}, with AVG(x) reading the sums of a SUM(x) of the same argument when the
     * query has both (TPC-H Q1 does, twice), so each value is added once.
     */
    public static Accumulator[] createAll(java.util.List<AggregateCall> calls) {
        Accumulator[] out = new Accumulator[calls.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = create(calls.get(i));
        }
        for (int i = 0; i < out.length; i++) {
            if (!(out[i] instanceof AvgExact avg) || avg.interval) {
                continue;
            }
            for (int j = 0; j < out.length; j++) {
                if (out[j] instanceof SumExact sum && calls.get(j).argument() == calls.get(i).argument()
                        && sum.argScale == avg.scale) {
                    out[i] = new AvgOfSum(sum);
                    break;
                }
            }
        }
        return out;
    }

    /** AVG(x) beside SUM(x): the sum's state divided by the count of values; nothing to add per row. */
    static final class AvgOfSum extends Accumulator {
        private final SumExact sum;
        private final double divisor;

        AvgOfSum(SumExact sum) {
            this.sum = sum;
            this.divisor = Numerics.pow10(sum.argScale);
        }

        @Override
        public void grow(int groups) {
        }

        @Override
        public void update(int[] groups, ColumnVector argument, int rows) {
        }

        @Override
        public void merge(int target, Accumulator other, int source) {
        }

        @Override
        public void permute(int[] order, int size) {
            // The SUM beside it is permuted on its own.
        }

        @Override
        public void finish(int groups, ColumnVector out, long[] rows) {
            for (int g = 0; g < groups; g++) {
                long n = sum.values(g, rows);
                if (n == 0) {
                    out.setNull(g);
                } else {
                    out.setDouble(g, sum.sums[g] / divisor / n);
                }
            }
        }
    }

    static int newCapacity(int current, int groups) {
        return Math.max(groups, Math.max(16, current + (current >> 1)));
    }

    /** NULLs skipped per group, for aggregates of a nullable argument. */
    abstract static class NullCounting extends Accumulator {
        long[] nulls = new long[0];
        /** Scratch of {@link GroupedSums}. */
        long[] lanes = new long[0];
        /** Groups of the table so far (the table grows its aggregates to its size before each batch). */
        int used;

        @Override
        public void grow(int groups) {
            used = Math.max(used, groups);
            reserve(groups);
        }

        @Override
        public void reserve(int groups) {
            if (groups > capacity) {
                capacity = newCapacity(capacity, groups);
                nulls = Arrays.copyOf(nulls, capacity);
                growState(capacity);
            }
        }

        abstract void growState(int capacity);

        @Override
        public final void permute(int[] order, int size) {
            // Without NULLs the counts are all zero and read the same in any order.
            if (!allZero(nulls, size)) {
                nulls = permuted(nulls, order, size);
            }
            permuteState(order, size);
        }

        abstract void permuteState(int[] order, int size);

        /** Counts the NULL rows of {@code argument}; returns whether there were any. */
        final boolean countNulls(int[] groups, ColumnVector argument, int rows) {
            if (argument == null || !argument.anyNull()) {
                return false;
            }
            boolean[] isNull = argument.nulls();
            for (int i = 0; i < rows; i++) {
                if (isNull[i]) {
                    nulls[groups[i]]++;
                }
            }
            return true;
        }

        final void mergeNulls(int target, NullCounting other, int source) {
            nulls[target] += other.nulls[source];
        }

        final void mergeAllNulls(int[] targets, NullCounting other, int from, int count) {
            long[] mine = nulls;
            long[] theirs = other.nulls;
            for (int i = 0; i < count; i++) {
                mine[targets[i]] += theirs[from + i];
            }
        }

        final long values(int g, long[] rows) {
            return rows[g] - nulls[g];
        }
    }

    /** COUNT(*) (the table's row count) or COUNT(x) (rows minus NULLs). */
    static final class Count extends NullCounting {
        Count(boolean star) {
        }

        @Override
        void growState(int capacity) {
        }

        @Override
        void permuteState(int[] order, int size) {
        }

        @Override
        public void update(int[] groups, ColumnVector argument, int rows) {
            countNulls(groups, argument, rows);
        }

        @Override
        public void merge(int target, Accumulator other, int source) {
            mergeNulls(target, (Count) other, source);
        }

        @Override
        public void mergeAll(int[] targets, Accumulator other, int from, int count) {
            mergeAllNulls(targets, (Count) other, from, count);
        }

        @Override
        public void finish(int groups, ColumnVector out, long[] rows) {
            for (int g = 0; g < groups; g++) {
                out.setLong(g, values(g, rows));
            }
        }
    }

    /**
     * Exact sums in scaled longs per group (overflow is an error), the state SUM and AVG of exact numbers share:
     * they differ only in what they finish.
     */
    abstract static class ExactSums extends NullCounting {
        long[] sums = new long[0];

        @Override
        void growState(int capacity) {
            sums = Arrays.copyOf(sums, capacity);
        }

        @Override
        void permuteState(int[] order, int size) {
            sums = permuted(sums, order, size);
        }

        @Override
        public void update(int[] groups, ColumnVector argument, int rows) {
            lanes = sumExact(sums, used, groups, argument, rows, countNulls(groups, argument, rows), lanes);
        }

        @Override
        public void merge(int target, Accumulator other, int source) {
            ExactSums o = (ExactSums) other;
            sums[target] = Numerics.addExact(sums[target], o.sums[source]);
            mergeNulls(target, o, source);
        }

        @Override
        public void mergeAll(int[] targets, Accumulator other, int from, int count) {
            ExactSums o = (ExactSums) other;
            long[] mine = sums;
            long[] theirs = o.sums;
            for (int i = 0; i < count; i++) {
                int t = targets[i];
                mine[t] = Numerics.addExact(mine[t], theirs[from + i]);
            }
            mergeAllNulls(targets, o, from, count);
        }
    }

    /** SUM of exact numbers; NULL for a group without values. */
    static final class SumExact extends ExactSums {
        private final int argScale;
        private final int resultScale;
        private final boolean emptyIsZero;

        SumExact(int argScale, int resultScale, boolean emptyIsZero) {
            this.argScale = argScale;
            this.resultScale = resultScale;
            this.emptyIsZero = emptyIsZero;
        }

        @Override
        public void finish(int groups, ColumnVector out, long[] rows) {
            for (int g = 0; g < groups; g++) {
                if (values(g, rows) == 0 && !emptyIsZero) {
                    out.setNull(g);
                } else {
                    out.setLong(g, Numerics.rescale(sums[g], argScale, resultScale));
                }
            }
        }
    }

    /** Adds exact values into their groups' sums (NULL rows skipped), with overflow checks. */
    static long[] sumExact(long[] sums, int groupCount, int[] groups, ColumnVector argument, int rows,
                           boolean anyNull, long[] lanes) {
        return GroupedSums.addExact(sums, groupCount, groups, argument.longs(), anyNull ? argument.nulls() : null,
                rows, lanes);
    }

    /**
     * AVG of exact numbers: exact sum and count, divided once at the end (as DOUBLE); of intervals, the sum of their
     * microseconds over the count, rounded half away from zero to an interval again.
     */
    static final class AvgExact extends ExactSums {
        private final int scale;
        private final double divisor;
        private final boolean interval;

        AvgExact(int scale, boolean interval) {
            this.scale = scale;
            this.divisor = Numerics.pow10(scale);
            this.interval = interval;
        }

        @Override
        public void finish(int groups, ColumnVector out, long[] rows) {
            for (int g = 0; g < groups; g++) {
                long n = values(g, rows);
                if (n == 0) {
                    out.setNull(g);
                } else if (interval) {
                    out.setLong(g, rounded(sums[g], n));
                } else {
                    out.setDouble(g, sums[g] / divisor / n);
                }
            }
        }

        static long rounded(long sum, long count) {
            return BigDecimal.valueOf(sum).divide(BigDecimal.valueOf(count), 0, RoundingMode.HALF_UP).longValueExact();
        }
    }

    /** SUM or AVG of doubles. */
    static final class SumDouble extends NullCounting {
        private final boolean average;
        private final boolean emptyIsZero;
        double[] sums = new double[0];

        SumDouble(boolean average, boolean emptyIsZero) {
            this.average = average;
            this.emptyIsZero = emptyIsZero;
        }

        @Override
        void growState(int capacity) {
            sums = Arrays.copyOf(sums, capacity);
        }

        @Override
        void permuteState(int[] order, int size) {
            sums = permuted(sums, order, size);
        }

        @Override
        public void update(int[] groups, ColumnVector argument, int rows) {
            double[] values = argument.doubles();
            if (countNulls(groups, argument, rows)) {
                boolean[] nulls = argument.nulls();
                for (int i = 0; i < rows; i++) {
                    if (!nulls[i]) {
                        sums[groups[i]] += values[i];
                    }
                }
            } else {
                for (int i = 0; i < rows; i++) {
                    sums[groups[i]] += values[i];
                }
            }
        }

        @Override
        public void merge(int target, Accumulator other, int source) {
            SumDouble o = (SumDouble) other;
            sums[target] += o.sums[source];
            mergeNulls(target, o, source);
        }

        @Override
        public void mergeAll(int[] targets, Accumulator other, int from, int count) {
            SumDouble o = (SumDouble) other;
            double[] mine = sums;
            double[] theirs = o.sums;
            for (int i = 0; i < count; i++) {
                mine[targets[i]] += theirs[from + i];
            }
            mergeAllNulls(targets, o, from, count);
        }

        @Override
        public void finish(int groups, ColumnVector out, long[] rows) {
            for (int g = 0; g < groups; g++) {
                long n = values(g, rows);
                if (n == 0 && !emptyIsZero) {
                    out.setNull(g);
                } else {
                    out.setDouble(g, average ? sums[g] / n : sums[g]);
                }
            }
        }
    }

    /**
     * MIN or MAX of any comparable type; or a group's single value, which fails when the group has more than one
     * row (a scalar subquery that returns several rows is an error in SQL, not one of its values).
     */
    static final class Extreme extends Accumulator {
        private final boolean max;
        private final boolean single;
        private final TypeKind.Physical physical;
        long[] longs = new long[0];
        double[] doubles = new double[0];
        String[] strings = new String[0];
        boolean[] seen = new boolean[0];

        Extreme(boolean max, ColumnType type, boolean single) {
            this.max = max;
            this.single = single;
            this.physical = type.physical();
        }

        @Override
        public void grow(int groups) {
            if (groups > capacity) {
                capacity = newCapacity(capacity, groups);
                seen = Arrays.copyOf(seen, capacity);
                switch (physical) {
                    case LONG -> longs = Arrays.copyOf(longs, capacity);
                    case DOUBLE -> doubles = Arrays.copyOf(doubles, capacity);
                    case STRING -> strings = Arrays.copyOf(strings, capacity);
                }
            }
        }

        @Override
        public void permute(int[] order, int size) {
            seen = permuted(seen, order, size);
            switch (physical) {
                case LONG -> longs = permuted(longs, order, size);
                case DOUBLE -> doubles = permuted(doubles, order, size);
                case STRING -> strings = permuted(strings, order, size);
            }
        }

        @Override
        public void update(int[] groups, ColumnVector argument, int rows) {
            for (int i = 0; i < rows; i++) {
                if (argument.isNull(i)) {
                    continue;
                }
                int g = groups[i];
                switch (physical) {
                    case LONG -> offer(g, argument.longs()[i]);
                    case DOUBLE -> offer(g, argument.doubles()[i]);
                    case STRING -> offer(g, argument.string(i));
                }
            }
        }

        private void offer(int g, long v) {
            if (!seen[g] || (max ? v > longs[g] : v < longs[g])) {
                longs[g] = v;
                seen[g] = true;
            }
        }

        private void offer(int g, double v) {
            if (!seen[g] || (max ? Double.compare(v, doubles[g]) > 0 : Double.compare(v, doubles[g]) < 0)) {
                doubles[g] = v;
                seen[g] = true;
            }
        }

        private void offer(int g, String v) {
            if (!seen[g] || (max ? v.compareTo(strings[g]) > 0 : v.compareTo(strings[g]) < 0)) {
                strings[g] = v;
                seen[g] = true;
            }
        }

        @Override
        public void merge(int target, Accumulator other, int source) {
            Extreme o = (Extreme) other;
            if (!o.seen[source]) {
                return;
            }
            switch (physical) {
                case LONG -> offer(target, o.longs[source]);
                case DOUBLE -> offer(target, o.doubles[source]);
                case STRING -> offer(target, o.strings[source]);
            }
        }

        @Override
        public void finish(int groups, ColumnVector out, long[] rows) {
            for (int g = 0; g < groups; g++) {
                if (single && rows[g] > 1) {
                    throw new LocusSqlException(SqlState.CARDINALITY_VIOLATION, "a subquery used as an expression"
                            + " returned more than one row");
                }
                if (!seen[g]) {
                    out.setNull(g);
                    continue;
                }
                switch (physical) {
                    case LONG -> out.setLong(g, longs[g]);
                    case DOUBLE -> out.setDouble(g, doubles[g]);
                    case STRING -> out.setString(g, strings[g]);
                }
            }
        }
    }

    /** COUNT/SUM/AVG(DISTINCT x): the distinct values of each group, folded at the end. */
    static final class Distinct extends Accumulator {
        private final AggregateCall call;
        @SuppressWarnings("unchecked")
        Set<Object>[] sets = new Set[0];

        Distinct(AggregateCall call) {
            this.call = call;
        }

        @Override
        public void grow(int groups) {
            if (groups > capacity) {
                capacity = newCapacity(capacity, groups);
                sets = Arrays.copyOf(sets, capacity);
            }
        }

        @Override
        public void permute(int[] order, int size) {
            sets = permuted(sets, order, size);
        }

        @Override
        public void update(int[] groups, ColumnVector argument, int rows) {
            for (int i = 0; i < rows; i++) {
                Object v = argument.boxed(i);
                if (v == null) {
                    continue;
                }
                if (v instanceof Double d && d == 0.0) {
                    v = 0.0;
                }
                set(groups[i]).add(v);
            }
        }

        private Set<Object> set(int g) {
            Set<Object> s = sets[g];
            if (s == null) {
                s = new HashSet<>();
                sets[g] = s;
            }
            return s;
        }

        @Override
        public void merge(int target, Accumulator other, int source) {
            Set<Object> from = ((Distinct) other).sets[source];
            if (from != null) {
                set(target).addAll(from);
            }
        }

        @Override
        public void finish(int groups, ColumnVector out, long[] rows) {
            int argScale = Numerics.scale(call.argumentType());
            int resultScale = Numerics.scale(call.resultType());
            for (int g = 0; g < groups; g++) {
                Set<Object> s = sets[g] == null ? Set.of() : sets[g];
                if (call.function() == AggregateCall.Function.COUNT) {
                    out.setLong(g, s.size());
                    continue;
                }
                if (s.isEmpty()) {
                    if (call.function() == AggregateCall.Function.SUM0) {
                        out.setLong(g, 0);
                    } else {
                        out.setNull(g);
                    }
                    continue;
                }
                if (call.argumentType().kind() == TypeKind.DOUBLE) {
                    double sum = 0;
                    for (Object v : s) {
                        sum += (Double) v;
                    }
                    out.setDouble(g, call.function() == AggregateCall.Function.AVG ? sum / s.size() : sum);
                } else {
                    long sum = 0;
                    for (Object v : s) {
                        sum = Numerics.addExact(sum, (Long) v);
                    }
                    if (call.function() == AggregateCall.Function.AVG && Intervals.isInterval(call.argumentType().kind())) {
                        out.setLong(g, AvgExact.rounded(sum, s.size()));
                    } else if (call.function() == AggregateCall.Function.AVG) {
                        out.setDouble(g, sum / (double) Numerics.pow10(argScale) / s.size());
                    } else {
                        out.setLong(g, Numerics.rescale(sum, argScale, resultScale));
                    }
                }
            }
        }
    }
}
