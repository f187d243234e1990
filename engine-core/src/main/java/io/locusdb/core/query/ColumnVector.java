package io.locusdb.core.query;

import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind.Physical;

/**
 * One column of a batch, in the storage's physical representation: longs (integers, scaled decimals, epoch days,
 * booleans as 0/1), doubles or strings, with a null flag per row. Operators read the arrays directly; a vector is
 * filled once and then only read.
 */
public final class ColumnVector {
    private final ColumnType type;
    private final long[] longs;
    private final double[] doubles;
    private final String[] strings;
    private final boolean[] nulls;
    private int size;
    private boolean anyNull;

    public ColumnVector(ColumnType type, int capacity) {
        this.type = type;
        this.longs = type.physical() == Physical.LONG ? new long[capacity] : null;
        this.doubles = type.physical() == Physical.DOUBLE ? new double[capacity] : null;
        this.strings = type.physical() == Physical.STRING ? new String[capacity] : null;
        this.nulls = new boolean[capacity];
    }

    public ColumnType type() {
        return type;
    }

    public int size() {
        return size;
    }

    public boolean anyNull() {
        return anyNull;
    }

    public boolean isNull(int row) {
        return nulls[row];
    }

    public long[] longs() {
        return longs;
    }

    public double[] doubles() {
        return doubles;
    }

    public String[] strings() {
        return strings;
    }

    /** The value of a row boxed (Long, Double, String or null): for results and tests, not for hot loops. */
    public Object boxed(int row) {
        if (nulls[row]) {
            return null;
        }
        return longs != null ? (Object) longs[row] : doubles != null ? (Object) doubles[row] : strings[row];
    }

    public void setNull(int row) {
        nulls[row] = true;
        anyNull = true;
    }

    public void setLong(int row, long value) {
        longs[row] = value;
    }

    public void setDouble(int row, double value) {
        doubles[row] = value;
    }

    public void setString(int row, String value) {
        strings[row] = value;
    }

    public void setSize(int size) {
        this.size = size;
    }

    public void reset() {
        java.util.Arrays.fill(nulls, 0, size, false);
        anyNull = false;
        size = 0;
    }
}
