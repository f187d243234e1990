package io.locusdb.core.storage.column;

import io.locusdb.core.storage.type.ColumnType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.util.List;

/** Builds BOOLEAN, INTEGER, BIGINT, DECIMAL and DATE columns (all physically longs). */
public final class LongColumnBuilder extends ColumnBuilder {
    private final StagingLongs values = new StagingLongs();
    /** Of the non-NULL values, kept as they arrive: encoding then needs no pass over the staged values for them. */
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;

    LongColumnBuilder(ColumnType type) {
        super(type);
    }

    public void append(long value) {
        values.add(value);
        min = Math.min(min, value);
        max = Math.max(max, value);
        countRow();
    }

    @Override
    public void appendBoxed(Object value) {
        switch (value) {
            case null -> appendNull();
            case Boolean b -> append(b ? 1 : 0);
            case Number n -> append(n.longValue());
            default -> throw new IllegalArgumentException("a " + type + " column cannot hold " + value.getClass()
                    .getSimpleName() + " '" + value + "'");
        }
    }

    public long valueAt(long row) {
        return values.get(row);
    }

    @Override
    public void copyRowTo(long row, ColumnBuilder target) {
        if (isNull(row)) {
            target.appendNull();
        } else {
            ((LongColumnBuilder) target).append(values.get(row));
        }
    }

    @Override
    public void release() {
        values.release();
    }

    @Override
    protected void appendPlaceholder() {
        values.add(0);
    }

    /**
     * Dense value ranges (dates, quantities, prices, keys) encode straight from the staged values, with no copy of
     * the rows and no array of IDs; sparse ones are sorted.
     */
    @Override
    protected Column encode(List<? extends ColumnBuilder> pieces, SegmentAllocator allocator) {
        long rows = pieces.stream().mapToLong(ColumnBuilder::rows).sum();
        long nulls = nullCount(pieces);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (ColumnBuilder piece : pieces) {
            LongColumnBuilder p = (LongColumnBuilder) piece;
            min = Math.min(min, p.min);
            max = Math.max(max, p.max);
        }
        if (rows > nulls && SortedLongEncoder.isDense(min, max, rows - nulls)) {
            return encodeDense(pieces, allocator, rows, nulls, min, (int) (max - min + 1));
        }
        return encodeSorted(pieces, allocator, rows, nulls);
    }

    /**
     * The values present are marked in a bitmap of the range, one bit per value, with the count of marks before
     * each word: a value's ID is that count plus the marks below it in its word. Eight bytes cover 64 values, so
     * even a range of millions (prices in cents) stays in cache while the rows look their values up in random
     * order.
     */
    private Column encodeDense(List<? extends ColumnBuilder> pieces, SegmentAllocator allocator, long rows,
                               long nulls, long min, int range) {
        long[] present = new long[(range + 63) >>> 6];
        for (ColumnBuilder piece : pieces) {
            LongColumnBuilder p = (LongColumnBuilder) piece;
            boolean anyNull = p.hasNulls();
            StagingLongs staged = p.values;
            for (int c = 0; c < staged.chunkCount(); c++) {
                MemorySegment chunk = staged.chunk(c);
                long first = (long) c * StagingLongs.CHUNK;
                for (int i = 0, n = staged.chunkLength(c); i < n; i++) {
                    if (!anyNull || !p.isNull(first + i)) {
                        int offset = (int) (chunk.getAtIndex(ValueLayout.JAVA_LONG, i) - min);
                        present[offset >>> 6] |= 1L << offset;
                    }
                }
            }
        }
        int[] idsBefore = new int[present.length];
        int size = 0;
        for (int w = 0; w < present.length; w++) {
            idsBefore[w] = size;
            size += Long.bitCount(present[w]);
        }
        MemorySegment dictionarySegment = allocator.allocate(Math.max(Long.BYTES, (long) size * Long.BYTES),
                Long.BYTES);
        int id = 0;
        for (int w = 0; w < present.length; w++) {
            for (long bits = present[w]; bits != 0; bits &= bits - 1) {
                dictionarySegment.setAtIndex(ValueLayout.JAVA_LONG, id++,
                        min + ((long) w << 6) + Long.numberOfTrailingZeros(bits));
            }
        }
        PackedCodes.Writer writer = codesWriter(allocator, PackedLayout.forDistinctValues(size), rows);
        for (ColumnBuilder piece : pieces) {
            LongColumnBuilder p = (LongColumnBuilder) piece;
            boolean anyNull = p.hasNulls();
            StagingLongs staged = p.values;
            for (int c = 0; c < staged.chunkCount(); c++) {
                MemorySegment chunk = staged.chunk(c);
                long first = (long) c * StagingLongs.CHUNK;
                for (int i = 0, n = staged.chunkLength(c); i < n; i++) {
                    if (anyNull && p.isNull(first + i)) {
                        writer.add(0);
                        continue;
                    }
                    int offset = (int) (chunk.getAtIndex(ValueLayout.JAVA_LONG, i) - min);
                    // 1 + the marks below this value's bit: -1L >>> (63 - bit) keeps bits 0..bit.
                    writer.add(idsBefore[offset >>> 6]
                            + Long.bitCount(present[offset >>> 6] & (-1L >>> (63 - (offset & 63)))));
                }
            }
        }
        return new Column(type, new LongDictionary(dictionarySegment, size), writer.finish(), nulls);
    }

    private Column encodeSorted(List<? extends ColumnBuilder> pieces, SegmentAllocator allocator, long rows,
                                long nulls) {
        long[] keys = new long[(int) (rows - nulls)];
        int k = 0;
        for (ColumnBuilder piece : pieces) {
            LongColumnBuilder p = (LongColumnBuilder) piece;
            if (!p.hasNulls()) {
                p.values.copyTo(keys, k);
                k += (int) p.rows;
                continue;
            }
            for (long r = 0; r < p.rows; r++) {
                if (!p.isNull(r)) {
                    keys[k++] = p.values.get(r);
                }
            }
        }
        SortedLongEncoder encoded = SortedLongEncoder.encode(keys);
        MemorySegment dictionarySegment = allocator.allocate(Math.max(Long.BYTES, (long) encoded.size * Long.BYTES),
                Long.BYTES);
        MemorySegment.copy(encoded.dictionary, 0, dictionarySegment, ValueLayout.JAVA_LONG, 0, encoded.size);
        PackedCodes codes = writeCodes(pieces, encoded.ids, allocator,
                PackedLayout.forDistinctValues(encoded.size), rows);
        return new Column(type, new LongDictionary(dictionarySegment, encoded.size), codes, nulls);
    }
}
