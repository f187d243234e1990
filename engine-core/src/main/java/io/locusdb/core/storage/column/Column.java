package io.locusdb.core.storage.column;

import io.locusdb.core.storage.type.ColumnType;

/**
 * One column of a table part: a sorted dictionary plus the bit-packed value IDs of every row (0 = NULL). Both live
 * in segments bound to the part's node and die with the part.
 */
public record Column(ColumnType type, Dictionary dictionary, PackedCodes codes, long nullCount) {
    public long rows() {
        return codes.count();
    }

    public boolean isNull(long row) {
        return codes.get(row) == 0;
    }

    /** Off-heap bytes: dictionary plus packed codes. */
    public long byteSize() {
        return dictionary.byteSize() + codes.byteSize();
    }

    /** A row's value as a Java object (null for NULL); for tools and tests, not for hot loops. */
    public Object boxedValue(long row) {
        return dictionary.boxedValue(codes.get(row));
    }
}
