package io.locusdb.core.query.expr;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;

/**
 * PostgreSQL's number functions beyond the standard's, with its errors: an argument outside a function's domain is
 * an error (22003 or 2201E), never a NaN that flows on.
 */
public final class NumberFunctions {
    private NumberFunctions() {
    }

    /** asin and acos are defined on [-1, 1] only. */
    public static double inverseTrigonometric(double x, boolean sine) {
        if (x < -1 || x > 1) {
            throw new LocusSqlException(SqlState.NUMERIC_OUT_OF_RANGE, "input is out of range: " + x);
        }
        return sine ? Math.asin(x) : Math.acos(x);
    }

    /** {@code log(b, x)}: the logarithm of {@code x} to the base {@code b}. */
    public static double logarithm(double base, double x) {
        if (base <= 0 || x <= 0) {
            throw new LocusSqlException(SqlState.INVALID_ARGUMENT_FOR_LOGARITHM,
                    "cannot take logarithm of " + (x <= 0 ? "zero or a negative number" : "a base of zero or less"));
        }
        if (base == 1) {
            throw new LocusSqlException(SqlState.DIVISION_BY_ZERO, "division by zero (a logarithm to the base 1)");
        }
        return Math.log(x) / Math.log(base);
    }

    /** The greatest common divisor, never negative; gcd(0, 0) is 0. */
    public static long gcd(long a, long b) {
        long x = Math.abs(a);
        long y = Math.abs(b);
        if (x < 0 || y < 0) {
            throw new LocusSqlException(SqlState.NUMERIC_OUT_OF_RANGE, "bigint out of range");
        }
        while (y != 0) {
            long t = x % y;
            x = y;
            y = t;
        }
        return x;
    }

    /** The least common multiple, never negative; 0 when either is 0. */
    public static long lcm(long a, long b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        try {
            return Math.abs(Math.multiplyExact(a / gcd(a, b), b));
        } catch (ArithmeticException e) {
            throw new LocusSqlException(SqlState.NUMERIC_OUT_OF_RANGE, "bigint out of range");
        }
    }

    /** n! for 0 ≤ n ≤ 20 (21! does not fit a BIGINT). */
    public static long factorial(long n) {
        if (n < 0) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "factorial of a negative number is undefined");
        }
        if (n > 20) {
            throw new LocusSqlException(SqlState.NUMERIC_OUT_OF_RANGE, n + "! does not fit a BIGINT");
        }
        long f = 1;
        for (long i = 2; i <= n; i++) {
            f *= i;
        }
        return f;
    }

    /**
     * {@code width_bucket(x, low, high, count)}: the bucket of {@code x} among {@code count} equal ones from low to
     * high (0 below, count + 1 at or above the end; high may be below low, then buckets count downwards).
     */
    public static long widthBucket(double x, double low, double high, long count) {
        if (count <= 0) {
            throw new LocusSqlException(SqlState.INVALID_ARGUMENT_FOR_WIDTH_BUCKET,
                    "count must be greater than zero");
        }
        if (Double.isNaN(x)) {
            throw new LocusSqlException(SqlState.INVALID_ARGUMENT_FOR_WIDTH_BUCKET,
                    "operand, lower bound, and upper bound cannot be NaN");
        }
        if (count >= Integer.MAX_VALUE) {
            throw new LocusSqlException(SqlState.INVALID_ARGUMENT_FOR_WIDTH_BUCKET, "count must be less than "
                    + Integer.MAX_VALUE);
        }
        if (low == high || Double.isNaN(low) || Double.isNaN(high) || Double.isInfinite(low)
                || Double.isInfinite(high) || Double.isInfinite(high - low)) {
            throw new LocusSqlException(SqlState.INVALID_ARGUMENT_FOR_WIDTH_BUCKET,
                    "lower bound cannot equal upper bound, and neither may be infinite");
        }
        if (low < high) {
            if (x < low) {
                return 0;
            }
            if (x >= high) {
                return count + 1;
            }
            return Math.min(count, (long) (count * ((x - low) / (high - low))) + 1);
        }
        if (x > low) {
            return 0;
        }
        if (x <= high) {
            return count + 1;
        }
        return Math.min(count, (long) (count * ((low - x) / (low - high))) + 1);
    }
}
