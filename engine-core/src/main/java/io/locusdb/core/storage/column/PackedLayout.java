package io.locusdb.core.storage.column;

/**
 * How value IDs are packed into 64-bit words. Two packings, chosen per column by code width
 * ({@link #forDistinctValues}):
 *
 * <ul>
 *   <li><b>Horizontal</b> (BitWeaving/H): each code of {@code codeBits} bits sits in a field of {@code codeBits + 1}
 *   bits whose top bit (the delimiter) is zero, and no field straddles a word. That spare bit lets a scan compare
 *   every code in a word against a constant with one add (the carry lands in the delimiter), so a range predicate
 *   costs a handful of word operations whatever the code width, and one row's code is one shift away.</li>
 *   <li><b>Vertical</b> (BitWeaving/V), for codes of at most {@link #MAX_VERTICAL_CODE_BITS} bits: rows go in blocks
 *   of {@link #BLOCK_ROWS}; a block holds one 64-byte plane per code bit, least significant first, and bit
 *   {@code i} of a plane is that bit of the block's row {@code i} (word {@code i / 64}, bit {@code i % 64}). A range
 *   predicate is then one three-input logic operation per plane and bound on 512 rows at once, and its result is
 *   already the rows' selection bits in order. Narrow codes need it: packed horizontally they put 9-12 rows in a
 *   word, and turning each word's match bits into row bits cost the scan twice the time of reading the bytes.
 *   It also drops the delimiter and the padding: exactly {@code codeBits} bits a row. The price is at the row level,
 *   where a code is gathered from {@code codeBits} planes, so wide codes stay horizontal.</li>
 * </ul>
 */
public record PackedLayout(int codeBits, Packing packing) {
    public static final int MAX_CODE_BITS = 31;
    /** Vertical codes are decoded a byte per row (see {@link PackedCodes}), so they are at most 8 bits. */
    public static final int MAX_VERTICAL_CODE_BITS = 8;
    /** Rows of a vertical block: one 512-bit plane, a vector register's worth, per code bit. */
    public static final int BLOCK_ROWS = 512;
    /** Words of one plane of a vertical block. */
    public static final int PLANE_WORDS = BLOCK_ROWS / 64;

    public enum Packing { HORIZONTAL, VERTICAL }

    public PackedLayout {
        if (codeBits < 1 || codeBits > MAX_CODE_BITS) {
            throw new IllegalArgumentException("code width " + codeBits + " is outside 1.." + MAX_CODE_BITS);
        }
        if (packing == Packing.VERTICAL && codeBits > MAX_VERTICAL_CODE_BITS) {
            throw new IllegalArgumentException("vertical packing holds codes of at most " + MAX_VERTICAL_CODE_BITS
                    + " bits, not " + codeBits);
        }
    }

    public static PackedLayout horizontal(int codeBits) {
        return new PackedLayout(codeBits, Packing.HORIZONTAL);
    }

    public static PackedLayout vertical(int codeBits) {
        return new PackedLayout(codeBits, Packing.VERTICAL);
    }

    /**
     * The layout for value IDs 0..distinct (0 is NULL): codes of ⌈log2(distinct + 1)⌉ bits (at least 1), vertical
     * up to {@link #MAX_VERTICAL_CODE_BITS} bits, horizontal above.
     */
    public static PackedLayout forDistinctValues(long distinct) {
        if (distinct < 0 || distinct > (1L << MAX_CODE_BITS) - 1) {
            throw new IllegalArgumentException(distinct + " distinct values do not fit a " + MAX_CODE_BITS
                    + "-bit dictionary");
        }
        int bits = Math.max(1, 64 - Long.numberOfLeadingZeros(distinct));
        return bits <= MAX_VERTICAL_CODE_BITS ? vertical(bits) : horizontal(bits);
    }

    public boolean isVertical() {
        return packing == Packing.VERTICAL;
    }

    public long codeMask() {
        return (1L << codeBits) - 1;
    }

    /** The largest value ID this layout holds. */
    public long maxCode() {
        return codeMask();
    }

    /**
     * Rows in the smallest run of rows that starts on a word boundary: a word's codes (horizontal) or a block
     * (vertical). Slices of a column start at a multiple of it.
     */
    public int rowGranule() {
        return isVertical() ? BLOCK_ROWS : codesPerWord();
    }

    /** The word where row {@code row} starts; {@code row} a multiple of {@link #rowGranule()}. */
    public long wordOfRow(long row) {
        return isVertical() ? row / BLOCK_ROWS * blockWords() : row / codesPerWord();
    }

    public long wordsFor(long codes) {
        return isVertical()
                ? (codes + BLOCK_ROWS - 1) / BLOCK_ROWS * blockWords()
                : (codes + codesPerWord() - 1) / codesPerWord();
    }

    public long bytesFor(long codes) {
        return wordsFor(codes) * Long.BYTES;
    }

    /** Words of one vertical block: a plane per code bit. */
    public int blockWords() {
        requireVertical();
        return codeBits * PLANE_WORDS;
    }

    /** Field width of a horizontal code: its bits and the delimiter. */
    public int fieldBits() {
        requireHorizontal();
        return codeBits + 1;
    }

    public int codesPerWord() {
        return 64 / fieldBits();
    }

    /** Every field's code bits set (delimiters clear); horizontal only. */
    public long codeBitsMask() {
        return repeat(codeMask());
    }

    /** Every field's delimiter bit set; horizontal only. */
    public long delimiterMask() {
        return repeat(1L << codeBits);
    }

    /** {@code code} placed in every field; horizontal only. */
    public long repeat(long code) {
        int fieldBits = fieldBits();
        long word = 0;
        for (int f = 0; f < 64 / fieldBits; f++) {
            word |= code << (f * fieldBits);
        }
        return word;
    }

    private void requireHorizontal() {
        if (isVertical()) {
            throw new IllegalStateException("vertical layout " + this + " has no fields");
        }
    }

    private void requireVertical() {
        if (!isVertical()) {
            throw new IllegalStateException("horizontal layout " + this + " has no blocks");
        }
    }
}
