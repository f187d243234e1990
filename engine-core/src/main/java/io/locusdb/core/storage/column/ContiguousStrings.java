package io.locusdb.core.storage.column;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * String values copied back to back into one off-heap buffer, addressed by position. {@link StringSort} copies the
 * values of each radix bucket next to each other, so that the deeper passes, comparisons and dictionary writes of
 * a bucket stay within a few cache-sized bytes instead of jumping across all staged data.
 */
final class ContiguousStrings implements AutoCloseable {
    private static final ValueLayout.OfLong BIG_ENDIAN_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final int LENGTH_BITS = 24;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment bytes;
    /** Per position: byte offset (high 40 bits) and length (low 24 bits). */
    private final long[] references;

    ContiguousStrings(int size, long totalBytes) {
        // Not zeroed: every value is written before it is read, and word reads past a value are masked.
        this.bytes = UnzeroedMemory.allocate(arena, totalBytes + Long.BYTES);
        this.references = new long[size];
    }

    int size() {
        return references.length;
    }

    /**
     * Copies entry {@code entry} of {@code rows} to byte offset {@code at} as position {@code position}. The
     * caller fills {@code [at, limit)} in increasing order by itself, so whole words may be copied, up to seven
     * bytes past the value, where the next one goes.
     */
    void put(int position, StringRows rows, int entry, long at, long limit) {
        int n = rows.length(entry);
        MemorySegment chunk = rows.chunk(entry);
        long from = rows.offset(entry);
        long wordBytes = (long) ((n + Long.BYTES - 1) >>> 3) << 3;
        if (at + wordBytes <= limit && from + wordBytes <= chunk.byteSize()) {
            for (long w = 0; w < wordBytes; w += Long.BYTES) {
                bytes.set(ValueLayout.JAVA_LONG_UNALIGNED, at + w, chunk.get(ValueLayout.JAVA_LONG_UNALIGNED,
                        from + w));
            }
        } else {
            MemorySegment.copy(chunk, from, bytes, at, n);
        }
        references[position] = (at << LENGTH_BITS) | n;
    }

    int length(int position) {
        return (int) (references[position] & ((1 << LENGTH_BITS) - 1));
    }

    private long offset(int position) {
        return references[position] >>> LENGTH_BITS;
    }

    /**
     * Copies a value to {@code target} at {@code at}; returns its length. Copies whole words while they end before
     * {@code limit}, which may write up to seven bytes past the value: only for a writer that fills
     * {@code [at, limit)} in increasing order by itself, so that its next value overwrites them.
     */
    int copyForward(int position, MemorySegment target, long at, long limit) {
        long reference = references[position];
        int n = (int) (reference & ((1 << LENGTH_BITS) - 1));
        long from = reference >>> LENGTH_BITS;
        int words = (n + Long.BYTES - 1) >>> 3;
        if (at + (long) words * Long.BYTES <= limit) {
            // Short values dominate; a few word moves beat a bulk copy's set-up.
            for (int w = 0; w < words; w++) {
                target.set(ValueLayout.JAVA_LONG_UNALIGNED, at + ((long) w << 3),
                        bytes.get(ValueLayout.JAVA_LONG_UNALIGNED, from + ((long) w << 3)));
            }
        } else {
            MemorySegment.copy(bytes, from, target, at, n);
        }
        return n;
    }

    /** Eight bytes of a value from {@code depth}, big-endian, zero-padded past its end: sorts as unsigned. */
    long word(int position, int depth) {
        long reference = references[position];
        int n = (int) (reference & ((1 << LENGTH_BITS) - 1));
        if (depth >= n) {
            return 0;
        }
        // The buffer has eight spare bytes at its end, so a word read never leaves it; bytes past the value are
        // masked off.
        long word = bytes.get(BIG_ENDIAN_LONG, (reference >>> LENGTH_BITS) + depth);
        int tail = n - depth;
        return tail >= Long.BYTES ? word : word & (-1L << (8 * (Long.BYTES - tail)));
    }

    /** Unsigned byte comparison of two values that agree on their first {@code depth} bytes. */
    int compare(int a, int b, int depth) {
        long xo = offset(a);
        long yo = offset(b);
        int xn = length(a);
        int yn = length(b);
        long xs = xo + Math.min(depth, xn);
        long ys = yo + Math.min(depth, yn);
        long mismatch = MemorySegment.mismatch(bytes, xs, xo + xn, bytes, ys, yo + yn);
        if (mismatch < 0) {
            // Both end within the first depth bytes they share: the shorter one ("a" before "a\0") sorts first.
            return Integer.compare(xn, yn);
        }
        long xi = xs + mismatch;
        long yi = ys + mismatch;
        if (xi == xo + xn) {
            return -1;
        }
        if (yi == yo + yn) {
            return 1;
        }
        return Integer.compare(bytes.get(ValueLayout.JAVA_BYTE, xi) & 0xFF, bytes.get(ValueLayout.JAVA_BYTE, yi)
                & 0xFF);
    }

    @Override
    public void close() {
        arena.close();
    }
}
