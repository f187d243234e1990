package io.locusdb.core.storage.column;

import io.locusdb.core.storage.type.ColumnType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * Builds VARCHAR and CHAR columns. Values are staged off-heap as UTF-8; encoding finds the distinct values with an
 * open-addressing map over the staged bytes, sorts them in unsigned byte (= code point) order and writes them into
 * the dictionary heap, without materializing a String per row.
 */
public final class StringColumnBuilder extends ColumnBuilder {
    private final StagingBytes bytes = new StagingBytes();
    private final StagingLongs references = new StagingLongs();
    /** The rows while this piece has few distinct values; null once it has more (then bytes hold every row). */
    private FewStrings few = new FewStrings();

    StringColumnBuilder(ColumnType type) {
        super(type);
    }

    public void append(String value) {
        if (value == null) {
            appendNull();
            return;
        }
        if (few != null) {
            int code = few.codeOf(value);
            if (code >= 0) {
                few.add(code);
                countRow();
                return;
            }
            spill();
        }
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        references.add(bytes.add(utf8, 0, utf8.length));
        countRow();
    }

    /** Appends a value given as UTF-8 bytes (copied). */
    public void appendUtf8(MemorySegment utf8) {
        appendUtf8(utf8, 0, utf8.byteSize());
    }

    /** Appends {@code length} UTF-8 bytes of {@code source} from {@code from} (copied; no slice is made). */
    public void appendUtf8(MemorySegment source, long from, long length) {
        if (few != null) {
            int code = few.codeOf(source, from, length);
            if (code >= 0) {
                few.add(code);
                countRow();
                return;
            }
            spill();
        }
        references.add(bytes.add(source, from, length));
        countRow();
    }

