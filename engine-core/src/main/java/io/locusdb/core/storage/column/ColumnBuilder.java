package io.locusdb.core.storage.column;

import io.locusdb.core.storage.type.ColumnType;
import java.lang.foreign.SegmentAllocator;
import java.util.BitSet;

/**
 * Collects one column of a table part on the heap, then encodes it: a sorted dictionary of the distinct values and
 * the packed value IDs, both written into segments from the part's allocator (bound to the part's node).
 */
public abstract sealed class ColumnBuilder permits LongColumnBuilder, DoubleColumnBuilder, StringColumnBuilder {
    protected final ColumnType type;
    protected final BitSet nulls = new BitSet();
    protected long rows;

    protected ColumnBuilder(ColumnType type) {
        this.type = type;
    }

    public static ColumnBuilder forType(ColumnType type) {
        return switch (type.physical()) {
            case LONG -> new LongColumnBuilder(type);
            case DOUBLE -> new DoubleColumnBuilder(type);
            case STRING -> new StringColumnBuilder(type);
        };
    }

    public ColumnType type() {
        return type;
    }

    public long rows() {
        return rows;
    }

    public void appendNull() {
        if (rows >= Integer.MAX_VALUE) {
            throw new IllegalStateException("a table part holds at most " + Integer.MAX_VALUE + " rows");
        }
        nulls.set((int) rows);
        appendPlaceholder();
        rows++;
    }

    /** Appends a boxed value (Long/Integer/Boolean, Double, String, or null); for INSERT and tests. */
    public abstract void appendBoxed(Object value);

    protected abstract void appendPlaceholder();

    /** Appends row {@code row} of this builder to {@code target} (same type). */
    public abstract void copyRowTo(long row, ColumnBuilder target);

    /** Encodes what was appended. The builder must not be used afterwards. */
    public abstract Column build(SegmentAllocator allocator);

    public final boolean isNull(long row) {
        return nulls.get((int) row);
    }

    protected final void countRow() {
        if (rows >= Integer.MAX_VALUE) {
            throw new IllegalStateException("a table part holds at most " + Integer.MAX_VALUE + " rows");
        }
        rows++;
    }

    protected static PackedCodes.Writer codesWriter(SegmentAllocator allocator, PackedLayout layout, long rows) {
        long bytes = Math.max(Long.BYTES, layout.bytesFor(rows));
        return new PackedCodes.Writer(allocator.allocate(bytes, Long.BYTES), layout);
    }
}
