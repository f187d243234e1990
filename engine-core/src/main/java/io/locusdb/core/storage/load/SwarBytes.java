package io.locusdb.core.storage.load;

/**
 * Byte tests on eight bytes at once (SIMD within a register): the parser looks at a mapped file a word at a time
 * instead of a byte at a time, which also saves the per-access checks of a memory segment.
 */
final class SwarBytes {
    private static final long LOW_SEVEN_BITS = 0x7F7F7F7F7F7F7F7FL;
    private static final long ONES = 0x0101010101010101L;

    private SwarBytes() {
    }

    /** {@code b} in every byte of a word. */
    static long broadcast(byte b) {
        return (b & 0xFFL) * ONES;
    }

    /**
     * The high bit of every byte of {@code word} that is zero, and of no other: exact, unlike the shorter
     * {@code (x - ONES) & ~x} form, whose borrow can mark a byte above a zero one.
     */
    static long zeroBytes(long word) {
        long t = (word & LOW_SEVEN_BITS) + LOW_SEVEN_BITS;
        return ~(t | word | LOW_SEVEN_BITS);
    }

    static boolean hasZeroByte(long word) {
        return zeroBytes(word) != 0;
    }

    /** The high bit of every byte of {@code word} equal to the byte broadcast in {@code pattern}. */
    static long equalBytes(long word, long pattern) {
        return zeroBytes(word ^ pattern);
    }
}
