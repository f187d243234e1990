package io.locusdb.core.storage.column;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Sorted distinct doubles (Double.compare order; -0.0 is stored as 0.0, NaN sorts last). */
public final class DoubleDictionary implements Dictionary {
    private final MemorySegment values;
    private final int size;

    public DoubleDictionary(MemorySegment values, int size) {
        if (values.byteSize() < (long) size * Double.BYTES) {
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
        return (long) size * Double.BYTES;
    }

    public double value(int id) {
        return values.getAtIndex(ValueLayout.JAVA_DOUBLE, id - 1);
    }

    @Override
    public Object boxedValue(int id) {
        return id == 0 ? null : value(id);
    }

    public int ceilingId(double probe) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Double.compare(values.getAtIndex(ValueLayout.JAVA_DOUBLE, mid), probe) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo + 1;
    }

    public int floorId(double probe) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Double.compare(values.getAtIndex(ValueLayout.JAVA_DOUBLE, mid), probe) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    public int idOf(double probe) {
        int id = ceilingId(probe);
        return id <= size && Double.compare(value(id), probe) == 0 ? id : -1;
    }
}
