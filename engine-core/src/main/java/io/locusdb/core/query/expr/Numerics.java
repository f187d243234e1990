package io.locusdb.core.query.expr;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;

/** Scaled-long arithmetic shared by the numeric kernels. */
public final class Numerics {
    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    private Numerics() {
    }

    public static long pow10(int exponent) {
        return POW10[exponent];
    }

    /** The decimal scale of an exact type (0 for integers, booleans and dates). */
    public static int scale(ColumnType type) {
        return type.kind() == TypeKind.DECIMAL ? type.scale() : 0;
    }

    public static boolean isExact(ColumnType type) {
        return switch (type.kind()) {
            case INTEGER, BIGINT, DECIMAL -> true;
            default -> false;
        };
    }

    public static boolean isNumeric(ColumnType type) {
        return isExact(type) || type.kind() == TypeKind.DOUBLE;
    }

    /** {@code value} at scale {@code from} expressed at scale {@code to}, rounding half away from zero. */
    public static long rescale(long value, int from, int to) {
        if (from == to) {
            return value;
        }
        if (to > from) {
            return multiplyExact(value, POW10[to - from]);
        }
        long divisor = POW10[from - to];
        long q = value / divisor;
        long r = value % divisor;
        if (Math.abs(r) * 2 >= divisor) {
            q += value < 0 ? -1 : 1;
        }
        return q;
    }

    public static long multiplyExact(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
            return lo;
        }
        throw overflow();
    }

    public static long addExact(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            throw overflow();
        }
        return r;
    }

    public static long subtractExact(long a, long b) {
        long r = a - b;
        if (((a ^ b) & (a ^ r)) < 0) {
            throw overflow();
        }
        return r;
    }

    public static LocusSqlException overflow() {
        return new LocusSqlException(SqlState.NUMERIC_OUT_OF_RANGE, "numeric value out of range for its type"
                + " (INTEGER, BIGINT, or DECIMAL of at most 18 digits; CAST(... AS DOUBLE) for wider results)");
    }

    /** Row {@code i} of a numeric vector as a double. */
    public static double asDouble(ColumnVector v, int i) {
        if (v.doubles() != null) {
            return v.doubles()[i];
        }
        int s = scale(v.type());
        long l = v.longs()[i];
        return s == 0 ? l : l / (double) POW10[s];
    }

    /** A double as an integer, rounding half to even; overflow is an error. */
    public static long roundToInteger(double d) {
        double rounded = Math.rint(d);
        if (Double.isNaN(rounded) || Math.abs(rounded) >= 9.2e18) {
            throw overflow();
        }
        return (long) rounded;
    }

    /** A double as a scaled long at {@code scale}, rounding half away from zero; overflow is an error. */
    public static long fromDouble(double d, int scale) {
        double scaled = d * POW10[scale];
        if (Double.isNaN(scaled) || Math.abs(scaled) >= 9.2e18) {
            throw overflow();
        }
        return (long) (scaled < 0 ? Math.ceil(scaled - 0.5) : Math.floor(scaled + 0.5));
    }
}
