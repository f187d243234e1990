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
 * <p>Bounds are checked once per call, not per word. The loops are written so C2 keeps them vectorized: no
 * branches, no masked operations, popcount reduction at the end.
 */
public final class PackedRangeScan {
    private static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

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

    static long countWords(MemorySegment segment, long words, long codeBits, long delimiters, long lo, long hiPlusOne) {
        long vectorWords = words - words % SPECIES.length();
        LongVector acc = LongVector.zero(SPECIES);
        long stride = (long) SPECIES.length() * Long.BYTES;
        long end = vectorWords * Long.BYTES;
        for (long offset = 0; offset < end; offset += stride) {
            LongVector x = LongVector.fromMemorySegment(SPECIES, segment, offset, ORDER).lanewise(
                    VectorOperators.XOR, codeBits);
            LongVector belowLo = x.add(lo).and(delimiters);
            LongVector belowHi = x.add(hiPlusOne).and(delimiters);
            acc = acc.add(belowHi.lanewise(VectorOperators.AND_NOT, belowLo).lanewise(VectorOperators.BIT_COUNT));
        }
        long count = acc.reduceLanes(VectorOperators.ADD);
        for (long w = vectorWords; w < words; w++) {
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
        long codeBits = layout.codeBitsMask();
        long delimiters = layout.delimiterMask();
        long lo = layout.repeat(range.lo());
        long hiPlusOne = layout.repeat(range.hi() + 1L);
        MemorySegment segment = codes.words();
        long words = codes.wordCount();
        long count = 0;
        for (long w = 0; w < words; w++) {
            count += Long.bitCount(matchWord(segment.getAtIndex(ValueLayout.JAVA_LONG, w), codeBits, delimiters, lo,
                    hiPlusOne));
        }
        return count;
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
            if (bit + perWord > 64) {
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
