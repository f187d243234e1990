package io.locusdb.core.storage.column;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Sorted distinct longs (BOOLEAN, INTEGER, BIGINT, DECIMAL, DATE) in an off-heap segment. */
public final class LongDictionary implements Dictionary {
    private final MemorySegment values;
    private final int size;

    public LongDictionary(MemorySegment values, int size) {
        if (values.byteSize() < (long) size * Long.BYTES) {
            throw new IllegalArgumentException("segment too small for " + size + " values");
        }
        this.values = values;
        this.size = size;
    }

    public MemorySegment segment() {
        return values;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public long byteSize() {
        return (long) size * Long.BYTES;
    }

    public long value(int id) {
        return values.getAtIndex(ValueLayout.JAVA_LONG, id - 1);
    }

    @Override
    public Object boxedValue(int id) {
        return id == 0 ? null : value(id);
    }

    /** Smallest ID whose value is ≥ {@code probe}; {@code size()+1} if none. */
    public int ceilingId(long probe) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (values.getAtIndex(ValueLayout.JAVA_LONG, mid) < probe) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo + 1;
    }

    /** Largest ID whose value is ≤ {@code probe}; 0 if none. */
    public int floorId(long probe) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (values.getAtIndex(ValueLayout.JAVA_LONG, mid) <= probe) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The ID of {@code probe}, or -1 if absent. */
    public int idOf(long probe) {
        int id = ceilingId(probe);
        return id <= size && value(id) == probe ? id : -1;
    }
}
