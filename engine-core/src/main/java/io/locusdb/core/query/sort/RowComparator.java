package io.locusdb.core.query.sort;

import io.locusdb.core.query.expr.Comparison;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.vector.ColumnVector;

/**
 * Orders the rows of one set of columns by ORDER BY keys, comparing primitives in place: no row is boxed. Each key
 * compares NULLs first or last as asked, numbers by value ({@code -0.0} equal to {@code 0.0}), CHAR without its
 * trailing blanks and other strings by their UTF-16 order.
 */
public final class RowComparator {
    private final ColumnVector[] columns;
    private final int[] keys;
    private final boolean[] descending;
    private final boolean[] nullsFirst;
    // Per key, what comparing two rows of these columns reads, taken once: the sort compares millions of times.
    private final long[][] longs;
    private final double[][] doubles;
    /** A key's NULL flags, or null where the column has none. */
    private final boolean[][] nulls;
    /** Whether every key is an integer column without NULLs, ascending or descending: one tight loop. */
    private final boolean plainLongs;

    /**
     * @param columns    the rows' columns
     * @param keys       the key columns' positions in {@code columns}, most significant first
     * @param descending per key, whether it sorts descending
     * @param nullsFirst per key, whether NULLs come before every value
     */
    public RowComparator(ColumnVector[] columns, int[] keys, boolean[] descending, boolean[] nullsFirst) {
        if (keys.length != descending.length || keys.length != nullsFirst.length) {
            throw new IllegalArgumentException("one direction and one NULL order per key");
        }
        this.columns = columns;
        this.keys = keys.clone();
        this.descending = descending.clone();
        this.nullsFirst = nullsFirst.clone();
        this.longs = new long[keys.length][];
        this.doubles = new double[keys.length][];
        this.nulls = new boolean[keys.length][];
        boolean allLongs = true;
        for (int k = 0; k < keys.length; k++) {
            ColumnVector v = columns[keys[k]];
            switch (v.physical()) {
                case LONG -> longs[k] = v.longs();
                case DOUBLE -> doubles[k] = v.doubles();
                case STRING -> { }
            }
            nulls[k] = v.anyNull() ? v.nulls() : null;
            allLongs &= longs[k] != null && nulls[k] == null;
        }
        this.plainLongs = allLongs;
    }

    public int keyCount() {
        return keys.length;
    }

    /**
     * Negative when row {@code a} sorts before row {@code b}, zero when the keys tie, positive otherwise. The columns
     * must not grow (and so replace their arrays) while this comparator is in use.
     */
    public int compare(int a, int b) {
        if (plainLongs) {
            for (int k = 0; k < keys.length; k++) {
                long[] values = longs[k];
                int c = Long.compare(values[a], values[b]);
                if (c != 0) {
                    return descending[k] ? -c : c;
                }
            }
            return 0;
        }
        for (int k = 0; k < keys.length; k++) {
            int c = compareOwn(k, a, b);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private int compareOwn(int k, int a, int b) {
        boolean[] isNull = nulls[k];
        if (isNull != null && (isNull[a] || isNull[b])) {
            boolean na = isNull[a];
            return na == isNull[b] ? 0 : (na == nullsFirst[k] ? -1 : 1);
        }
        int c;
        if (longs[k] != null) {
            c = Long.compare(longs[k][a], longs[k][b]);
        } else if (doubles[k] != null) {
            c = Double.compare(doubles[k][a] + 0.0, doubles[k][b] + 0.0);
        } else {
            ColumnVector v = columns[keys[k]];
            c = v.type().kind() == TypeKind.CHAR ? Comparison.compareStrings(v.string(a), v.string(b), true)
                    : v.string(a).compareTo(v.string(b));
        }
        return descending[k] ? -c : c;
    }

    /**
     * Compares row {@code a} of these columns with row {@code b} of {@code other} (columns of the same types in the
     * same positions): how a merge of two sorted runs held apart compares their heads.
     */
    public int compare(int a, ColumnVector[] other, int b) {
        for (int k = 0; k < keys.length; k++) {
            int c = compareKey(k, columns[keys[k]], a, other[keys[k]], b);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Compares on the first key only: whether a row can still beat a cut-off row whatever its other keys are. */
    public int compareFirstKey(int a, ColumnVector[] other, int b) {
        return compareKey(0, columns[keys[0]], a, other[keys[0]], b);
    }

    private int compareKey(int k, ColumnVector left, int a, ColumnVector right, int b) {
        boolean na = left.isNull(a);
        boolean nb = right.isNull(b);
        if (na || nb) {
            return na == nb ? 0 : (na == nullsFirst[k] ? -1 : 1);
        }
        int c = switch (left.physical()) {
            case LONG -> Long.compare(left.longs()[a], right.longs()[b]);
            case DOUBLE -> Double.compare(left.doubles()[a] + 0.0, right.doubles()[b] + 0.0);
            case STRING -> left.type().kind() == TypeKind.CHAR
                    ? Comparison.compareStrings(left.string(a), right.string(b), true)
                    : left.string(a).compareTo(right.string(b));
        };
        return descending[k] ? -c : c;
    }
}
