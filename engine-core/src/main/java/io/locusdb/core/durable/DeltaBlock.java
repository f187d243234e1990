package io.locusdb.core.durable;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * One block of a sorted array (a dictionary's values, a string dictionary's offsets) as its first value and the
 * differences between neighbours, bit-packed at the width the largest difference needs. Little-endian:
 *
 * <pre>
 * byte element bytes (4 or 8)   byte width (0..56, 0..32 for ints)   int count   long first value
 * the count-1 differences, width bits each, from the lowest bit up   7 bytes of zeros
 * </pre>
 *
 * Differences are taken modulo 2^64 (2^32 for ints), so any array decodes exactly; only nearly sorted ones come out
 * small. The 7 bytes at the end let the decoder read every difference with one 8-byte load.
 *
 * <p>Why not LZ4: a sorted dictionary of prices or keys has no repeated byte strings, only small steps. LZ4 kept half
 * of lineitem's price dictionary and decompressed it at 0.75 GB/s (Xeon, family 6 model 207), the slowest part of
 * the first query after a restart; as differences it keeps an eighth and decodes at several GB/s.
 */
final class DeltaBlock {
    /** Widths above this would not fit one 8-byte load at any bit offset, and save little anyway. */
    static final int MAX_WIDTH = 56;
    static final int HEADER = 1 + 1 + 4 + 8;
    private static final ValueLayout.OfInt FILE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final int PADDING = 7;
    private static final ValueLayout.OfLong FILE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(
            ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong MEMORY_LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt MEMORY_INT = ValueLayout.JAVA_INT_UNALIGNED;

    private DeltaBlock() {
    }

    /** The bits the largest difference of {@code values} (elements of {@code elementBytes}) needs. */
    static int width(MemorySegment values, int elementBytes) {
        long count = values.byteSize() / elementBytes;
        long any = 0;
        if (elementBytes == Long.BYTES) {
            long previous = values.get(MEMORY_LONG, 0);
            for (long i = 1; i < count; i++) {
                long value = values.get(MEMORY_LONG, i * Long.BYTES);
                any |= value - previous;
                previous = value;
            }
        } else {
            int previous = values.get(MEMORY_INT, 0);
            for (long i = 1; i < count; i++) {
                int value = values.get(MEMORY_INT, i * Integer.BYTES);
                any |= Integer.toUnsignedLong(value - previous);
                previous = value;
            }
        }
        return 64 - Long.numberOfLeadingZeros(any);
    }

    /** The most bytes a block of {@code blockBytes} bytes in memory can take stored. */
    static long maxStoredBytes(long blockBytes) {
        return Math.max(storedBytes(Math.max(1, blockBytes / Integer.BYTES), Integer.SIZE),
                storedBytes(Math.max(1, blockBytes / Long.BYTES), MAX_WIDTH));
    }

    /** Bytes of a block of {@code count} values at {@code width}. */
    static long storedBytes(long count, int width) {
        return HEADER + ((count - 1) * width + 7) / 8 + PADDING;
    }

    /**
     * Writes {@code values} at {@code width} (at least {@link #width} of them, at most {@link #MAX_WIDTH}) into
     * {@code out}, which holds {@link #storedBytes} bytes; returns that count.
     */
    static long encode(MemorySegment values, int elementBytes, int width, MemorySegment out) {
        long count = values.byteSize() / elementBytes;
        long stored = storedBytes(count, width);
        out.asSlice(0, stored).fill((byte) 0);
        out.set(ValueLayout.JAVA_BYTE, 0, (byte) elementBytes);
        out.set(ValueLayout.JAVA_BYTE, 1, (byte) width);
        out.set(FILE_INT, 2, (int) count);
        long previous = elementBytes == Long.BYTES ? values.get(MEMORY_LONG, 0) : values.get(MEMORY_INT, 0);
        out.set(FILE_LONG, 6, previous);
        long bit = 0;
        for (long i = 1; i < count; i++) {
            long value = elementBytes == Long.BYTES ? values.get(MEMORY_LONG, i * Long.BYTES)
                    : values.get(MEMORY_INT, i * Integer.BYTES);
            long difference = elementBytes == Long.BYTES ? value - previous
                    : Integer.toUnsignedLong((int) value - (int) previous);
            previous = value;
            if (width > 0) {
                long at = HEADER + (bit >>> 3);
                out.set(FILE_LONG, at, out.get(FILE_LONG, at) | difference << (bit & 7));
            }
            bit += width;
        }
        return stored;
    }

    /**
     * Decodes {@code stored}, one block as {@link #encode} wrote it, into {@code target} (the block's bytes in
     * memory). Returns false when the block does not describe exactly that many values (a damaged file).
     */
    static boolean decode(MemorySegment stored, MemorySegment target) {
        if (stored.byteSize() < HEADER) {
            return false;
        }
        int elementBytes = stored.get(ValueLayout.JAVA_BYTE, 0);
        int width = stored.get(ValueLayout.JAVA_BYTE, 1);
        if (elementBytes != Long.BYTES && elementBytes != Integer.BYTES || width < 0
                || width > (elementBytes == Long.BYTES ? MAX_WIDTH : Integer.SIZE)
                || target.byteSize() == 0 || target.byteSize() % elementBytes != 0) {
            return false;
        }
        long count = target.byteSize() / elementBytes;
        if (stored.get(FILE_INT, 2) != count || stored.byteSize() != storedBytes(count, width)) {
            return false;
        }
        long first = stored.get(FILE_LONG, 6);
        if (width == 0) {
            // Every value equal: there are no bits to read (and fewer than 8 bytes to read them from).
            if (elementBytes == Long.BYTES) {
                for (long i = 0; i < count; i++) {
                    target.set(MEMORY_LONG, i * Long.BYTES, first);
                }
            } else {
                for (long i = 0; i < count; i++) {
                    target.set(MEMORY_INT, i * Integer.BYTES, (int) first);
                }
            }
            return true;
        }
        long mask = (1L << width) - 1;
        // One bounds check for the packed bits here; the loops' loads stay inside by the length check above.
        MemorySegment bits = stored.asSlice(HEADER);
        if (elementBytes == Long.BYTES) {
            decodeLongs(bits, target, count, first, width, mask);
        } else {
            decodeInts(bits, target, count, (int) first, width, mask);
        }
        return true;
    }

    private static void decodeLongs(MemorySegment bits, MemorySegment target, long count, long first, int width,
                                    long mask) {
        long value = first;
        target.set(MEMORY_LONG, 0, value);
        long bit = 0;
        for (long i = 1; i < count; i++) {
            value += bits.get(FILE_LONG, bit >>> 3) >>> (bit & 7) & mask;
            target.set(MEMORY_LONG, i * Long.BYTES, value);
            bit += width;
        }
    }

    private static void decodeInts(MemorySegment bits, MemorySegment target, long count, int first, int width,
                                   long mask) {
        int value = first;
        target.set(MEMORY_INT, 0, value);
        long bit = 0;
        for (long i = 1; i < count; i++) {
            value += (int) (bits.get(FILE_LONG, bit >>> 3) >>> (bit & 7) & mask);
            target.set(MEMORY_INT, i * Integer.BYTES, value);
            bit += width;
        }
    }
}
