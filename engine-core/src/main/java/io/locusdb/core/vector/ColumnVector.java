package io.locusdb.core.vector;

import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind.Physical;
import java.util.Arrays;

/**
 * One column of a batch, in the storage's physical representation: longs (integers, scaled decimals, epoch days,
 * booleans as 0/1), doubles or strings, with a null flag per row. A string vector may instead hold dictionary
 * codes of one table part ({@link #isEncoded}): scans leave strings encoded so that grouping and counting never
 * build String objects; {@link #string} decodes one value on demand. Operators read the arrays directly.
 */
public final class ColumnVector {
    private final ColumnType type;
    private long[] longs;
    private double[] doubles;
    private String[] strings;
    private boolean[] nulls;
    private int[] codes;
    private StringDictionary dictionary;
    private int size;
    private boolean anyNull;

    public ColumnVector(ColumnType type, int capacity) {
        this.type = type;
        this.nulls = new boolean[capacity];
        switch (type.physical()) {
            case LONG -> longs = new long[capacity];
            case DOUBLE -> doubles = new double[capacity];
            case STRING -> strings = new String[capacity];
        }
    }

    /** A string vector that holds codes of {@code dictionary} instead of strings. */
    public static ColumnVector encoded(ColumnType type, StringDictionary dictionary, int capacity) {
        ColumnVector v = new ColumnVector(type, 0);
        v.nulls = new boolean[capacity];
        v.strings = null;
        v.codes = new int[capacity];
        v.dictionary = dictionary;
        return v;
    }

    public ColumnType type() {
        return type;
    }

    public Physical physical() {
        return type.physical();
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return nulls.length;
    }

    public boolean anyNull() {
        return anyNull;
    }

    public boolean isNull(int row) {
        return nulls[row];
    }

    public boolean[] nulls() {
        return nulls;
    }

    public long[] longs() {
        return longs;
    }

    public double[] doubles() {
        return doubles;
    }

    /** Plain strings; null for an encoded vector (use {@link #string}). */
    public String[] strings() {
        return strings;
    }

    public boolean isEncoded() {
        return codes != null;
    }

    public int[] codes() {
        return codes;
    }

    public StringDictionary dictionary() {
        return dictionary;
    }

    /** The string of a row (decoded when the vector is encoded); null for SQL NULL. */
    public String string(int row) {
        if (nulls[row]) {
            return null;
        }
        return codes != null ? dictionary.value(codes[row]) : strings[row];
    }

    /** The value of a row boxed (Long, Double, String or null): for results and tests, not for hot loops. */
    public Object boxed(int row) {
        if (nulls[row]) {
            return null;
        }
        return longs != null ? (Object) longs[row] : doubles != null ? (Object) doubles[row] : string(row);
    }

    /** Makes room for {@code rows} rows (keeps the first {@link #size} rows). */
    public void ensureCapacity(int rows) {
        if (rows <= nulls.length) {
            return;
        }
        int capacity = Math.max(rows, nulls.length + (nulls.length >> 1));
        nulls = Arrays.copyOf(nulls, capacity);
        if (longs != null) {
            longs = Arrays.copyOf(longs, capacity);
        }
        if (doubles != null) {
            doubles = Arrays.copyOf(doubles, capacity);
        }
        if (strings != null) {
            strings = Arrays.copyOf(strings, capacity);
        }
        if (codes != null) {
            codes = Arrays.copyOf(codes, capacity);
        }
    }

    public void setNull(int row) {
        nulls[row] = true;
        anyNull = true;
    }

