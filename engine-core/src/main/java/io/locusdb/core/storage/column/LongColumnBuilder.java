package io.locusdb.core.storage.column;

import io.locusdb.core.storage.type.ColumnType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.util.List;

/** Builds BOOLEAN, INTEGER, BIGINT, DECIMAL and DATE columns (all physically longs). */
public final class LongColumnBuilder extends ColumnBuilder {
    private final StagingLongs values = new StagingLongs();

    LongColumnBuilder(ColumnType type) {
        super(type);
    }

    public void append(long value) {
        values.add(value);
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

    @Override
    protected Column encode(List<? extends ColumnBuilder> pieces, SegmentAllocator allocator) {
        long rows = pieces.stream().mapToLong(ColumnBuilder::rows).sum();
        long nulls = nullCount(pieces);
        long[] keys = new long[(int) (rows - nulls)];
        int k = 0;
        for (ColumnBuilder piece : pieces) {
            LongColumnBuilder p = (LongColumnBuilder) piece;
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
