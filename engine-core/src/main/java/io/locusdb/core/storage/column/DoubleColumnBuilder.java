package io.locusdb.core.storage.column;

import io.locusdb.core.storage.type.ColumnType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Builds DOUBLE columns. Values are encoded as order-preserving long keys so the long encoder sorts them in
 * {@link Double#compare} order; -0.0 becomes 0.0 (SQL equality) and every NaN the canonical NaN.
 */
public final class DoubleColumnBuilder extends ColumnBuilder {
    private final StagingLongs keys = new StagingLongs();

    DoubleColumnBuilder(ColumnType type) {
        super(type);
    }

    public void append(double value) {
        keys.add(sortableKey(value));
        countRow();
    }

    @Override
    public void appendBoxed(Object value) {
        switch (value) {
            case null -> appendNull();
            case Number n -> append(n.doubleValue());
            default -> throw new IllegalArgumentException("a DOUBLE column cannot hold " + value.getClass()
                    .getSimpleName() + " '" + value + "'");
        }
    }

    @Override
    public void copyRowTo(long row, ColumnBuilder target) {
        if (isNull(row)) {
            target.appendNull();
        } else {
            ((DoubleColumnBuilder) target).append(fromSortableKey(keys.get(row)));
        }
    }

    @Override
    public void release() {
        keys.release();
    }

    @Override
    protected void appendPlaceholder() {
        keys.add(0);
    }

    static long sortableKey(double value) {
        double v = value == 0.0 ? 0.0 : value;
        long bits = Double.doubleToLongBits(v);
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    static double fromSortableKey(long key) {
        return Double.longBitsToDouble(key ^ ((key >> 63) & Long.MAX_VALUE));
    }

    @Override
    protected Column encode(List<? extends ColumnBuilder> pieces, SegmentAllocator allocator) {
        long rows = pieces.stream().mapToLong(ColumnBuilder::rows).sum();
        long nulls = nullCount(pieces);
        long[] present = new long[(int) (rows - nulls)];
        int k = 0;
        for (ColumnBuilder piece : pieces) {
            DoubleColumnBuilder p = (DoubleColumnBuilder) piece;
            if (!p.hasNulls()) {
                p.keys.copyTo(present, k);
                k += (int) p.rows;
                continue;
            }
            for (long r = 0; r < p.rows; r++) {
                if (!p.isNull(r)) {
                    present[k++] = p.keys.get(r);
                }
            }
        }
        SortedLongEncoder encoded = SortedLongEncoder.encode(present);
        MemorySegment dictionarySegment = allocator.allocate(
                Math.max(Double.BYTES, (long) encoded.size * Double.BYTES), Double.BYTES);
        for (int i = 0; i < encoded.size; i++) {
            dictionarySegment.setAtIndex(ValueLayout.JAVA_DOUBLE, i, fromSortableKey(encoded.dictionary[i]));
        }
        PackedCodes codes = writeCodes(pieces, encoded.ids, allocator,
                PackedLayout.forDistinctValues(encoded.size), rows);
        return new Column(type, new DoubleDictionary(dictionarySegment, encoded.size), codes, nulls);
    }
}
