package io.locusdb.core.storage.column;

/**
 * How value IDs are packed into 64-bit words, BitWeaving/H style: each code of {@code codeBits} bits sits in a field
 * of {@code codeBits + 1} bits whose top bit (the delimiter) is zero, and no field straddles a word. That spare bit
 * lets a scan compare every code in a word against a constant with one add (the carry lands in the delimiter), so
 * a range predicate costs a handful of word operations whatever the code width.
 */
public record PackedLayout(int codeBits) {
    public static final int MAX_CODE_BITS = 31;

    public PackedLayout {
        if (codeBits < 1 || codeBits > MAX_CODE_BITS) {
            throw new IllegalArgumentException("code width " + codeBits + " is outside 1.." + MAX_CODE_BITS);
        }
    }

    /** Code width for value IDs 0..distinct (0 is NULL): ⌈log2(distinct + 1)⌉, at least 1. */
    public static PackedLayout forDistinctValues(long distinct) {
        if (distinct < 0 || distinct > (1L << MAX_CODE_BITS) - 1) {
            throw new IllegalArgumentException(distinct + " distinct values do not fit a " + MAX_CODE_BITS
                    + "-bit dictionary");
        }
        int bits = 64 - Long.numberOfLeadingZeros(distinct);
        return new PackedLayout(Math.max(1, bits));
    }

    public int fieldBits() {
        return codeBits + 1;
    }

    public int codesPerWord() {
        return 64 / fieldBits();
    }

    public long codeMask() {
        return (1L << codeBits) - 1;
    }

    /** The largest value ID this layout holds. */
    public long maxCode() {
        return codeMask();
    }

    /** Every field's code bits set (delimiters clear). */
    public long codeBitsMask() {
        return repeat(codeMask());
    }

    /** Every field's delimiter bit set. */
    public long delimiterMask() {
        return repeat(1L << codeBits);
    }

    /** {@code code} placed in every field. */
    public long repeat(long code) {
        long word = 0;
        for (int f = 0; f < codesPerWord(); f++) {
            word |= code << (f * fieldBits());
        }
        return word;
    }

    public long wordsFor(long codes) {
        return (codes + codesPerWord() - 1) / codesPerWord();
    }

    public long bytesFor(long codes) {
        return wordsFor(codes) * Long.BYTES;
    }
}
