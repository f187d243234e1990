package io.locusdb.core.storage.column;

import java.util.ArrayList;
import java.util.List;

/** An append-only long sequence in fixed chunks: growing never copies what was already appended. */
final class ChunkedLongs {
    private static final int CHUNK_SHIFT = 16;
    private static final int CHUNK = 1 << CHUNK_SHIFT;
    private final List<long[]> chunks = new ArrayList<>();
    private long[] current;
    private int used = CHUNK;
    private long size;

    void add(long value) {
        if (used == CHUNK) {
            current = new long[CHUNK];
            chunks.add(current);
            used = 0;
        }
        current[used++] = value;
        size++;
    }

    long get(long index) {
        return chunks.get((int) (index >>> CHUNK_SHIFT))[(int) (index & (CHUNK - 1))];
    }

    long size() {
        return size;
    }
}
