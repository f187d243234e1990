package io.locusdb.core.storage.column;

import java.util.ArrayList;
import java.util.List;

/** An append-only sequence of references in fixed chunks. */
final class ChunkedObjects<T> {
    private static final int CHUNK_SHIFT = 14;
    private static final int CHUNK = 1 << CHUNK_SHIFT;
    private final List<Object[]> chunks = new ArrayList<>();
    private Object[] current;
    private int used = CHUNK;
    private long size;

    void add(T value) {
        if (used == CHUNK) {
            current = new Object[CHUNK];
            chunks.add(current);
            used = 0;
        }
        current[used++] = value;
        size++;
    }

    @SuppressWarnings("unchecked")
    T get(long index) {
        return (T) chunks.get((int) (index >>> CHUNK_SHIFT))[(int) (index & (CHUNK - 1))];
    }

    long size() {
        return size;
    }
}
