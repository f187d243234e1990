package io.locusdb.core.storage.scan;

import io.locusdb.core.cpu.KernelVariant;
import io.locusdb.core.cpu.Kernels;
import io.locusdb.core.cpu.PortableBits;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.column.PackedLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Range predicates evaluated directly on packed value IDs, a whole word of codes at a time (BitWeaving/H):
 * with {@code X} a word of codes, {@code M} every field's code bits and {@code D} every field's delimiter bit,
 * {@code ((X ^ M) + rep(c)) & D} has a field's delimiter set exactly when that code is {@code < c}: the add computes
 * {@code (2^b - 1 - x) + c}, which carries into the delimiter iff {@code c > x}, and cannot carry further. A range
 * {@code [lo, hi]} is then {@code lt(hi + 1) & ~lt(lo)}. Padding codes past the end are 0 (NULL) and never match
 * because ranges start at 1.
 *
 * <p>Because no code exceeds {@code M}, {@code (X ^ M) + rep(c)} equals {@code (M + rep(c)) - X} with no borrow
 * between fields, so the kernels subtract each word from two precomputed constants, and because {@code lt(lo)}
 * implies {@code lt(hi + 1)}, the AND-NOT is an XOR: {@code match = ((M + rep(hi + 1)) - X ^ (M + rep(lo)) - X) & D}.
 *
 * <p>Vertically packed codes (narrow ones, see {@link PackedLayout}) go to {@link VerticalRangeScan}.
 *
 * <p>Bounds are checked once per call, not per word. The vector loops have no branches and no masked operations;
 * counts are kept in per-field counters and summed once per block (see {@link #countWords}).
 *
 * <p>Each kernel comes in the forms of {@link KernelVariant}, chosen per CPU by {@link Kernels}; the vector loops of
 * each width live in {@link HorizontalLanes512} and {@link HorizontalLanes256}.
 */
public final class PackedRangeScan {
    /** Below this field width the per-field counters overflow too soon to pay off. */
    static final int MIN_VECTOR_FIELD_BITS = 5;
    /** The longest vector of any form, in words: the vector loops take whole multiples of it. */
    private static final int MAX_LANES = 8;

    private PackedRangeScan() {
    }

    /** Number of rows whose value ID is in {@code range}. */
    public static long count(PackedCodes codes, IdRange range, ScanBytes bytes) {
        return count(codes, range, bytes, Kernels.rangeCount());
    }

    /** {@link #count} in the form {@code variant}, whatever this CPU would choose (tests, benchmarks). */
    public static long count(PackedCodes codes, IdRange range, ScanBytes bytes, KernelVariant variant) {
        if (range.isEmpty() || codes.count() == 0) {
            return 0;
        }
        PackedLayout layout = codes.layout();
        checkRange(layout, range);
        long words = codes.wordCount();
        bytes.addPacked(words * Long.BYTES);
        if (layout.isVertical()) {
            return VerticalRangeScan.count(codes.words(), layout.codeBits(), codes.count(), range.lo(), range.hi(),
                    variant);
        }
        return countWords(codes.words(), words, layout.codeBitsMask(), layout.delimiterMask(),
                layout.repeat(range.lo()), layout.repeat(range.hi() + 1L), variant);
    }

    /**
     * The vector loops walk 1 MiB slices with an {@code int} offset, the loop shape C2 compiles best (int counted
     * loops, segment checks against the slice hoisted); on 12-bit codes this measured about twice the throughput of
     * one {@code long}-indexed loop over the whole column.
     */
    static final int CHUNK_BYTES = 1 << 20;
    /** Words of matches the select kernel computes ahead of gathering them (4 KiB: stays in L1). */
    private static final int BUFFER_WORDS = 512;
    /** Words the select kernel appends to the bitmap at once; a multiple of the vector length. */
    private static final int STEP_WORDS = 4;

    /**
     * The count in form {@code variant}. The vector forms without a per-lane popcount (not native before AVX-512
     * VPOPCNTDQ) let each lane accumulate {@code match >>> codeBits}: a 0/1 in every field, so every field becomes a
     * small counter. Four accumulators get one vector each a step, and a block is short enough
     * ({@code (2^f - 1) / 4} steps for f-bit fields) that their sum still fits every field. That sum is folded once
     * per block by adding neighbouring slots pairwise (log2 of the field count steps of four operations), where
     * summing field by field cost three operations a field and, written once per accumulator, grew the method past
     * C2's inlining limits (the vectors were then boxed). Narrow codes (fields too small to count far) use the
     * scalar POPCNT loop.
     *
     * <p>With a per-lane popcount (VPOPCNTQ) each vector's match bits are counted where they are, whatever the
     * field width, so there are no field counters to fold. It measured 0.85-0.95 of sequential read on every width
     * from 4- to 21-bit codes, where the field-counter kernel fell to about 0.6 on narrow ones. It reads the column
     * as two streams, its first and its second half, two vectors of each a step. Java has no prefetch instruction,
     * and with one stream the hardware prefetcher did not run far enough ahead of a kernel that works on every
     * line: on lineitem's wide columns read from DRAM (four copies, 4x the benchmark's bytes) two streams counted at
     * 0.79-0.82 of a plain one-stream read against 0.62-0.65 with one stream (a two-stream read itself reaching
     * 1.21-1.25 of it), and a little faster when the columns sat in the L3 cache.
     */
    static long countWords(MemorySegment segment, long words, long codeBits, long delimiters, long lo, long hiPlusOne,
                           KernelVariant variant) {
        return switch (variant) {
            case VECTOR_512 -> Kernels.LANE_POPCOUNT
                    ? HorizontalLanes512.countPopcount(segment, words, codeBits, delimiters, lo, hiPlusOne)
                    : HorizontalLanes512.countFields(segment, words, codeBits, delimiters, lo, hiPlusOne);
            case VECTOR_256 -> HorizontalLanes256.countFields(segment, words, codeBits, delimiters, lo, hiPlusOne);
            case SCALAR -> countWordsScalar(segment, 0, words, codeBits, delimiters, lo, hiPlusOne);
        };
    }

    /** Bytes of each stream a two-stream loop walks with an int offset (two of them make {@link #CHUNK_BYTES}). */
    static final int STREAM_CHUNK_BYTES = CHUNK_BYTES / 2;

    /**
     * Low halves of every {@code 2 * width}-bit slot. Folding with it keeps each pair sum in its slot: a full slot
     * holds two counters of {@code width} bits; a slot cut off at bit 63 holds only fields that fit there, whose sum
     * fits the bits it has.
     */
    static long evenSlots(int width) {
        long slot = (1L << width) - 1;
        long mask = 0;
        for (int p = 0; p < 64; p += 2 * width) {
            mask |= slot << p;
        }
        return mask;
    }

    static long countWordsScalar(MemorySegment segment, long from, long to, long codeBits, long delimiters,
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
        if (layout.isVertical()) {
            return VerticalRangeScan.countScalar(codes.words(), layout.codeBits(), codes.count(), range.lo(),
                    range.hi());
        }
        return countWordsScalar(codes.words(), 0, codes.wordCount(), layout.codeBitsMask(), layout.delimiterMask(),
                layout.repeat(range.lo()), layout.repeat(range.hi() + 1L));
    }

    /**
     * Marks matching rows in {@code selection} (bit r of word r/64 for row r, rows from 0), OR-ing into what is
     * there. Row bits are streamed into a register and each selection word is written once: OR-ing every packed
     * word's bits straight into the array made consecutive words a read-modify-write chain through one element.
     * The matches are not counted here: callers count the final selection once, after every predicate of a
     * conjunction, so a count per predicate was work nobody used.
     */
    public static void select(PackedCodes codes, IdRange range, long[] selection, ScanBytes bytes) {
        boolean vectors = Kernels.vectorsReady();
        select(codes, range, selection, bytes, false, vectors ? Kernels.RANGE_SELECT : KernelVariant.SCALAR,
                vectors ? Kernels.RANGE_SELECT_PEXT : Kernels.PEXT);
    }

    /**
     * Sets the selection words of the rows ({@code 0..(rows + 63) / 64 - 1}) to exactly the matching rows, bits past
     * the last row clear, whatever they held; words past them are left alone. For a first predicate: the caller
     * neither zeroes the bitmap first nor pays for reading it back.
     */
    public static void selectInto(PackedCodes codes, IdRange range, long[] selection, ScanBytes bytes) {
        boolean vectors = Kernels.vectorsReady();
        select(codes, range, selection, bytes, true, vectors ? Kernels.RANGE_SELECT : KernelVariant.SCALAR,
                vectors ? Kernels.RANGE_SELECT_PEXT : Kernels.PEXT);
    }

    /**
     * {@link #selectInto} ({@code overwrite}) or {@link #select} in the form {@code variant}, moving bits with PEXT
     * or without ({@code pext}), whatever this CPU would choose (tests, benchmarks). The byte-mask kernel runs
     * wherever the CPU has it (512 bits, overwriting), whatever {@code pext}.
     */
    public static void select(PackedCodes codes, IdRange range, long[] selection, ScanBytes bytes,
                              boolean overwrite, KernelVariant variant, boolean pext) {
        long rows = codes.count();
        int rowWords = (int) ((rows + 63) / 64);
        if (selection.length < rowWords) {
            throw new IllegalArgumentException("selection of " + selection.length + " words cannot hold " + rows
                    + " rows");
        }
        if (range.isEmpty() || rows == 0) {
            if (overwrite) {
                Arrays.fill(selection, 0, rowWords, 0L);
            }
            return;
        }
        PackedLayout layout = codes.layout();
        checkRange(layout, range);
        long words = codes.wordCount();
        bytes.addPacked(words * Long.BYTES);
        if (layout.isVertical()) {
            VerticalRangeScan.select(codes.words(), layout.codeBits(), rows, range.lo(), range.hi(), selection,
                    overwrite, variant);
            return;
        }
        selectWords(codes.words(), words, layout.codeBitsMask(), layout.delimiterMask(),
                layout.repeat(range.lo()), layout.repeat(range.hi() + 1L), selection, overwrite, rowWords, variant,
                pext);
    }

    /** One selection word, OR-ed in or overwritten: C2 inlines it, and the branch goes the same way every time. */
    static void store(long[] selection, int index, long bits, boolean overwrite) {
        if (overwrite) {
            selection[index] = bits;
        } else {
            selection[index] |= bits;
        }
    }

    static void selectWords(MemorySegment segment, long words, long codeBits, long delimiters, long lo,
                            long hiPlusOne, long[] selection, boolean overwrite, int rowWords, KernelVariant variant,
                            boolean pext) {
        // The streamed part stops before the last word, the only one that may hold padding codes: every selection
        // word it completes then holds real rows, so it never writes past the rows the caller sized for.
        long head = Math.max(0, words - 1);
        long belowLo = codeBits + lo;
        long belowHi = codeBits + hiPlusOne;
        int fieldBits = Long.numberOfTrailingZeros(delimiters) + 1;
        long done = 0;
        // The byte-mask kernel takes one PEXT a vector: where PEXT is native it runs even when a word's PEXT
        // measured slower than the multiply gather.
        if (variant == KernelVariant.VECTOR_512 && Kernels.BYTE_MASKS && ByteMaskSelect.supports(fieldBits)) {
            done = overwrite ? ByteMaskSelect.selectInto(segment, head, belowLo, belowHi, delimiters, selection)
                    : ByteMaskSelect.orInto(segment, head, belowLo, belowHi, delimiters, selection);
        }
        // The gathering kernel takes every word the byte-mask kernel left (all of them where it does not apply).
        long compressed = head - done - (head - done) % Math.max(STEP_WORDS, MAX_LANES);
        selectCompressed(segment, done, done + compressed, belowLo, belowHi, delimiters, selection, overwrite,
                variant, pext);
        done += compressed;
        if (overwrite) {
            // The kernels wrote every word up to the one holding their last row (that one in part, the rest of it
            // clear); the tail ORs into the words after it, which must start clear.
            Arrays.fill(selection, (int) ((done * Long.bitCount(delimiters) + 63) >>> 6), rowWords, 0L);
        }
        selectTail(segment, done, words, codeBits, delimiters, lo, hiPlusOne, selection, pext);
    }

    /**
     * Matches are computed a vector at a time into a small buffer that stays in L1, then each word's delimiter bits
     * become row bits: gathered with a multiply ({@link PortableBits#gatherDelimiters}) in the vector loop itself
     * when one multiply does it (fields of 8 bits and more: every layout LocusDB picks for codes this wide) on
     * 256-bit vectors, and on 512-bit ones without PEXT; else compressed with {@link Long#compress} (PEXT) where
     * that is fast, or gathered a word at a time. Four words' row bits are concatenated
     * before they are appended to the bitmap stream, so the stream's shift, carry and store cost is paid once per
     * four words. Words {@code from..to-1} ({@code to - from} a multiple of {@link #MAX_LANES}); {@code from}
     * starts a selection word (its first row is a multiple of 64).
     */
    static void selectCompressed(MemorySegment segment, long from, long to, long belowLo, long belowHi,
                                 long delimiters, long[] selection, boolean overwrite, KernelVariant variant,
                                 boolean pext) {
        int perWord = Long.bitCount(delimiters);
        int perPair = 2 * perWord;
        int fieldBits = Long.numberOfTrailingZeros(delimiters) + 1;
        // On 256-bit vectors the multiply gather in the vector loop beats PEXT even where PEXT is fast: 0.48 of a
        // plain read against 0.35 over lineitem's five columns (AMD EPYC Zen 3). At 512 bits, PEXT stays where
        // it is fast: with it the select read 0.95-1.02 of a plain read, with the multiply gather 0.81-0.87, as a
        // first and as a later predicate (Intel Xeon family 6 model 207, one JMH fork each, errors 10-35 %).
        boolean gatherInVectors = PortableBits.gathersWithOneMultiply(fieldBits)
                && (variant == KernelVariant.VECTOR_256 || variant == KernelVariant.VECTOR_512 && !pext);
        // The buffer holds matches still to compress with PEXT, or row bits already gathered.
        boolean compress = pext && !gatherInVectors;
        long multiplier = PortableBits.gatherMultiplier(fieldBits);
        int gatherShift = PortableBits.gatherShift(fieldBits);
        // Four words' rows fit one append unless codes are 1 or 2 bits wide (32 or 21 codes a word).
        boolean quadAppend = 4 * perWord <= 64;
        int perQuad = 4 * perWord;
        long[] buffer = new long[BUFFER_WORDS];
        long out = 0;
        int filled = 0;
        int index = (int) (from * perWord >>> 6);
        long totalBytes = to * Long.BYTES;
        for (long base = from * Long.BYTES; base < totalBytes; base += BUFFER_WORDS * Long.BYTES) {
            int chunk = (int) Math.min(BUFFER_WORDS * Long.BYTES, totalBytes - base);
            MemorySegment slice = segment.asSlice(base, chunk);
            int chunkWords = chunk / Long.BYTES;
            if (gatherInVectors) {
                if (variant == KernelVariant.VECTOR_512) {
                    HorizontalLanes512.rowBits(slice, chunk, belowLo, belowHi, delimiters, fieldBits, multiplier,
                            gatherShift, buffer);
                } else {
                    HorizontalLanes256.rowBits(slice, chunk, belowLo, belowHi, delimiters, fieldBits, multiplier,
                            gatherShift, buffer);
                }
            } else {
                switch (variant) {
                    case VECTOR_512 -> HorizontalLanes512.matches(slice, chunk, belowLo, belowHi, delimiters, buffer);
                    case VECTOR_256 -> HorizontalLanes256.matches(slice, chunk, belowLo, belowHi, delimiters, buffer);
                    case SCALAR -> {
                        if (pext) {
                            matchesScalar(slice, chunkWords, belowLo, belowHi, delimiters, buffer);
                        } else {
                            gatheredScalar(slice, chunkWords, belowLo, belowHi, delimiters, fieldBits, buffer);
                        }
                    }
                }
                if (!pext && variant != KernelVariant.SCALAR) {
                    gatherAll(buffer, chunkWords, fieldBits);
                }
            }
            for (int w = 0; w < chunkWords; w += STEP_WORDS) {
                // With PEXT the matches are compressed here, as they are appended (C2 unswitches the loop on it).
                long low = rowBits(buffer[w], compress, delimiters)
                        | rowBits(buffer[w + 1], compress, delimiters) << perWord;
                long high = rowBits(buffer[w + 2], compress, delimiters)
                        | rowBits(buffer[w + 3], compress, delimiters) << perWord;
                if (quadAppend) {
                    long rowBits = low | high << perPair;
                    out |= rowBits << filled;
                    filled += perQuad;
                    if (filled >= 64) {
                        store(selection, index++, out, overwrite);
                        filled -= 64;
                        // Two shifts: a full 64-bit append leaves nothing over, and a shift by 64 would be by 0.
                        out = (rowBits >>> 1) >>> (perQuad - filled - 1);
                    }
                } else {
                    out |= low << filled;
                    filled += perPair;
                    if (filled >= 64) {
                        store(selection, index++, out, overwrite);
                        filled -= 64;
                        out = (low >>> 1) >>> (perPair - filled - 1);
                    }
                    out |= high << filled;
                    filled += perPair;
                    if (filled >= 64) {
                        store(selection, index++, out, overwrite);
                        filled -= 64;
                        out = (high >>> 1) >>> (perPair - filled - 1);
                    }
                }
            }
        }
        if (filled > 0) {
            store(selection, index, out, overwrite);
        }
    }

    private static void matchesScalar(MemorySegment slice, int words, long belowLo, long belowHi, long delimiters,
                                      long[] out) {
        for (int w = 0; w < words; w++) {
            long x = slice.getAtIndex(ValueLayout.JAVA_LONG, w);
            out[w] = ((belowHi - x) ^ (belowLo - x)) & delimiters;
        }
    }

    /** {@link #matchesScalar} with each word's matches gathered into row bits in the same pass (no PEXT). */
    private static void gatheredScalar(MemorySegment slice, int words, long belowLo, long belowHi, long delimiters,
                                       int fieldBits, long[] out) {
        for (int w = 0; w < words; w++) {
            long x = slice.getAtIndex(ValueLayout.JAVA_LONG, w);
            out[w] = PortableBits.gatherDelimiters(((belowHi - x) ^ (belowLo - x)) & delimiters, fieldBits);
        }
    }

    /** A buffered word's row bits: its matches compressed with PEXT, or already gathered. */
    private static long rowBits(long buffered, boolean compress, long delimiters) {
        return compress ? Long.compress(buffered, delimiters) : buffered;
    }

    private static void gatherAll(long[] words, int count, int fieldBits) {
        for (int w = 0; w < count; w++) {
            words[w] = PortableBits.gatherDelimiters(words[w], fieldBits);
        }
    }

    /** The last words (at least the last one), each OR-ed into the bitmap at its rows. */
    private static void selectTail(MemorySegment segment, long from, long to, long codeBits, long delimiters,
                                   long lo, long hiPlusOne, long[] selection, boolean pext) {
        int perWord = Long.bitCount(delimiters);
        int fieldBits = Long.numberOfTrailingZeros(delimiters) + 1;
        long row = from * perWord;
        for (long w = from; w < to; w++, row += perWord) {
            long match = matchWord(segment.getAtIndex(ValueLayout.JAVA_LONG, w), codeBits, delimiters, lo,
                    hiPlusOne);
            if (match == 0) {
                continue;
            }
            long rowBits = pext ? Long.compress(match, delimiters) : PortableBits.gatherDelimiters(match, fieldBits);
            int bit = (int) (row & 63);
            int index = (int) (row >>> 6);
            selection[index] |= rowBits << bit;
            // Codes past the last row are 0 and never match, so spilled bits always belong to real rows.
            if (bit + perWord > 64 && (rowBits >>> (64 - bit)) != 0) {
                selection[index + 1] |= rowBits >>> (64 - bit);
            }
        }
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
