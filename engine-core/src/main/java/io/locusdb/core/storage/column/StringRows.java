package io.locusdb.core.storage.column;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The non-NULL values of a string column's pieces as one array of staged UTF-8 byte strings, addressed by entry
 * (0-based, row order, NULL rows skipped). Flattening the pieces' chunk lists once lets the hot loops of dedupe and
 * sort reach any value with two array loads, whichever piece staged it.
 */
final class StringRows {
    private static final ValueLayout.OfLong BIG_ENDIAN_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final int MAX_CHUNKS = 1 << 20;

    private final MemorySegment[] chunks;
    /** A staging reference per entry, its chunk index renumbered into {@link #chunks}. */
    private final long[] references;

    private StringRows(MemorySegment[] chunks, long[] references) {
        this.chunks = chunks;
        this.references = references;
    }

    static StringRows of(List<StringColumnBuilder> pieces, long nonNullRows) {
        List<MemorySegment> chunks = new ArrayList<>();
        long[] references = new long[Math.toIntExact(nonNullRows)];
        int k = 0;
        for (StringColumnBuilder piece : pieces) {
            long chunkBase = (long) chunks.size() << 44;
            chunks.addAll(piece.staged().chunks());
            if (chunks.size() > MAX_CHUNKS) {
                throw new IllegalStateException("a string column part stages more than 1 TiB");
            }
            StagingLongs pieceReferences = piece.references();
            boolean anyNull = piece.hasNulls();
            for (long r = 0; r < piece.rows(); r++) {
                if (!anyNull || !piece.isNull(r)) {
                    references[k++] = pieceReferences.get(r) + chunkBase;
                }
            }
        }
        return new StringRows(chunks.toArray(MemorySegment[]::new), references);
    }

    int size() {
        return references.length;
    }

    MemorySegment chunk(int entry) {
        return chunks[StagingBytes.chunk(references[entry])];
    }

    long offset(int entry) {
        return StagingBytes.offset(references[entry]);
    }

    int length(int entry) {
        return StagingBytes.length(references[entry]);
    }

    /** Eight bytes of an entry from {@code depth}, big-endian, zero-padded past its end: sorts as unsigned. */
    long word(int entry, int depth) {
        long reference = references[entry];
        MemorySegment chunk = chunks[StagingBytes.chunk(reference)];
        long offset = StagingBytes.offset(reference);
        int n = StagingBytes.length(reference);
        if (depth + 8 <= n) {
            return chunk.get(BIG_ENDIAN_LONG, offset + depth);
        }
        if (depth >= n) {
            return 0;
        }
        // A short tail: one unaligned read where the chunk has room past the value (values are packed, so it
        // usually has), masked to the value's bytes.
        int tail = n - depth;
        if (offset + depth + 8 <= chunk.byteSize()) {
            return chunk.get(BIG_ENDIAN_LONG, offset + depth) & (-1L << (8 * (8 - tail)));
        }
        long w = 0;
        for (int b = 0; b < 8; b++) {
            w = (w << 8) | (b < tail ? chunk.get(ValueLayout.JAVA_BYTE, offset + depth + b) & 0xFF : 0);
        }
        return w;
    }

    /** Whether two entries hold the same bytes. */
    boolean same(int a, int b) {
        long x = references[a];
        long y = references[b];
        int n = StagingBytes.length(x);
        if (n != StagingBytes.length(y)) {
            return false;
        }
        long xo = StagingBytes.offset(x);
        long yo = StagingBytes.offset(y);
        return MemorySegment.mismatch(chunks[StagingBytes.chunk(x)], xo, xo + n, chunks[StagingBytes.chunk(y)], yo,
                yo + n) < 0;
    }
}
