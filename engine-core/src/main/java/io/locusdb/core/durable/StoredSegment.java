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
 * How one segment of a part file lies on disk: byte for byte as in memory ({@link Form#RAW}), as LZ4 blocks
 * ({@link Form#LZ4_BLOCKS}) or as blocks of differences ({@link Form#DELTA_BLOCKS}, {@link DeltaBlock}), the blocked
 * forms little-endian:
 *
 * <pre>
 * int blocks   per block: int stored length   the blocks
 * </pre>
 *
 * Block k holds the segment's bytes [k BLOCK, (k+1) BLOCK). An LZ4 block is compressed where that made it smaller
 * and as it is otherwise (its stored length is then its length); a delta block is always encoded. A block is one
 * {@link ColumnLoad} piece, so a compressed column is read by many threads at once like a raw one. The table of
 * contents' checksum covers the stored bytes, index included: the start checks what is on disk, whatever its form.
 *
 * <p>Why: a string dictionary (comments, names, addresses) is most of a checkpoint's bytes and LZ4 keeps about a
 * third of it, while codes and most numbers do not compress. Sorted arrays (a dictionary's values, a string
 * dictionary's offsets) are small steps that differences keep in a few bits each. A segment takes the first form that
 * shrinks it to {@link #WORTH} of its size (differences where the writer says the segment is an array of numbers,
 * then LZ4 where a sample block shrinks), so a start reads and checks fewer bytes, and spends decoding only where it
 * saved reading.
 */
final class StoredSegment {
    /** The forms, by the byte the table of contents stores. */
    enum Form {
        RAW, LZ4_BLOCKS, DELTA_BLOCKS;

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
     * a buffer of at least {@link #scratchBytes()} that the caller reuses across segments. {@code elementBytes} is 8
     * or 4 when the segment is an array of longs or ints that is likely sorted (worth trying as differences), else 0.
     */
    static Written write(FileChannel out, long position, MemorySegment segment, int elementBytes,
                         Lz4Compressor compressor, MemorySegment scratch) throws IOException {
        long bytes = segment.byteSize();
        if (bytes >= MIN_COMPRESSED && elementBytes > 0 && bytes % elementBytes == 0) {
            int[] widths = deltaWidths(segment, elementBytes);
            if (widths != null && deltaBytes(bytes, elementBytes, widths) <= WORTH * bytes) {
                return writeDeltaBlocks(out, position, segment, elementBytes, widths, scratch);
            }
        }
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

    /** The scratch a writer or reader needs: one block's worst-case stored size in either blocked form. */
    static long scratchBytes() {
        return Math.max(Lz4Compressor.create().maxCompressedLength((int) BLOCK), DeltaBlock.maxStoredBytes(BLOCK));
    }

    /** Per block, the width its differences need; null when a block's would be too wide to store so. */
    private static int[] deltaWidths(MemorySegment segment, int elementBytes) {
        int[] widths = new int[blocks(segment.byteSize())];
        for (int k = 0; k < widths.length; k++) {
            widths[k] = DeltaBlock.width(block(segment, k), elementBytes);
            if (widths[k] > DeltaBlock.MAX_WIDTH) {
                return null;
            }
        }
        return widths;
    }

    private static long deltaBytes(long bytes, int elementBytes, int[] widths) {
        long stored = 4 + 4L * widths.length;
        for (int k = 0; k < widths.length; k++) {
            stored += DeltaBlock.storedBytes(Blocks.length(bytes, k) / elementBytes, widths[k]);
        }
        return stored;
    }

    private static MemorySegment block(MemorySegment segment, int k) {
        long from = k * BLOCK;
        return segment.asSlice(from, Math.min(BLOCK, segment.byteSize() - from));
    }

    private static Written writeDeltaBlocks(FileChannel out, long position, MemorySegment segment, int elementBytes,
                                            int[] widths, MemorySegment scratch) throws IOException {
        int blocks = widths.length;
        ByteBuffer index = ByteBuffer.allocate(4 + 4 * blocks).order(ByteOrder.LITTLE_ENDIAN);
        index.putInt(blocks);
        CRC32C blocksCrc = new CRC32C();
        long at = position + index.capacity();
        for (int k = 0; k < blocks; k++) {
            long stored = DeltaBlock.encode(block(segment, k), elementBytes, widths[k], scratch);
            MemorySegment encoded = scratch.asSlice(0, stored);
            index.putInt((int) stored);
            blocksCrc.update(encoded.asByteBuffer());
            writeFully(out, at, encoded);
            at += stored;
        }
        return finishBlocks(out, position, index, at, blocksCrc, Form.DELTA_BLOCKS);
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
        return finishBlocks(out, position, index, at, blocksCrc, Form.LZ4_BLOCKS);
    }

    /** Writes the index in front of the blocks that end at {@code end}; the checksum covers both. */
    private static Written finishBlocks(FileChannel out, long position, ByteBuffer index, long end, CRC32C blocksCrc,
                                        Form form) throws IOException {
        index.flip();
        long indexBytes = index.remaining();
        CRC32C indexCrc = new CRC32C();
        indexCrc.update(index.duplicate());
        while (index.hasRemaining()) {
            out.write(index, position + index.position());
        }
        long blockBytes = end - position - indexBytes;
        return new Written(form, end - position,
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
    record Blocks(Form form, long[] offsets, int[] lengths, long indexBytes, long indexCrc) {
        /** The length of block {@code k} in memory. */
        static long length(long bytes, int k) {
            return Math.min(BLOCK, bytes - k * BLOCK);
        }

        /**
         * Reads and checks the index of {@code stored}, a segment of {@code bytes} bytes in memory; an index that
         * does not describe exactly the stored bytes fails naming the file.
         */
        static Blocks read(Form form, MemorySegment stored, long bytes, Path file, String what) {
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
                long most = form == Form.LZ4_BLOCKS ? length(bytes, k) : DeltaBlock.maxStoredBytes(length(bytes, k));
                if (length <= 0 || length > most || at + length > stored.byteSize()) {
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
            return new Blocks(form, offsets, lengths, indexBytes,
                    SegmentChecksums.crc(stored.asSlice(0, indexBytes)));
        }
    }

    /** A writer's scratch for compressed blocks, freed with {@code arena}. */
    static MemorySegment scratch(Arena arena) {
        return arena.allocate(scratchBytes(), 8);
    }
}
