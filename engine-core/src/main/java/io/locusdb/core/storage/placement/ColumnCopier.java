package io.locusdb.core.storage.placement;

import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.Dictionary;
import io.locusdb.core.storage.column.DoubleDictionary;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.column.StringDictionary;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;

/** Copies an encoded column byte for byte into new segments (no re-encoding): the data path of a COPY move. */
final class ColumnCopier {
    private ColumnCopier() {
    }

    static Column copy(Column column, SegmentAllocator target) {
        Dictionary dictionary = switch (column.dictionary()) {
            case LongDictionary d -> new LongDictionary(copyOf(d.segment(), d.byteSize(), target), d.size());
            case DoubleDictionary d -> new DoubleDictionary(copyOf(d.segment(), d.byteSize(), target), d.size());
            case StringDictionary d -> new StringDictionary(
                    copyOf(d.offsetsSegment(), (d.size() + 1L) * Integer.BYTES, target),
                    copyOf(d.bytesSegment(), d.heapBytes(), target), d.size());
        };
        PackedCodes codes = column.codes();
        PackedCodes copied = new PackedCodes(copyOf(codes.words(), codes.byteSize(), target), codes.layout(),
                codes.count());
        return new Column(column.type(), dictionary, copied, column.nullCount());
    }

    private static MemorySegment copyOf(MemorySegment source, long bytes, SegmentAllocator target) {
        MemorySegment copy = target.allocate(Math.max(bytes, 8), 8);
        MemorySegment.copy(source, 0, copy, 0, bytes);
        return copy;
    }
}
