package io.locusdb.core.storage.column;

import io.locusdb.core.storage.type.ColumnType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Builds VARCHAR and CHAR columns. Values are staged off-heap as UTF-8; encoding finds the distinct values with an
 * open-addressing map over the staged bytes, sorts them in unsigned byte (= code point) order and writes them into
 * the dictionary heap, without materializing a String per row.
 */
public final class StringColumnBuilder extends ColumnBuilder {
    private final StagingBytes bytes = new StagingBytes();
    private final StagingLongs references = new StagingLongs();

    StringColumnBuilder(ColumnType type) {
        super(type);
    }

    public void append(String value) {
        if (value == null) {
            appendNull();
            return;
        }
        references.add(bytes.add(value));
        countRow();
    }

    /** Appends a value given as UTF-8 bytes (copied). */
    public void appendUtf8(MemorySegment utf8) {
        references.add(bytes.add(utf8));
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

    /** The value of a staged row (null for NULL); for tests and tools. */
    public String valueAt(long row) {
        if (isNull(row)) {
            return null;
        }
        return new String(bytes.slice(references.get(row)).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    @Override
    public void copyRowTo(long row, ColumnBuilder target) {
        if (isNull(row)) {
            target.appendNull();
        } else {
            ((StringColumnBuilder) target).appendUtf8(bytes.slice(references.get(row)));
        }
    }

    @Override
    protected void appendPlaceholder() {
        references.add(0);
    }

    @Override
    public void release() {
        bytes.release();
        references.release();
    }

    @Override
    protected Column encode(List<? extends ColumnBuilder> pieces, SegmentAllocator allocator) {
        long tStart = System.nanoTime();
        long rows = pieces.stream().mapToLong(ColumnBuilder::rows).sum();
        long nulls = nullCount(pieces);
        StagedStrings distinct = new StagedStrings(pieces.size(), (int) Math.min(rows - nulls, 1 << 20));
        int[] provisional = new int[(int) rows];
        int row = 0;
        for (int p = 0; p < pieces.size(); p++) {
            StringColumnBuilder piece = (StringColumnBuilder) pieces.get(p);
            for (long r = 0; r < piece.rows; r++) {
                provisional[row++] = piece.isNull(r) ? 0
                        : distinct.idOf(p, piece.bytes, piece.references.get(r));
            }
        }
        long tHashed = System.nanoTime();
        int size = distinct.size();
        long heap = distinct.totalBytes();
        if (heap > Integer.MAX_VALUE) {
            throw new IllegalStateException("the distinct strings of one column part exceed 2 GiB; partition the"
                    + " table into more parts");
        }
        int[] order = distinct.sortedOrder();
        long tSorted = System.nanoTime();
        int[] rank = new int[size + 1];
        MemorySegment offsets = allocator.allocate((long) (size + 1) * Integer.BYTES, Integer.BYTES);
        MemorySegment dictionaryBytes = allocator.allocate(Math.max(1, heap), 1);
        int offset = 0;
        for (int k = 0; k < size; k++) {
            int entry = order[k];
            rank[entry + 1] = k + 1;
            offsets.setAtIndex(ValueLayout.JAVA_INT, k, offset);
            offset += distinct.copyTo(entry, dictionaryBytes, offset);
        }
        offsets.setAtIndex(ValueLayout.JAVA_INT, size, offset);
        PackedLayout layout = PackedLayout.forDistinctValues(size);
        PackedCodes.Writer writer = codesWriter(allocator, layout, rows);
        for (int r = 0; r < rows; r++) {
            writer.add(rank[provisional[r]]);
        }
        Column column = new Column(type, new StringDictionary(offsets, dictionaryBytes, size), writer.finish(), nulls);
        if (Boolean.getBoolean("locus.debug.load") && rows > 1_000_000) {
            System.err.printf("    strings: %d rows, %d distinct: dedupe %.2f s, sort %.2f s, write %.2f s%n", rows,
                    size, (tHashed - tStart) / 1e9, (tSorted - tHashed) / 1e9, (System.nanoTime() - tSorted) / 1e9);
        }
        return column;
    }
}
