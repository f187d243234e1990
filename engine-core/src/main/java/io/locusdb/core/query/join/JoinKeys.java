package io.locusdb.core.query.join;

import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.vector.ColumnVector;

/**
 * Join keys as the hash join reads them: hashing and equality of key columns row by row, by physical type. A key
 * with a NULL never matches. CHAR keys compare without their trailing blanks, doubles by value (-0.0 = 0.0,
 * NaN = NaN, as in DuckDB and PostgreSQL).
 */
public final class JoinKeys {
    private JoinKeys() {
    }

    /**
     * Whether two key types hold equal values as equal physical values, so the hash join may compare them
     * directly; otherwise the planner compares them through an expression.
     */
    public static boolean sameValueSpace(ColumnType a, ColumnType b) {
        if (a.physical() != b.physical()) {
            return false;
        }
        return switch (a.physical()) {
            case DOUBLE -> true;
            case STRING -> (a.kind() == TypeKind.CHAR) == (b.kind() == TypeKind.CHAR);
            case LONG -> {
                if (a.kind() == TypeKind.DATE || b.kind() == TypeKind.DATE || a.kind() == TypeKind.BOOLEAN
                        || b.kind() == TypeKind.BOOLEAN || a.kind() == TypeKind.TIMESTAMP
                        || b.kind() == TypeKind.TIMESTAMP || a.kind() == TypeKind.TIMESTAMP_TZ
                        || b.kind() == TypeKind.TIMESTAMP_TZ) {
                    yield a.kind() == b.kind();
                }
                yield scale(a) == scale(b);
            }
        };
    }

    private static int scale(ColumnType t) {
        return t.kind() == TypeKind.DECIMAL ? t.scale() : 0;
    }

    /** Whether any key column of {@code row} is NULL. */
    static boolean anyNull(ColumnVector[] keys, int row) {
        for (ColumnVector k : keys) {
            if (k.isNull(row)) {
                return true;
            }
        }
        return false;
    }

    static long hash(ColumnVector[] keys, int row) {
        long h = 0x9E3779B97F4A7C15L;
        for (ColumnVector k : keys) {
            long v = switch (k.physical()) {
                case LONG -> k.longs()[row];
                case DOUBLE -> {
                    double d = k.doubles()[row] + 0.0;
                    yield Double.isNaN(d) ? 0x7ff8000000000000L : Double.doubleToLongBits(d);
                }
                case STRING -> text(k, row).hashCode();
            };
            h = mix(h ^ v);
        }
        return h;
    }

    static boolean equal(ColumnVector[] a, int rowA, ColumnVector[] b, int rowB) {
        for (int i = 0; i < a.length; i++) {
            ColumnVector x = a[i];
            ColumnVector y = b[i];
            boolean same = switch (x.physical()) {
                case LONG -> x.longs()[rowA] == y.longs()[rowB];
                case DOUBLE -> Double.compare(x.doubles()[rowA] + 0.0, y.doubles()[rowB] + 0.0) == 0;
                case STRING -> text(x, rowA).equals(text(y, rowB));
            };
            if (!same) {
                return false;
            }
        }
        return true;
    }

    private static String text(ColumnVector v, int row) {
        String s = v.string(row);
        if (v.type().kind() != TypeKind.CHAR) {
            return s;
        }
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return end == s.length() ? s : s.substring(0, end);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }
}
