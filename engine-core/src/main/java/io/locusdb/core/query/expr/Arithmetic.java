package io.locusdb.core.query.expr;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * {@code + - * / %} on numbers. Exact operands (integers, decimals) compute in scaled longs at the result's scale
 * with overflow checks; anything involving a DOUBLE computes in doubles. Integer division truncates (standard SQL);
 * decimal division rounds half away from zero to the result scale; division or modulo by zero is an error
 * (22012).
 */
public final class Arithmetic extends Expr {
    public enum Op {
        ADD("+"), SUBTRACT("-"), MULTIPLY("*"), DIVIDE("/"), MODULO("%");

        final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }
    }

    private final Op op;
    private final Expr left;
    private final Expr right;

    public Arithmetic(ColumnType type, Op op, Expr left, Expr right) {
        super(type);
        this.op = op;
        this.left = left;
        this.right = right;
    }

    @Override
    public ColumnVector eval(ColumnVector[] inputs, int rows) {
        ColumnVector a = left.eval(inputs, rows);
        ColumnVector b = right.eval(inputs, rows);
        ColumnVector out = out(rows);
        boolean[] nulls = out.nulls();
        boolean[] an = a.nulls();
        boolean[] bn = b.nulls();
        boolean anyNull = a.anyNull() || b.anyNull();
        if (anyNull) {
            for (int i = 0; i < rows; i++) {
                nulls[i] = an[i] | bn[i];
            }
        }
        if (type.kind() == TypeKind.DOUBLE) {
            evalDouble(a, b, out, rows, nulls);
        } else {
            evalExact(a, b, out, rows, nulls, anyNull);
        }
        if (type.kind() == TypeKind.INTEGER) {
            checkIntegerRange(out.longs(), nulls, rows);
        }
        if (anyNull) {
            out.refreshNulls();
        }
        return out;
    }

    private void evalDouble(ColumnVector a, ColumnVector b, ColumnVector out, int rows, boolean[] nulls) {
        double[] r = out.doubles();
        double[] ad = a.doubles();
        double[] bd = b.doubles();
        for (int i = 0; i < rows; i++) {
            if (nulls[i]) {
                continue;
            }
            double x = ad != null ? ad[i] : Numerics.asDouble(a, i);
            double y = bd != null ? bd[i] : Numerics.asDouble(b, i);
            switch (op) {
                case ADD -> r[i] = x + y;
                case SUBTRACT -> r[i] = x - y;
                case MULTIPLY -> r[i] = x * y;
                case DIVIDE -> {
                    if (y == 0) {
                        throw divisionByZero();
                    }
                    r[i] = x / y;
                }
                case MODULO -> {
                    if (y == 0) {
                        throw divisionByZero();
                    }
                    r[i] = x % y;
                }
            }
        }
    }

    private void evalExact(ColumnVector a, ColumnVector b, ColumnVector out, int rows, boolean[] nulls,
                           boolean anyNull) {
        long[] r = out.longs();
        long[] x = a.longs();
        long[] y = b.longs();
        int sa = Numerics.scale(left.type());
        int sb = Numerics.scale(right.type());
        int s = Numerics.scale(type);
        switch (op) {
            case ADD, SUBTRACT -> {
                boolean add = op == Op.ADD;
                if (sa == s && sb == s && Math.max(magnitudeBits(x, nulls, anyNull, rows),
                        magnitudeBits(y, nulls, anyNull, rows)) <= 61) {
                    // No sum or difference of these rows can overflow: unchecked, so the loop vectorizes.
                    if (add) {
                        for (int i = 0; i < rows; i++) {
                            r[i] = x[i] + y[i];
                        }
                    } else {
                        for (int i = 0; i < rows; i++) {
                            r[i] = x[i] - y[i];
                        }
                    }
                } else if (sa == s && sb == s) {
                    for (int i = 0; i < rows; i++) {
                        if (!anyNull || !nulls[i]) {
                            r[i] = add ? Numerics.addExact(x[i], y[i]) : Numerics.subtractExact(x[i], y[i]);
                        }
                    }
                } else {
                    for (int i = 0; i < rows; i++) {
                        if (!anyNull || !nulls[i]) {
                            long p = Numerics.rescale(x[i], sa, s);
                            long q = Numerics.rescale(y[i], sb, s);
                            r[i] = add ? Numerics.addExact(p, q) : Numerics.subtractExact(p, q);
                        }
                    }
                }
            }
            case MULTIPLY -> {
                int product = sa + sb;
                if (product == s && magnitudeBits(x, nulls, anyNull, rows)
                        + magnitudeBits(y, nulls, anyNull, rows) <= 62) {
                    // No product of these rows can overflow: unchecked, so the loop vectorizes.
                    for (int i = 0; i < rows; i++) {
                        r[i] = x[i] * y[i];
                    }
                    return;
                }
                for (int i = 0; i < rows; i++) {
                    if (!anyNull || !nulls[i]) {
                        long m = Numerics.multiplyExact(x[i], y[i]);
                        r[i] = product == s ? m : Numerics.rescale(m, product, s);
                    }
                }
            }
            case DIVIDE -> {
                for (int i = 0; i < rows; i++) {
                    if (nulls[i]) {
                        continue;
                    }
                    if (y[i] == 0) {
                        throw divisionByZero();
                    } else if (sa == 0 && sb == 0 && s == 0) {
                        if (x[i] == Long.MIN_VALUE && y[i] == -1) {
                            throw Numerics.overflow();
                        }
                        r[i] = x[i] / y[i];
                    } else {
                        BigDecimal q = BigDecimal.valueOf(x[i], sa).divide(BigDecimal.valueOf(y[i], sb), s,
                                RoundingMode.HALF_UP);
                        r[i] = exact(q);
                    }
                }
            }
            case MODULO -> {
                for (int i = 0; i < rows; i++) {
                    if (nulls[i]) {
                        continue;
                    }
                    if (y[i] == 0) {
                        throw divisionByZero();
                    } else {
                        int common = Math.max(sa, sb);
                        long m = Numerics.rescale(x[i], sa, common) % Numerics.rescale(y[i], sb, common);
                        r[i] = Numerics.rescale(m, common, s);
                    }
                }
            }
        }
    }

    /**
     * Division (or MOD) by zero, an error as in PostgreSQL and DuckDB (22012). A CASE, AND or OR that guards the
     * division evaluates it again on only the rows it decides by it ({@link CaseWhen}, {@link Logic}), so a guarded
     * zero raises nothing.
     */
    static LocusSqlException divisionByZero() {
        return new LocusSqlException(SqlState.DIVISION_BY_ZERO, "division by zero");
    }

    /**
     * The smallest b with |v| <= 2^b for every non-NULL row (values under NULL flags may be anything). A cheap,
     * vectorized pass that lets the arithmetic skip per-row overflow checks when the operands are small.
     */
    static int magnitudeBits(long[] values, boolean[] nulls, boolean anyNull, int rows) {
        long bits = 0;
        if (anyNull) {
            for (int i = 0; i < rows; i++) {
                long v = nulls[i] ? 0 : values[i];
                bits |= v ^ (v >> 63);
            }
        } else {
            for (int i = 0; i < rows; i++) {
                long v = values[i];
                bits |= v ^ (v >> 63);
            }
        }
        return 64 - Long.numberOfLeadingZeros(bits);
    }

    /** INTEGER results are computed in longs; one outside the int range is an overflow, as in SQL engines. */
    private static void checkIntegerRange(long[] values, boolean[] nulls, int rows) {
        for (int i = 0; i < rows; i++) {
            long v = values[i];
            if ((int) v != v && !nulls[i]) {
                throw Numerics.overflow();
            }
        }
    }

    private static long exact(BigDecimal value) {
        try {
            return value.unscaledValue().longValueExact();
        } catch (ArithmeticException e) {
            throw Numerics.overflow();
        }
    }

    @Override
    protected Expr copy(ExprCopier copier) {
        return new Arithmetic(type, op, copier.copy(left), copier.copy(right));
    }

    @Override
    public String toString() {
        return "(" + left + " " + op.symbol + " " + right + ")";
    }
}
