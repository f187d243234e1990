package io.locusdb.core.durable;

import java.lang.foreign.MemorySegment;
import java.util.zip.CRC32C;

/**
 * CRC-32C of off-heap segments, and the combination of two CRCs into the CRC of their concatenation. Combining lets
 * one large segment (a string dictionary of 100+ MB) be checked as many slices on many threads, whose CRCs join
 * into the one the file records: a start's checks then take about the same time whatever the segment sizes.
 */
final class SegmentChecksums {
    /** Slices handed to {@link CRC32C} at a time (a ByteBuffer holds at most 2 GiB). */
    private static final long VIEW = 64L << 20;
    /** CRC-32C's polynomial, reflected (as {@link CRC32C} computes it). */
    private static final int POLYNOMIAL = 0x82F63B78;
    /** The polynomial 1 (x^0) in that reflected bit order: the highest bit is the lowest degree. */
    private static final int ONE = 1 << 31;
    /** {@code POWERS_OF_X[k]} = x^(2^k) modulo the polynomial, for lengths up to 2^60 bytes. */
    private static final int[] POWERS_OF_X = powersOfX();

    private SegmentChecksums() {
    }

    static long crc(MemorySegment segment) {
        CRC32C crc = new CRC32C();
        for (long at = 0; at < segment.byteSize(); at += VIEW) {
            crc.update(segment.asSlice(at, Math.min(VIEW, segment.byteSize() - at)).asByteBuffer());
        }
        return crc.getValue();
    }

    /**
     * The CRC of {@code bytes} bytes checked as consecutive slices of {@code slice} bytes (the last may be shorter),
     * whose CRCs are {@code crcs[from..]}; {@code wholeSlice} is {@link #zeros zeros(slice)}, made once by the
     * caller. An empty segment has no slice and CRC 0.
     */
    static long ofSlices(long[] crcs, int from, long bytes, long slice, int wholeSlice) {
        long crc = 0;
        int i = from;
        for (long at = 0; at < bytes; at += slice, i++) {
            long length = Math.min(slice, bytes - at);
            crc = at == 0 ? crcs[i] : length == slice ? combine(wholeSlice, crc, crcs[i])
                    : combine(crc, crcs[i], length);
        }
        return crc;
    }

    /**
     * The CRC of A followed by B, from A's CRC, B's CRC and B's length. See {@link #zeros(long)}; callers that combine
     * many pieces of one length keep that factor and use {@link #combine(int, long, long)}.
     */
    static long combine(long crcA, long crcB, long lengthB) {
        return lengthB <= 0 ? crcA : combine(zeros(lengthB), crcA, crcB);
    }

    /** The CRC of A followed by B, where {@code zeros} is {@link #zeros(long) the factor} for B's length. */
    static long combine(int zeros, long crcA, long crcB) {
        return (multiply(zeros, (int) crcA) ^ (int) crcB) & 0xFFFF_FFFFL;
    }

    /**
     * What running {@code length} zero bytes through a CRC register does to it: multiplying by x^(8 length) modulo
     * the polynomial. Appending B to A turns A's CRC into that product plus B's CRC (the pre- and post-inversion of
     * CRC-32C cancel out). Built from the table of x^(2^k), so in at most 64 products of 32 steps: a start combines
     * the odd-sized last slices of hundreds of segments on one thread, where the earlier 32×32 bit-matrix squaring
     * (about 50,000 steps a length) took milliseconds.
     */
    static int zeros(long length) {
        int factor = ONE;
        // x^(8 length) = product of x^(2^(k+3)) over the set bits k of length.
        for (int k = 3; length != 0; length >>>= 1, k++) {
            if ((length & 1) != 0) {
                factor = multiply(POWERS_OF_X[k], factor);
            }
        }
        return factor;
    }

    private static int[] powersOfX() {
        int[] powers = new int[64];
        int p = ONE >>> 1;
        for (int k = 0; k < powers.length; k++) {
            powers[k] = p;
            p = multiply(p, p);
        }
        return powers;
    }

    /** a(x) b(x) modulo the polynomial, both in the reflected bit order that {@link CRC32C} keeps. */
    private static int multiply(int a, int b) {
        int product = 0;
        for (int m = ONE; m != 0; m >>>= 1) {
            if ((a & m) != 0) {
                product ^= b;
            }
            b = (b & 1) != 0 ? (b >>> 1) ^ POLYNOMIAL : b >>> 1;
        }
        return product;
    }
}
