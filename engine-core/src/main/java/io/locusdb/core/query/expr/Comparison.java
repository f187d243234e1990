package io.locusdb.core.query.expr;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;

/**
 * {@code = <> < <= > >=} between two values of comparable types: exact numbers at their common scale, doubles when
 * either side is approximate, strings by code point (CHAR ignores trailing spaces), dates and booleans as longs.
 * Result BOOLEAN (1/0), NULL when either side is NULL.
 */
public final class Comparison extends Expr {
    public enum Op {
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">=");

        final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        /** Whether a comparison that ordered the operands {@code c} ({@code compareTo}'s sign) holds. */
        public boolean test(int c) {
            return switch (this) {
                case EQ -> c == 0;
                case NE -> c != 0;
                case LT -> c < 0;
                case LE -> c <= 0;
                case GT -> c > 0;
                case GE -> c >= 0;
            };
        }
    }

    private final Op op;
    private final Expr left;
    private final Expr right;

    public Comparison(Op op, Expr left, Expr right) {
        super(ColumnType.BOOLEAN);
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
        boolean anyNull = a.anyNull() || b.anyNull();
        if (anyNull) {
            for (int i = 0; i < rows; i++) {
                nulls[i] = a.isNull(i) | b.isNull(i);
            }
        }
        long[] r = out.longs();
        ColumnType ta = left.type();
        ColumnType tb = right.type();
        if (ta.physical() == TypeKind.Physical.STRING || tb.physical() == TypeKind.Physical.STRING) {
            // Blank-padded comparison only between CHAR values (a literal is CHAR in Calcite: against VARCHAR it
            // compares exactly, as the pushed-down dictionary lookup does).
            boolean padded = ta.kind() == TypeKind.CHAR && tb.kind() == TypeKind.CHAR;
            if (a.isEncoded() && right.isConstant() && !b.anyNull() && rows > 0) {
                compareCodes(a, b.string(0), padded, false, r, nulls, rows);
            } else if (b.isEncoded() && left.isConstant() && !a.anyNull() && rows > 0) {
                compareCodes(b, a.string(0), padded, true, r, nulls, rows);
            } else {
                for (int i = 0; i < rows; i++) {
                if (!nulls[i]) {
                    r[i] = op.test(compareStrings(a.string(i), b.string(i), padded)) ? 1 : 0;
                    }
                }
            }
        } else if (ta.kind() == TypeKind.DOUBLE || tb.kind() == TypeKind.DOUBLE) {
            for (int i = 0; i < rows; i++) {
                if (!nulls[i]) {
                    r[i] = op.test(Double.compare(Numerics.asDouble(a, i) + 0.0, Numerics.asDouble(b, i) + 0.0))
                            ? 1 : 0;
                }
            }
        } else {
            long[] x = a.longs();
            long[] y = b.longs();
            int sa = Numerics.scale(ta);
            int sb = Numerics.scale(tb);
            if (sa == sb) {
                compareLongs(x, y, r, rows);
            } else {
                int s = Math.max(sa, sb);
                for (int i = 0; i < rows; i++) {
                    if (!nulls[i]) {
                        r[i] = op.test(Long.compare(Numerics.rescale(x[i], sa, s), Numerics.rescale(y[i], sb, s)))
                                ? 1 : 0;
                    }
                }
            }
        }
        if (anyNull) {
            out.refreshNulls();
        }
        return out;
    }

    /** Dictionaries up to this size get a verdict per code (ids are 1-based); larger ones go row by row. */
    private static final int MAX_MEMO_CODES = 1 << 16;
    private StringDictionary memoDictionary;
    private String memoConstant;
    private byte[] memo;

    /**
     * An encoded column against a constant: each dictionary code is decided once (decoding its string once), then
     * rows read the verdict of their code. The memo lives as long as the batches come from the same dictionary (a
     * task reads one part at a time).
     */
    private void compareCodes(ColumnVector column, String constant, boolean padded, boolean constantLeft, long[] r,
                              boolean[] nulls, int rows) {
        StringDictionary dictionary = column.dictionary();
        int[] codes = column.codes();
        if (dictionary.size() > MAX_MEMO_CODES) {
            for (int i = 0; i < rows; i++) {
                if (!nulls[i]) {
                    r[i] = verdict(column.string(i), constant, padded, constantLeft) ? 1 : 0;
                }
            }
            return;
        }
        if (dictionary != memoDictionary || !constant.equals(memoConstant)) {
            memoDictionary = dictionary;
            memoConstant = constant;
            memo = new byte[dictionary.size() + 1];
        }
        byte[] known = memo;
        for (int i = 0; i < rows; i++) {
            if (!nulls[i]) {
                int code = codes[i];
                byte v = known[code];
                if (v == 0) {
                    v = verdict(dictionary.value(code), constant, padded, constantLeft) ? (byte) 2 : (byte) 1;
                    known[code] = v;
                }
                r[i] = v - 1;
            }
        }
    }

    private boolean verdict(String value, String constant, boolean padded, boolean constantLeft) {
        int c = compareStrings(value, constant, padded);
        return op.test(constantLeft ? -c : c);
    }

    private void compareLongs(long[] x, long[] y, long[] r, int rows) {
        switch (op) {
            case EQ -> {
                for (int i = 0; i < rows; i++) {
                    r[i] = x[i] == y[i] ? 1 : 0;
                }
            }
            case NE -> {
                for (int i = 0; i < rows; i++) {
                    r[i] = x[i] != y[i] ? 1 : 0;
                }
            }
            case LT -> {
                for (int i = 0; i < rows; i++) {
                    r[i] = x[i] < y[i] ? 1 : 0;
                }
            }
            case LE -> {
                for (int i = 0; i < rows; i++) {
                    r[i] = x[i] <= y[i] ? 1 : 0;
                }
            }
            case GT -> {
                for (int i = 0; i < rows; i++) {
                    r[i] = x[i] > y[i] ? 1 : 0;
                }
            }
            case GE -> {
                for (int i = 0; i < rows; i++) {
                    r[i] = x[i] >= y[i] ? 1 : 0;
                }
            }
        }
    }

    /** Code-point order; with {@code padded} (CHAR semantics) trailing spaces do not count. */
    public static int compareStrings(String a, String b, boolean padded) {
        if (padded) {
            a = stripTrailing(a);
            b = stripTrailing(b);
        }
        return a.compareTo(b);
    }

    static String stripTrailing(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return end == s.length() ? s : s.substring(0, end);
    }

    @Override
    protected Expr copy(ExprCopier copier) {
        return new Comparison(op, copier.copy(left), copier.copy(right));
    }

    @Override
    public String toString() {
        return left + " " + op.symbol + " " + right;
    }
}