    /** Moves the rows staged as codes to plain staging: the piece has too many distinct values for codes. */
    private void spill() {
        FewStrings codes = few;
        few = null;
        for (long r = 0; r < rows; r++) {
            if (isNull(r)) {
                references.add(0);
            } else {
                byte[] value = codes.value(codes.codeAt(r));
                references.add(bytes.add(value, 0, value.length));
            }
        }
        codes.release();
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
        return new String(few != null ? few.value(few.codeAt(row))
                : bytes.slice(references.get(row)).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    @Override
    public void copyRowTo(long row, ColumnBuilder target) {
        if (isNull(row)) {
            target.appendNull();
        } else if (few != null) {
            ((StringColumnBuilder) target).appendUtf8(MemorySegment.ofArray(few.value(few.codeAt(row))));
        } else {
            ((StringColumnBuilder) target).appendUtf8(bytes.slice(references.get(row)));
        }
    }

    @Override
    protected void appendPlaceholder() {
        if (few != null) {
            few.add(0);
        } else {
            references.add(0);
        }
    }

    @Override
    public void release() {
        bytes.release();
        references.release();
        if (few != null) {
            few.release();
        }
    }

    StagingBytes staged() {
        return bytes;
    }

    StagingLongs references() {
        return references;
    }

    @Override
    long encodeCost() {
        return few != null ? rows : rows * Long.BYTES + bytes.totalBytes();
    }

    /**
     * Few distinct values are found with a hash map and only they are sorted; many are found by sorting every
     * row and skipping repeats. Either way the sort, the dictionary writes and the rows' codes run as parallel
     * tasks on the caller's pool.
     */
    @Override
    protected Column encode(List<? extends ColumnBuilder> pieces, SegmentAllocator allocator) {
        if (pieces.stream().allMatch(p -> ((StringColumnBuilder) p).few != null)) {
            return encodeFew(pieces, allocator);
        }
        for (ColumnBuilder piece : pieces) {
            if (((StringColumnBuilder) piece).few != null) {
                ((StringColumnBuilder) piece).spill();
            }
        }
        long tStart = System.nanoTime();
        long rows = pieces.stream().mapToLong(ColumnBuilder::rows).sum();
        long nulls = nullCount(pieces);
        @SuppressWarnings("unchecked")
        StringRows strings = StringRows.of((List<StringColumnBuilder>) pieces, rows - nulls);
        DistinctStrings hashed = DistinctStrings.find(strings);
        long tHashed = System.nanoTime();
        int size;
        MemorySegment offsets;
        MemorySegment dictionaryBytes;
        int[] rankOfEntry = new int[strings.size()];
        long tSorted;
        try (SortedStrings sorted = StringSort.sort(strings, hashed == null ? null : hashed.representatives())) {
            tSorted = System.nanoTime();
            size = sorted.distinctCount();
            long heap = sorted.distinctBytes();
            if (heap > Integer.MAX_VALUE) {
                throw new IllegalStateException("the distinct strings of one column part exceed 2 GiB; partition"
                        + " the table into more parts");
            }
            offsets = allocator.allocate((long) (size + 1) * Integer.BYTES, Integer.BYTES);
            dictionaryBytes = allocator.allocate(Math.max(1, heap), 1);
            sorted.writeDictionary(offsets, dictionaryBytes, rankOfEntry);
        }
        if (hashed != null) {
            for (int e = 0; e < rankOfEntry.length; e++) {
                rankOfEntry[e] = rankOfEntry[hashed.representativeOf(e)];
            }
        }
        PackedCodes codes = writeCodes(pieces, rankOfEntry, allocator, PackedLayout.forDistinctValues(size), rows);
        Column column = new Column(type, new StringDictionary(offsets, dictionaryBytes, size), codes, nulls);
        if (Boolean.getBoolean("locus.debug.load") && rows > 1_000_000) {
            System.err.printf("    strings: %d rows, %d distinct (%s): dedupe %.2f s, sort %.2f s, write %.2f s%n",
                    rows, size, hashed == null ? "sorted" : "hashed", (tHashed - tStart) / 1e9,
                    (tSorted - tHashed) / 1e9, (System.nanoTime() - tSorted) / 1e9);
        }
        return column;
    }

    /** Every piece kept its rows as codes: sort the pieces' few values and translate the codes. */
    private Column encodeFew(List<? extends ColumnBuilder> pieces, SegmentAllocator allocator) {
        long rows = pieces.stream().mapToLong(ColumnBuilder::rows).sum();
        TreeSet<byte[]> distinct = new TreeSet<>(Arrays::compareUnsigned);
        for (ColumnBuilder piece : pieces) {
            FewStrings few = ((StringColumnBuilder) piece).few;
            for (int code = 0; code < few.size(); code++) {
                distinct.add(few.value(code));
            }
        }
        byte[][] sorted = distinct.toArray(byte[][]::new);
        int size = sorted.length;
        long heap = 0;
        for (byte[] value : sorted) {
            heap += value.length;
        }
        MemorySegment offsets = allocator.allocate((long) (size + 1) * Integer.BYTES, Integer.BYTES);
        MemorySegment dictionaryBytes = allocator.allocate(Math.max(1, heap), 1);
        int at = 0;
        for (int k = 0; k < size; k++) {
            offsets.setAtIndex(ValueLayout.JAVA_INT, k, at);
            MemorySegment.copy(sorted[k], 0, dictionaryBytes, ValueLayout.JAVA_BYTE, at, sorted[k].length);
            at += sorted[k].length;
        }
        offsets.setAtIndex(ValueLayout.JAVA_INT, size, at);
        PackedCodes.Writer writer = codesWriter(allocator, PackedLayout.forDistinctValues(size), rows);
        for (ColumnBuilder piece : pieces) {
            FewStrings few = ((StringColumnBuilder) piece).few;
            int[] rankOfCode = new int[few.size()];
            for (int code = 0; code < few.size(); code++) {
                rankOfCode[code] = Arrays.binarySearch(sorted, few.value(code),
                        Arrays::compareUnsigned) + 1;
            }
            boolean anyNull = piece.hasNulls();
            for (long r = 0; r < piece.rows; r++) {
                writer.add(anyNull && piece.isNull(r) ? 0 : rankOfCode[few.codeAt(r)]);
            }
        }
        return new Column(type, new StringDictionary(offsets, dictionaryBytes, size), writer.finish(),
                nullCount(pieces));
    }
}
