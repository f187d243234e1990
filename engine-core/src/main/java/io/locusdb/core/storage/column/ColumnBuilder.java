package io.locusdb.core.storage.column;

import io.locusdb.core.storage.type.ColumnType;
import java.lang.foreign.SegmentAllocator;
import java.util.BitSet;
import java.util.List;

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
    public Column build(SegmentAllocator allocator) {
        return buildConcatenated(List.of(this), allocator);
    }

    /**
     * Encodes the rows of several builders of this type, in order, as one column: lets a part be generated or
     * parsed by several threads and encoded once.
     */
    public static Column buildConcatenated(List<? extends ColumnBuilder> pieces,
                                           SegmentAllocator allocator) {
        ColumnBuilder first = pieces.getFirst();
        for (ColumnBuilder piece : pieces) {
            if (piece.getClass() != first.getClass() || !piece.type.equals(first.type)) {
                throw new IllegalArgumentException("cannot concatenate " + piece.type + " with " + first.type);
            }
        }
        long total = pieces.stream().mapToLong(ColumnBuilder::rows).sum();
        if (total > Integer.MAX_VALUE) {
            throw new IllegalStateException("a table part holds at most " + Integer.MAX_VALUE + " rows");
        }
        try {
            return first.encode(pieces, allocator);
        } finally {
            pieces.forEach(ColumnBuilder::release);
        }
    }

    /** Frees the staged values; the builder is unusable afterwards. Safe to call twice. */
    public abstract void release();

    protected abstract Column encode(List<? extends ColumnBuilder> pieces, SegmentAllocator allocator);

    protected static long nullCount(List<? extends ColumnBuilder> pieces) {
        return pieces.stream().mapToLong(p -> p.nulls.cardinality()).sum();
    }

    /** Roughly how much work encoding this piece is, to start the costly columns of a part first. */
    long encodeCost() {
        return rows * Long.BYTES;
    }

    /** The {@link #encodeCost} of a column's pieces. */
    public static long encodeCost(List<? extends ColumnBuilder> pieces) {
        return pieces.stream().mapToLong(ColumnBuilder::encodeCost).sum();
    }

    final boolean hasNulls() {
        return !nulls.isEmpty();
    }

    public final boolean isNull(long row) {
        return nulls.get((int) row);
    }

    protected final void countRow() {
        if (rows >= Integer.MAX_VALUE) {
            throw new IllegalStateException("a table part holds at most " + Integer.MAX_VALUE + " rows");
        }
        rows++;
    }

    /** Packs one code per row of the pieces: 0 for NULL rows, the next of {@code ids} for the others. */
    protected static PackedCodes writeCodes(List<? extends ColumnBuilder> pieces, int[] ids,
                                            SegmentAllocator allocator, PackedLayout layout, long rows) {
        PackedCodes.Writer writer = codesWriter(allocator, layout, rows);
        int k = 0;
        for (ColumnBuilder piece : pieces) {
            if (!piece.hasNulls()) {
                for (long r = 0; r < piece.rows; r++) {
                    writer.add(ids[k++]);
                }
                continue;
            }
            for (long r = 0; r < piece.rows; r++) {
                writer.add(piece.isNull(r) ? 0 : ids[k++]);
            }
        }
        return writer.finish();
    }

    protected static PackedCodes.Writer codesWriter(SegmentAllocator allocator, PackedLayout layout, long rows) {
        long bytes = Math.max(Long.BYTES, layout.bytesFor(rows));
        return PackedCodes.writer(allocator.allocate(bytes, Long.BYTES), layout);
    }
}