    public void setNull(int row, boolean isNull) {
        nulls[row] = isNull;
        anyNull |= isNull;
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

    public void setCode(int row, int code) {
        codes[row] = code;
    }

    /** Sets the row count; nulls already flagged stay, {@link #anyNull} is recomputed by {@link #refreshNulls}. */
    public void setSize(int size) {
        this.size = size;
    }

    /** For writers that filled {@link #nulls()} directly and know whether any is set. */
    public void setAnyNull(boolean any) {
        anyNull = any;
    }

    public void refreshNulls() {
        boolean any = false;
        for (int i = 0; i < size; i++) {
            any |= nulls[i];
        }
        anyNull = any;
    }

    /** Clears the nulls of the first {@code rows} rows and sets the size, ready to be filled again. */
    public void prepare(int rows) {
        ensureCapacity(rows);
        Arrays.fill(nulls, 0, rows, false);
        anyNull = false;
        size = rows;
    }

    /** Clears every null flag (rows beyond the size may hold stale flags after {@link #compact}). */
    public void reset() {
        Arrays.fill(nulls, false);
        anyNull = false;
        size = 0;
    }

    /**
     * Copies rows {@code from..from+count-1} of {@code source} (same physical type) into rows from {@code to}; decodes
     * codes unless both vectors hold codes of one dictionary. Numbers are copied as blocks.
     */
    public void copyRows(ColumnVector source, int from, int to, int count) {
        System.arraycopy(source.nulls, from, nulls, to, count);
        for (int i = 0; i < count && !anyNull; i++) {
            anyNull = nulls[to + i];
        }
        switch (type.physical()) {
            case LONG -> System.arraycopy(source.longs, from, longs, to, count);
            case DOUBLE -> System.arraycopy(source.doubles, from, doubles, to, count);
            case STRING -> {
                if (codes != null && source.codes != null && source.dictionary == dictionary) {
                    System.arraycopy(source.codes, from, codes, to, count);
                } else if (codes == null && source.codes == null) {
                    System.arraycopy(source.strings, from, strings, to, count);
                } else {
                    if (codes != null) {
                        decodeCodes(to);
                    }
                    for (int i = 0; i < count; i++) {
                        copyRow(source, from + i, to + i);
                    }
                }
            }
        }
    }

    /**
     * Copies row {@code from} of {@code source} (same physical type) into row {@code to}; decodes codes, except into
     * a vector of codes of the same dictionary (a vector of codes that takes any other row turns plain first).
     */
    public void copyRow(ColumnVector source, int from, int to) {
        if (codes != null && (source.codes == null || source.dictionary != dictionary)) {
            decodeCodes(to);
        }
        boolean isNull = source.nulls[from];
        nulls[to] = isNull;
        anyNull |= isNull;
        if (isNull) {
            return;
        }
        switch (type.physical()) {
            case LONG -> longs[to] = source.longs[from];
            case DOUBLE -> doubles[to] = source.doubles[from];
            case STRING -> {
                if (codes != null) {
                    codes[to] = source.codes[from];
                } else {
                    strings[to] = source.string(from);
                }
            }
        }
    }

    /**
     * Turns a vector of codes into plain strings, decoding its rows below its size or {@code filled}, whichever is
     * more (code 0 is an unset row): it is about to take rows that are not codes of its dictionary.
     */
    private void decodeCodes(int filled) {
        String[] plain = new String[nulls.length];
        int rows = Math.min(Math.max(size, filled), codes.length);
        for (int i = 0; i < rows; i++) {
            if (!nulls[i] && codes[i] != 0) {
                plain[i] = dictionary.value(codes[i]);
            }
        }
        strings = plain;
        codes = null;
        dictionary = null;
    }

    /** A new vector of the listed rows (an encoded vector stays encoded). */
    public ColumnVector gather(int[] rows, int count) {
        ColumnVector v = codes != null ? encoded(type, dictionary, Math.max(1, count))
                : new ColumnVector(type, Math.max(1, count));
        boolean[] targetNulls = v.nulls;
        boolean any = false;
        for (int j = 0; j < count; j++) {
            boolean isNull = nulls[rows[j]];
            targetNulls[j] = isNull;
            any |= isNull;
        }
        if (longs != null) {
            long[] target = v.longs;
            for (int j = 0; j < count; j++) {
                target[j] = longs[rows[j]];
            }
        } else if (doubles != null) {
            double[] target = v.doubles;
            for (int j = 0; j < count; j++) {
                target[j] = doubles[rows[j]];
            }
        } else if (codes != null) {
            int[] target = v.codes;
            for (int j = 0; j < count; j++) {
                target[j] = codes[rows[j]];
            }
        } else {
            String[] target = v.strings;
            for (int j = 0; j < count; j++) {
                target[j] = strings[rows[j]];
            }
        }
        v.anyNull = any;
        v.setSize(count);
        return v;
    }

    /** Keeps only the rows listed in {@code selected} (ascending), moving them to the front. */
    public void compact(int[] selected, int count) {
        for (int i = 0; i < count; i++) {
            int from = selected[i];
            if (from != i) {
                copyRow(this, from, i);
            }
        }
        size = count;
        refreshNulls();
    }
}
