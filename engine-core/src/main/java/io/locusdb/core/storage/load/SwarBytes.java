package io.locusdb.core.storage.load;

/**
 * Byte tests on eight bytes at once (SIMD within a register): the parser looks at a mapped file a word at a time
 * instead of a byte at a time, which also saves the per-access checks of a memory segment.
 */
final class SwarBytes {
    private static final long LOW_SEVEN_BITS = 0x7F7F7F7F7F7F7F7FL;
    private static final long ONES = 0x0101010101010101L;
    private static final long ASCII_ZEROS = 0x3030303030303030L;
    private static final long HIGH_BITS = 0x8080808080808080L;

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

    /**
     * The value of the {@code n} (1 to 8) ASCII digits in the low bytes of {@code word} (the first digit in the
     * lowest byte, as a little-endian read of text gives them), or -1 when one of them is not a digit. The digits
     * are moved to the high bytes (leading zeros fill the low ones) and combined in three multiply steps: pairs,
     * then quads, then all eight.
     */
    static long parseDigits(long word, int n) {
        long x = word - ASCII_ZEROS;
        long low = -1L >>> ((8 - n) << 3);
        // A byte below '0' sets its own high bit (its borrow reaches only bytes above it, past the digits), one
        // above '9' sets it after adding 0x76.
        if ((((x + 0x7676767676767676L) | x) & HIGH_BITS & low) != 0) {
            return -1;
        }
        x = (x & low) << ((8 - n) << 3);
        x = ((x & 0x0F0F0F0F0F0F0F0FL) * 2561) >>> 8;
        x = ((x & 0x00FF00FF00FF00FFL) * 6553601) >>> 16;
        return ((x & 0x0000FFFF0000FFFFL) * 42949672960001L) >>> 32;
    }
}
