package io.locusdb.core.durable;

import io.airlift.compress.v3.lz4.Lz4Compressor;
import io.locusdb.core.durable.DataDirectoryException.Problem;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * How one segment of a part file lies on disk: byte for byte as in memory ({@link Form#RAW}), or as LZ4 blocks
 * ({@link Form#LZ4_BLOCKS}), little-endian:
 *
 * <pre>
 * int blocks   per block: int stored length   the blocks
 * </pre>
 *
 * Block k holds the segment's bytes [k BLOCK, (k+1) BLOCK), compressed where that made it smaller and as it is
 * otherwise (its stored length is then its length). A block is one {@link ColumnLoad} piece, so a compressed column
 * is read by many threads at once like a raw one. The table of contents' checksum covers the stored bytes, index
 * included: the start checks what is on disk, whatever its form.
 *
 * <p>Why: a string dictionary (comments, names, addresses) is most of a checkpoint's bytes and LZ4 keeps about a
 * third of it, while codes and most numbers do not compress. A segment is compressed only when a sample block
 * shrinks to {@link #WORTH} of its size, so a start reads and checks fewer bytes, and spends decompression only where
 * it saved reading.
 */
final class StoredSegment {
    /** The forms, by the byte the table of contents stores. */
    enum Form {
        RAW, LZ4_BLOCKS;

        static Form of(byte code) {
            return code >= 0 && code < values().length ? values()[code] : null;
        }
    }

    /** Bytes of a segment per block: one column-load piece. */
    static final long BLOCK = ColumnLoad.PIECE;
    /** Segments smaller than this stay raw: too small for compression to matter. */
    static final long MIN_COMPRESSED = 256L << 10;
    /** Compressed only when a sample block shrinks to this fraction, and the whole segment too. */
    static final double WORTH = 0.85;

    private StoredSegment() {
    }

    /** What {@link #write} put on disk. */
    record Written(Form form, long stored, long crc) {
    }

    /**
     * Writes {@code segment} at {@code position} of {@code out}, compressed if that is worth it; {@code scratch} is
     * a buffer of at least {@link #scratchBytes()} that the caller reuses across segments.
     */
    static Written write(FileChannel out, long position, MemorySegment segment, Lz4Compressor compressor,
                         MemorySegment scratch) throws IOException {
        long bytes = segment.byteSize();
        if (bytes >= MIN_COMPRESSED && worthCompressing(segment, compressor, scratch)) {
            Written compressed = writeBlocks(out, position, segment, compressor, scratch);
            if (compressed.stored() <= WORTH * bytes) {
                return compressed;
            }
            // Blocks that barely shrank plus their index can run past where the raw bytes will end.
            out.truncate(position);
        }
        writeFully(out, position, segment);
        return new Written(Form.RAW, bytes, SegmentChecksums.crc(segment));
    }

    /** The scratch a writer needs: one block's worst-case compressed size. */
    static long scratchBytes() {
        return Lz4Compressor.create().maxCompressedLength((int) BLOCK);
    }

    private static boolean worthCompressing(MemorySegment segment, Lz4Compressor compressor, MemorySegment scratch) {
        // The middle block: the first of a sorted dictionary or of a string heap is not the typical one.
        long blocks = blocks(segment.byteSize());
        long from = blocks / 2 * BLOCK;
        long length = Math.min(BLOCK, segment.byteSize() - from);
        int compressed = compressor.compress(segment.asSlice(from, length), scratch);
        return compressed <= WORTH * length;
    }

    private static Written writeBlocks(FileChannel out, long position, MemorySegment segment, Lz4Compressor compressor,
                                       MemorySegment scratch) throws IOException {
        long bytes = segment.byteSize();
        int blocks = blocks(bytes);
        ByteBuffer index = ByteBuffer.allocate(4 + 4 * blocks).order(ByteOrder.LITTLE_ENDIAN);
        index.putInt(blocks);
        CRC32C blocksCrc = new CRC32C();
        long at = position + index.capacity();
        for (int k = 0; k < blocks; k++) {
            long from = k * BLOCK;
            MemorySegment block = segment.asSlice(from, Math.min(BLOCK, bytes - from));
            int compressed = compressor.compress(block, scratch);
            MemorySegment stored = compressed < block.byteSize() ? scratch.asSlice(0, compressed) : block;
            index.putInt((int) stored.byteSize());
            blocksCrc.update(stored.asByteBuffer());
            writeFully(out, at, stored);
            at += stored.byteSize();
        }
        index.flip();
        CRC32C indexCrc = new CRC32C();
        indexCrc.update(index.duplicate());
        while (index.hasRemaining()) {
            out.write(index, position + index.position());
        }
        long blockBytes = at - position - (4 + 4L * blocks);
        return new Written(Form.LZ4_BLOCKS, at - position,
                SegmentChecksums.combine(indexCrc.getValue(), blocksCrc.getValue(), blockBytes));
    }

    private static void writeFully(FileChannel out, long position, MemorySegment segment) throws IOException {
        // A ByteBuffer view holds at most 2 GiB.
        long chunk = 64L << 20;
        for (long at = 0; at < segment.byteSize(); at += chunk) {
            ByteBuffer view = segment.asSlice(at, Math.min(chunk, segment.byteSize() - at)).asByteBuffer();
            long base = position + at;
            while (view.hasRemaining()) {
                out.write(view, base + view.position());
            }
        }
    }

    static int blocks(long bytes) {
        return (int) ((bytes + BLOCK - 1) / BLOCK);
    }

    /**
     * The blocks of a compressed segment, read from its index once the start has checked the stored bytes: where
     * each block lies in the stored segment, its stored length, and the checksum of the index (the first part of
     * the segment's).
     */
    record Blocks(long[] offsets, int[] lengths, long indexBytes, long indexCrc) {
        /** The length of block {@code k} in memory. */
        static long length(long bytes, int k) {
            return Math.min(BLOCK, bytes - k * BLOCK);
        }

        /**
         * Reads and checks the index of {@code stored}, a segment of {@code bytes} bytes in memory; an index that
         * does not describe exactly the stored bytes fails naming the file.
         */
        static Blocks read(MemorySegment stored, long bytes, Path file, String what) {
            int expected = blocks(bytes);
            if (stored.byteSize() < 4 + 4L * expected
                    || stored.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0) != expected) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, what + ": its block index does not"
                        + " describe " + expected + " blocks");
            }
            long indexBytes = 4 + 4L * expected;
            long[] offsets = new long[expected];
            int[] lengths = new int[expected];
            long at = indexBytes;
            for (int k = 0; k < expected; k++) {
                int length = stored.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 4 + 4L * k);
                if (length <= 0 || length > length(bytes, k) || at + length > stored.byteSize()) {
                    throw new DataDirectoryException(Problem.CORRUPT_FILE, file, what + ": block " + k + " of "
                            + length + " bytes does not fit its segment");
                }
                offsets[k] = at;
                lengths[k] = length;
                at += length;
            }
            if (at != stored.byteSize()) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, what + ": its blocks hold " + at
                        + " bytes of the " + stored.byteSize() + " stored");
            }
            return new Blocks(offsets, lengths, indexBytes,
                    SegmentChecksums.crc(stored.asSlice(0, indexBytes)));
        }
    }

    /** A writer's scratch for compressed blocks, freed with {@code arena}. */
    static MemorySegment scratch(Arena arena) {
        return arena.allocate(scratchBytes(), 8);
    }
}
