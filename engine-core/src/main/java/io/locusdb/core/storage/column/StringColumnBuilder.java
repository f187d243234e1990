package io.locusdb.core.storage.column;

import io.locusdb.core.storage.type.ColumnType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;

/** Builds VARCHAR and CHAR columns: distinct strings sorted in code point (= UTF-8 byte) order. */
public final class StringColumnBuilder extends ColumnBuilder {
    private final ChunkedObjects<String> values = new ChunkedObjects<>();

    StringColumnBuilder(ColumnType type) {
        super(type);
    }

    public void append(String value) {
        if (value == null) {
            appendNull();
            return;
        }
        values.add(value);
        countRow();
    }

    @Override
    public void appendBoxed(Object value) {
        switch (value) {
            case null -> appendNull();
            case String s -> append(s);
            default -> throw new IllegalArgumentException("a " + type + " column cannot hold " + value.getClass()
                    .getSimpleName() + " '" + value + "'");
        }
    }

    @Override
    public void copyRowTo(long row, ColumnBuilder target) {
        ((StringColumnBuilder) target).append(values.get(row));
    }

    @Override
    protected void appendPlaceholder() {
        values.add(null);
    }

    @Override
    public Column build(SegmentAllocator allocator) {
        HashMap<String, Integer> ids = new HashMap<>();
        for (long r = 0; r < rows; r++) {
            String v = values.get(r);
            if (v != null) {
                ids.putIfAbsent(v, 0);
            }
        }
        String[] distinct = ids.keySet().toArray(String[]::new);
        boolean surrogates = Arrays.stream(distinct).anyMatch(StringColumnBuilder::hasSurrogate);
        // String.compareTo is UTF-16 order; it equals code point order unless surrogate pairs are involved.
        Arrays.sort(distinct, surrogates ? StringColumnBuilder::compareCodePoints : Comparator.naturalOrder());
        byte[][] utf8 = new byte[distinct.length][];
        long heap = 0;
        for (int i = 0; i < distinct.length; i++) {
            ids.put(distinct[i], i + 1);
            utf8[i] = distinct[i].getBytes(StandardCharsets.UTF_8);
            heap += utf8[i].length;
        }
        if (heap > Integer.MAX_VALUE) {
            throw new IllegalStateException("the distinct strings of one column part exceed 2 GiB; partition the"
                    + " table into more parts");
        }
        MemorySegment offsets = allocator.allocate((long) (distinct.length + 1) * Integer.BYTES, Integer.BYTES);
        MemorySegment bytes = allocator.allocate(Math.max(1, heap), 1);
        int offset = 0;
        for (int i = 0; i < utf8.length; i++) {
            offsets.setAtIndex(ValueLayout.JAVA_INT, i, offset);
            MemorySegment.copy(utf8[i], 0, bytes, ValueLayout.JAVA_BYTE, offset, utf8[i].length);
            offset += utf8[i].length;
        }
        offsets.setAtIndex(ValueLayout.JAVA_INT, utf8.length, offset);
        PackedLayout layout = PackedLayout.forDistinctValues(distinct.length);
        PackedCodes.Writer writer = codesWriter(allocator, layout, rows);
        for (long r = 0; r < rows; r++) {
            String v = values.get(r);
            writer.add(v == null ? 0 : ids.get(v));
        }
        return new Column(type, new StringDictionary(offsets, bytes, distinct.length), writer.finish(),
                nulls.cardinality());
    }

    private static boolean hasSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    static int compareCodePoints(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                return Integer.compare(fixUp(x), fixUp(y));
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    // Moves surrogates above U+E000..U+FFFF so UTF-16 units compare in code point order.
    private static int fixUp(char c) {
        if (c >= 0xD800 && c <= 0xDFFF) {
            return c + 0x2000;
        }
        return c >= 0xE000 ? c - 0x800 : c;
    }
}
