package io.locusdb.core.storage.column;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Append-only longs staged off-heap in fixed chunks. Loaders stage millions of values per column before encoding;
 * on the heap they would be copied by every young collection, off-heap they cost the collector nothing. Freed by
 * {@link #release()} (after encoding, or when a load is abandoned).
 */
final class StagingLongs {
    private static final int CHUNK_SHIFT = 16;
    /** Values per chunk. */
    static final int CHUNK = 1 << CHUNK_SHIFT;
    private Arena arena = Arena.ofShared();
    private final List<MemorySegment> chunks = new ArrayList<>();
    private MemorySegment current;
    private int used = CHUNK;
    private long size;

    void add(long value) {
        if (used == CHUNK) {
            if (arena == null) {
                throw new IllegalStateException("staging buffer already released");
            }
            current = UnzeroedMemory.allocate(arena, (long) CHUNK * Long.BYTES);
            chunks.add(current);
            used = 0;
        }
        current.setAtIndex(ValueLayout.JAVA_LONG, used++, value);
        size++;
    }

    long get(long index) {
        return chunks.get((int) (index >>> CHUNK_SHIFT)).getAtIndex(ValueLayout.JAVA_LONG, index & (CHUNK - 1));
    }

    /** Copies all values to {@code target} from {@code at}, a chunk at a time. */
    void copyTo(long[] target, int at) {
        long left = size;
        for (MemorySegment chunk : chunks) {
            int n = (int) Math.min(left, CHUNK);
            MemorySegment.copy(chunk, ValueLayout.JAVA_LONG, 0, target, at, n);
            at += n;
            left -= n;
        }
    }

    int chunkCount() {
        return chunks.size();
    }

    /** Chunk {@code i}: values {@code i * 65536} on, {@link #chunkLength} of them. */
    MemorySegment chunk(int i) {
        return chunks.get(i);
    }

    int chunkLength(int i) {
        return (int) Math.min(CHUNK, size - ((long) i << CHUNK_SHIFT));
    }

    long size() {
        return size;
    }

    void release() {
        if (arena != null) {
            arena.close();
            arena = null;
            chunks.clear();
            current = null;
        }
    }
}
