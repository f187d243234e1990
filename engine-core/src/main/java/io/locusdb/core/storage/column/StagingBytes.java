package io.locusdb.core.storage.column;

import io.locusdb.core.storage.type.ValueFormatException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Strings staged off-heap as UTF-8, back to back in 1 MiB chunks (a value never straddles chunks), each addressed
 * by a packed reference (chunk, offset, length) that callers keep in {@link StagingLongs}. No String object
 * survives the append, so staging a column of millions of strings creates no long-lived garbage.
 */
final class StagingBytes {
    private static final int CHUNK = 1 << 20;
    /** Exclusive limit on one value's UTF-8 length, set by the 22-bit length field of a reference. */
    static final int MAX_VALUE_BYTES = 1 << 22;
    private Arena arena = Arena.ofShared();
    private final List<MemorySegment> chunks = new ArrayList<>();
    private MemorySegment current;
    private int used = CHUNK;
    private long totalBytes;

    /** Appends the UTF-8 form of {@code value}; returns its reference. */
    long add(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        return add(utf8, 0, utf8.length);
    }

    long add(byte[] bytes, int from, int length) {
        int at = reserve(length);
        MemorySegment.copy(bytes, from, current, ValueLayout.JAVA_BYTE, at, length);
        return commit(at, length);
    }

    /** Appends a copy of {@code source} (UTF-8 bytes from another staging buffer or a dictionary). */
    long add(MemorySegment source) {
        return add(source, 0, source.byteSize());
    }

    /** Appends a copy of {@code length} bytes of {@code source} from {@code from} (a field of a mapped file). */
    long add(MemorySegment source, long from, long length) {
        int at = reserve(length);
        MemorySegment.copy(source, from, current, at, length);
        return commit(at, (int) length);
    }

    /** Makes room for a value in the current chunk (or a new one); returns where it goes. */
    private int reserve(long length) {
        if (length >= MAX_VALUE_BYTES) {
            throw new ValueFormatException("a text value of " + length
                    + " bytes is too long (values must be smaller than 4 MiB)");
        }
        if (arena == null) {
            throw new IllegalStateException("staging buffer already released");
        }
        if (current == null || length > CHUNK - used) {
            current = UnzeroedMemory.allocate(arena, Math.max(CHUNK, length));
            chunks.add(current);
            used = 0;
        }
        return used;
    }

    private long commit(int at, int length) {
        used = at + length;
        totalBytes += length;
        return reference(chunks.size() - 1, at, length);
    }

    long totalBytes() {
        return totalBytes;
    }

    /** The bytes of a reference, as a slice of the staging chunk. */
    MemorySegment slice(long reference) {
        return chunks.get(chunk(reference)).asSlice(offset(reference), length(reference));
    }

    /** The chunks so far, in order: a reference's chunk index points into this list. */
    List<MemorySegment> chunks() {
        return chunks;
    }

    // Reference layout: chunk index (20 bits) | offset in chunk (22 bits) | length (22 bits). Oversized values get
    // a chunk of their own at offset 0, so length is bounded by the 4 MiB the layout allows.
    static long reference(int chunk, int offset, int length) {
        if (length >= MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("a string of " + length + " bytes is not smaller than 4 MiB");
        }
        return ((long) chunk << 44) | ((long) offset << 22) | length;
    }

    static int chunk(long reference) {
        return (int) (reference >>> 44);
    }

    static int offset(long reference) {
        return (int) ((reference >>> 22) & ((1 << 22) - 1));
    }

    static int length(long reference) {
        return (int) (reference & ((1 << 22) - 1));
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
