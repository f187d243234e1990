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
    static long ofSlices(long[] crcs, int from, long bytes, long slice, int[] wholeSlice) {
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
     * many pieces of one length keep that operator and use {@link #combine(int[], long, long)}.
     */
    static long combine(long crcA, long crcB, long lengthB) {
        return lengthB <= 0 ? crcA : combine(zeros(lengthB), crcA, crcB);
    }

    /** The CRC of A followed by B, where {@code zeros} is {@link #zeros(long) the operator} for B's length. */
    static long combine(int[] zeros, long crcA, long crcB) {
        return (times(zeros, (int) crcA) ^ (int) crcB) & 0xFFFF_FFFFL;
    }

    /**
     * The linear operator over GF(2) (a 32×32 bit matrix, one int per column) that runs {@code length} zero bytes
     * through a CRC register. Appending B to A turns A's CRC into this operator applied to it, plus B's CRC: the
     * pre- and post-inversion of CRC-32C cancel out. Built by squaring, so in O(log length) matrix products.
     */
    static int[] zeros(long length) {
        int[] power = new int[32];
        // The operator for one zero bit, then squared three times: one zero byte.
        power[0] = POLYNOMIAL;
        for (int n = 1; n < 32; n++) {
            power[n] = 1 << (n - 1);
        }
        for (int i = 0; i < 3; i++) {
            power = product(power, power);
        }
        int[] result = new int[32];
        for (int n = 0; n < 32; n++) {
            result[n] = 1 << n;
        }
        for (long rest = length; rest != 0; rest >>>= 1) {
            if ((rest & 1) != 0) {
                result = product(power, result);
            }
            if (rest > 1) {
                power = product(power, power);
            }
        }
        return result;
    }

    /** {@code a} after {@code b}. */
    private static int[] product(int[] a, int[] b) {
        int[] out = new int[32];
        for (int n = 0; n < 32; n++) {
            out[n] = times(a, b[n]);
        }
        return out;
    }

    private static int times(int[] matrix, int vector) {
        int sum = 0;
        for (int i = 0; vector != 0; i++, vector >>>= 1) {
            if ((vector & 1) != 0) {
                sum ^= matrix[i];
            }
        }
        return sum;
    }
}
