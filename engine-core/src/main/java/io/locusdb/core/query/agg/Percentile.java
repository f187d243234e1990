package io.locusdb.core.query.agg;

import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.query.expr.Numerics;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.vector.ColumnVector;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * {@code PERCENTILE_CONT(f)} and {@code PERCENTILE_DISC(f) WITHIN GROUP (ORDER BY x)}, as PostgreSQL computes them:
 * each group's non-NULL values of x are kept (numbers in primitive arrays, no boxing) and sorted once the group is
 * finished. CONT interpolates linearly between the values at positions floor and ceil of f × (n - 1), a DOUBLE; DISC
 * is the first value whose position reaches f × n, the value itself; ordered descending, both count from the top. A
 * group of NULLs only gives NULL.
 */
final class Percentile extends Accumulator {
    private final double fraction;
    private final boolean descending;
    private final boolean continuous;
    private final boolean doubles;
    private final ColumnType argumentType;
    /** How a physical value reads as a number for interpolation: a DECIMAL's unscaled value over 10^scale. */
    private final double unit;
    private long[][] longValues = new long[0][];
    private double[][] doubleValues = new double[0][];
    private int[] counts = new int[0];

    Percentile(AggregateCall call) {
        this.fraction = call.fraction();
        this.descending = call.order().descending();
        this.continuous = call.function() == AggregateCall.Function.PERCENTILE_CONT;
        this.doubles = call.argumentType().kind() == TypeKind.DOUBLE;
        this.argumentType = call.argumentType();
        this.unit = Numerics.isExact(call.argumentType())
                ? Math.pow(10, Numerics.scale(call.argumentType())) : 1;
    }

    @Override
    public void grow(int groups) {
        if (groups > capacity) {
            capacity = newCapacity(capacity, groups);
            counts = Arrays.copyOf(counts, capacity);
            if (doubles) {
                doubleValues = Arrays.copyOf(doubleValues, capacity);
            } else {
                longValues = Arrays.copyOf(longValues, capacity);
            }
        }
    }

    @Override
    public void permute(int[] order, int size) {
        counts = permuted(counts, order, size);
        if (doubles) {
            doubleValues = permuted(doubleValues, order, size);
        } else {
            longValues = permuted(longValues, order, size);
        }
    }

    private static int[] permuted(int[] values, int[] order, int size) {
        int[] out = new int[values.length];
        for (int i = 0; i < size; i++) {
            out[i] = values[order[i]];
        }
        return out;
    }

    @Override
    public void update(int[] groups, ColumnVector argument, int rows) {
        boolean[] nulls = argument.anyNull() ? argument.nulls() : null;
        long added = 0;
        for (int i = 0; i < rows; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            if (doubles) {
                addDouble(groups[i], argument.doubles()[i]);
            } else {
                addLong(groups[i], argument.longs()[i]);
            }
            added++;
        }
        // The values are kept until the group is finished: charged to the query's budget like its other state.
        QueryContext query = QueryContext.current();
        if (query != null && added > 0) {
            query.memory().reserve(added * Long.BYTES);
        }
    }

    private void addLong(int g, long v) {
        long[] values = longValues[g];
        int n = counts[g];
        if (values == null || n == values.length) {
            values = Arrays.copyOf(values == null ? new long[0] : values, Math.max(4, n * 2));
            longValues[g] = values;
        }
        values[n] = v;
        counts[g] = n + 1;
    }

    private void addDouble(int g, double v) {
        double[] values = doubleValues[g];
        int n = counts[g];
        if (values == null || n == values.length) {
            values = Arrays.copyOf(values == null ? new double[0] : values, Math.max(4, n * 2));
            doubleValues[g] = values;
        }
        values[n] = v;
        counts[g] = n + 1;
    }

    @Override
    public void merge(int target, Accumulator other, int source) {
        Percentile theirs = (Percentile) other;
        int n = theirs.counts[source];
        for (int i = 0; i < n; i++) {
            if (doubles) {
                addDouble(target, theirs.doubleValues[source][i]);
            } else {
                addLong(target, theirs.longValues[source][i]);
            }
        }
    }

    @Override
    public void finish(int groups, ColumnVector out, long[] rows) {
        for (int g = 0; g < groups; g++) {
            int n = counts[g];
            if (n == 0) {
                out.setNull(g);
                continue;
            }
            if (doubles) {
                Arrays.sort(doubleValues[g], 0, n);
            } else {
                Arrays.sort(longValues[g], 0, n);
            }
            if (continuous) {
                // Over values ordered descending, the fraction counts from the top: 1 - f from the bottom.
                double position = (descending ? 1 - fraction : fraction) * (n - 1);
                int below = (int) Math.floor(position);
                int above = (int) Math.ceil(position);
                double low = value(g, below);
                double high = value(g, above);
                setNumber(out, g, low + (high - low) * (position - below));
            } else {
                // The first value whose cumulative share f × n reaches: position ceil(f × n), counted from 1.
                int rank = Math.max(1, (int) Math.ceil(fraction * n));
                int at = descending ? n - rank : rank - 1;
                if (!doubles && out.type().equals(argumentType)) {
                    out.setLong(g, longValues[g][at]);
                } else {
                    setNumber(out, g, value(g, at));
                }
            }
        }
    }

    /** A number into the result's type: a DOUBLE as it is, an exact type scaled and rounded half up. */
    private static void setNumber(ColumnVector out, int g, double number) {
        if (out.type().kind() == TypeKind.DOUBLE) {
            out.setDouble(g, number);
        } else {
            out.setLong(g, BigDecimal.valueOf(number).setScale(Numerics.isExact(out.type())
                    ? Numerics.scale(out.type()) : 0, RoundingMode.HALF_UP).unscaledValue().longValueExact());
        }
    }

    private double value(int g, int at) {
        return doubles ? doubleValues[g][at] : longValues[g][at] / unit;
    }
}
