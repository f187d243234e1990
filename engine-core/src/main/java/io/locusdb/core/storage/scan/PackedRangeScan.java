package io.locusdb.core.storage.scan;

import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.column.PackedLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Range predicates evaluated directly on packed value IDs, a whole word of codes at a time (BitWeaving/H):
 * with {@code X} a word of codes, {@code M} every field's code bits and {@code D} every field's delimiter bit,
 * {@code ((X ^ M) + rep(c)) & D} has a field's delimiter set exactly when that code is {@code < c}: the add computes
 * {@code (2^b - 1 - x) + c}, which carries into the delimiter iff {@code c > x}, and cannot carry further. A range
 * {@code [lo, hi]} is then {@code lt(hi + 1) & ~lt(lo)}. Padding codes past the end are 0 (NULL) and never match
 * because ranges start at 1.
 *
 * <p>Bounds are checked once per call, not per word. The vector loop has no branches and no masked operations;
 * counts are kept in per-field counters and summed once per block (see {@link #countWords}).
 */
public final class PackedRangeScan {
    private static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    /** Below this field width the per-field counters overflow too soon to pay off. */
    private static final int MIN_VECTOR_FIELD_BITS = 4;

    private PackedRangeScan() {
    }

    /** Number of rows whose value ID is in {@code range}. */
    public static long count(PackedCodes codes, IdRange range, ScanBytes bytes) {
        if (range.isEmpty() || codes.count() == 0) {
            return 0;
        }
        PackedLayout layout = codes.layout();
        checkRange(layout, range);
        long words = codes.wordCount();
        bytes.addPacked(words * Long.BYTES);
        return countWords(codes.words(), words, layout.codeBitsMask(), layout.delimiterMask(),
                layout.repeat(range.lo()), layout.repeat(range.hi() + 1L));
    }

    /**
     * Vector kernel. Instead of a per-lane popcount (not a native instruction below AVX-512), each lane accumulates
     * {@code match >>> codeBits}: a 0/1 in every field, so every field becomes a small counter. A field of f bits
     * counts up to 2^f - 1 words before it could overflow into its neighbour; then the fields are summed once and
     * the counters restart. Narrow codes (fields too small to count far) use the scalar POPCNT loop.
     */
    static long countWords(MemorySegment segment, long words, long codeBits, long delimiters, long lo, long hiPlusOne) {
        int bits = Long.numberOfTrailingZeros(delimiters);
        int fieldBits = bits + 1;
        if (fieldBits < MIN_VECTOR_FIELD_BITS) {
            return countWordsScalar(segment, 0, words, codeBits, delimiters, lo, hiPlusOne);
        }
        int fields = 64 / fieldBits;
        long fieldMask = (1L << fieldBits) - 1;
        long blockWords = Math.min((1L << fieldBits) - 1, 1 << 16) * SPECIES.length();
        long vectorWords = words - words % SPECIES.length();
        long stride = (long) SPECIES.length() * Long.BYTES;
        long count = 0;
        for (long block = 0; block < vectorWords; block += blockWords) {
            long end = Math.min(block + blockWords, vectorWords) * Long.BYTES;
            LongVector acc = LongVector.zero(SPECIES);
            for (long offset = block * Long.BYTES; offset < end; offset += stride) {
                LongVector x = LongVector.fromMemorySegment(SPECIES, segment, offset, ORDER).lanewise(
                        VectorOperators.XOR, codeBits);
                LongVector belowLo = x.add(lo).and(delimiters);
                LongVector belowHi = x.add(hiPlusOne).and(delimiters);
                acc = acc.add(belowHi.lanewise(VectorOperators.AND_NOT, belowLo).lanewise(VectorOperators.LSHR,
                        bits));
            }
            LongVector perField = acc.and(fieldMask);
            for (int f = 1; f < fields; f++) {
                perField = perField.add(acc.lanewise(VectorOperators.LSHR, f * fieldBits).and(fieldMask));
            }
            count += perField.reduceLanes(VectorOperators.ADD);
        }
        return count + countWordsScalar(segment, vectorWords, words, codeBits, delimiters, lo, hiPlusOne);
    }

    private static long countWordsScalar(MemorySegment segment, long from, long to, long codeBits, long delimiters,
                                         long lo, long hiPlusOne) {
        long count = 0;
        for (long w = from; w < to; w++) {
            count += Long.bitCount(matchWord(segment.getAtIndex(ValueLayout.JAVA_LONG, w), codeBits, delimiters, lo,
                    hiPlusOne));
        }
        return count;
    }

    /** Scalar reference: one word at a time with the same arithmetic. */
    public static long countScalar(PackedCodes codes, IdRange range) {
        if (range.isEmpty() || codes.count() == 0) {
            return 0;
        }
        PackedLayout layout = codes.layout();
        checkRange(layout, range);
        return countWordsScalar(codes.words(), 0, codes.wordCount(), layout.codeBitsMask(), layout.delimiterMask(),
                layout.repeat(range.lo()), layout.repeat(range.hi() + 1L));
    }

    /**
     * Marks matching rows in {@code selection} (bit r of word r/64 for row r, rows from 0), OR-ing into what is
     * there. The delimiter bits of each word are compressed into consecutive row bits with {@link Long#compress}
     * (PEXT on x86).
     */
    public static long select(PackedCodes codes, IdRange range, long[] selection, ScanBytes bytes) {
        long rows = codes.count();
        if (selection.length < (rows + 63) / 64) {
            throw new IllegalArgumentException("selection of " + selection.length + " words cannot hold " + rows
                    + " rows");
        }
        if (range.isEmpty() || rows == 0) {
            return 0;
        }
        PackedLayout layout = codes.layout();
        checkRange(layout, range);
        long codeBits = layout.codeBitsMask();
        long delimiters = layout.delimiterMask();
        long lo = layout.repeat(range.lo());
        long hiPlusOne = layout.repeat(range.hi() + 1L);
        int perWord = layout.codesPerWord();
        MemorySegment segment = codes.words();
        long words = codes.wordCount();
        bytes.addPacked(words * Long.BYTES);
        long matches = 0;
        long row = 0;
        for (long w = 0; w < words; w++, row += perWord) {
            long match = matchWord(segment.getAtIndex(ValueLayout.JAVA_LONG, w), codeBits, delimiters, lo,
                    hiPlusOne);
            if (match == 0) {
                continue;
            }
            long dense = Long.compress(match, delimiters);
            matches += Long.bitCount(dense);
            int bit = (int) (row & 63);
            int index = (int) (row >>> 6);
            selection[index] |= dense << bit;
            // Codes past the last row are 0 and never match, so spilled bits always belong to real rows.
            if (bit + perWord > 64 && (dense >>> (64 - bit)) != 0) {
                selection[index + 1] |= dense >>> (64 - bit);
            }
        }
        return matches;
    }

    static long matchWord(long word, long codeBits, long delimiters, long lo, long hiPlusOne) {
        long x = word ^ codeBits;
        return ((x + hiPlusOne) & delimiters) & ~((x + lo) & delimiters);
    }

    private static void checkRange(PackedLayout layout, IdRange range) {
        if (range.lo() < 1 || range.hi() > layout.maxCode()) {
            throw new IllegalArgumentException("ID range " + range + " is outside 1.." + layout.maxCode());
        }
    }
}
