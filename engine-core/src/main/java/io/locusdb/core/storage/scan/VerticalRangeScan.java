package io.locusdb.core.storage.scan;

import io.locusdb.core.cpu.KernelVariant;
import io.locusdb.core.cpu.Kernels;
import io.locusdb.core.storage.column.PackedLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Range predicates on vertically packed codes (BitWeaving/V, see {@link PackedLayout}), 512 rows a block. A row's
 * code {@code x} is in {@code [lo, hi]} when neither {@code x - lo} nor {@code hi - x} borrows. Walking the planes
 * from the least significant bit, the borrow out of bit {@code p} of {@code a - b} is the majority of
 * {@code ~a_p}, {@code b_p} and the borrow into it; with one operand a constant that is one three-input logic
 * instruction (VPTERNLOG, which C2 forms from the and/or tree) per plane and bound for 512 rows, and
 * {@code ~(borrowLo | borrowHi)} is then the block's selection words in row order. The constant's bits are 0 or
 * all-ones lanes, so no per-bound branch is needed inside the loop.
 *
 * <p>The work per 64-byte plane is a load, two logic operations and two constant broadcasts from L1, less than
 * the horizontal kernels spend per 64 bytes. On 4- and 6-bit codes from memory it read at 0.92-0.99 of a plain
 * sequential read while its selection stayed in cache; writing a column-sized selection (a bit per row against 4-6
 * bits read) costs the rest.
 *
 * <p>Two forms ({@link KernelVariant}): vectors of the CPU's width (512 or 256 bits; a forced 256 on an AVX-512 CPU
 * still runs 512, there being no separate 256-bit copy of these loops), and scalar, a word of 64 rows at a time.
 * No form needs PEXT/PDEP.
 */
final class VerticalRangeScan {
    /** One plane is 512 bits; wider vectors than that would span two blocks' planes. */
    private static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED.vectorBitSize() >= 512
            ? LongVector.SPECIES_512 : LongVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static final int PLANE_BYTES = PackedLayout.PLANE_WORDS * Long.BYTES;
    private static final int VECTOR_BYTES = SPECIES.vectorByteSize();
    private static final int LANES = SPECIES.length();

    private VerticalRangeScan() {
    }

    /** Rows {@code 0..rows-1} whose code is in {@code [lo, hi]} ({@code 1 <= lo <= hi <= maxCode}). */
    static long count(MemorySegment segment, int codeBits, long rows, int lo, int hi, KernelVariant variant) {
        return variant == KernelVariant.SCALAR ? countScalar(segment, codeBits, rows, lo, hi)
                : count(segment, codeBits, rows, lo, hi, Kernels.LANE_POPCOUNT);
    }

    /**
     * {@link #count} with a per-lane popcount (VPOPCNTQ) or, where the CPU lacks one, a scalar POPCNT a word. The
     * popcount loop reads the full blocks as two streams, the first half and the second half of them, for the reason
     * given at {@link PackedRangeScan#countWordsPopcount}.
     */
    static long count(MemorySegment segment, int codeBits, long rows, int lo, int hi, boolean lanePopcount) {
        long[] loBits = bitLanes(lo, codeBits, false);
        long[] notHiBits = bitLanes(hi, codeBits, true);
        long fullBlocks = rows / PackedLayout.BLOCK_ROWS;
        long half = fullBlocks / 2;
        long count = 0;
        int blockBytes = codeBits * PLANE_BYTES;
        int blocksPerChunk = PackedRangeScan.STREAM_CHUNK_BYTES / blockBytes;
        for (long first = 0; first < half; first += blocksPerChunk) {
            int blocks = (int) Math.min(blocksPerChunk, half - first);
            MemorySegment one = segment.asSlice(first * blockBytes, (long) blocks * blockBytes);
            MemorySegment two = segment.asSlice((half + first) * blockBytes, (long) blocks * blockBytes);
            count += lanePopcount
                    ? countBlocksLanePopcount(one, two, blocks * blockBytes, codeBits, loBits, notHiBits)
                    : countBlocksScalarPopcount(one, blocks * blockBytes, codeBits, loBits, notHiBits)
                            + countBlocksScalarPopcount(two, blocks * blockBytes, codeBits, loBits, notHiBits);
        }
        if (2 * half < fullBlocks) {
            count += countBlocksScalarPopcount(segment.asSlice(2 * half * blockBytes, blockBytes), blockBytes,
                    codeBits, loBits, notHiBits);
        }
        long[] words = new long[PackedLayout.PLANE_WORDS];
        int tailWords = lastBlock(segment, codeBits, rows, loBits, notHiBits, words);
        for (int w = 0; w < tailWords; w++) {
            count += Long.bitCount(words[w]);
        }
        return count;
    }

    /**
     * The blocks of two equal slices, a block of each a step. Each loop has a method of its own: with both popcount
     * forms and the chunk loop in one method, C2 compiled the vector loop at about 60% of this speed.
     */
    private static long countBlocksLanePopcount(MemorySegment one, MemorySegment two, int end, int codeBits,
                                                long[] loBits, long[] notHiBits) {
        int blockBytes = codeBits * PLANE_BYTES;
        LongVector counts = LongVector.zero(SPECIES);
        LongVector moreCounts = counts;
        for (int base = 0; base < end; base += blockBytes) {
            for (int part = 0; part < PLANE_BYTES; part += VECTOR_BYTES) {
                counts = counts.add(match(one, base + part, codeBits, loBits, notHiBits)
                        .lanewise(VectorOperators.BIT_COUNT));
                moreCounts = moreCounts.add(match(two, base + part, codeBits, loBits, notHiBits)
                        .lanewise(VectorOperators.BIT_COUNT));
            }
        }
        return counts.add(moreCounts).reduceLanes(VectorOperators.ADD);
    }

    private static long countBlocksScalarPopcount(MemorySegment slice, int end, int codeBits, long[] loBits,
                                                  long[] notHiBits) {
        int blockBytes = codeBits * PLANE_BYTES;
        long[] words = new long[LANES];
        long count = 0;
        for (int base = 0; base < end; base += blockBytes) {
            for (int part = 0; part < PLANE_BYTES; part += VECTOR_BYTES) {
                match(slice, base + part, codeBits, loBits, notHiBits).intoArray(words, 0);
                for (int w = 0; w < LANES; w++) {
                    count += Long.bitCount(words[w]);
                }
            }
        }
        return count;
    }

    /**
     * Sets (or ORs into) selection words {@code 0..(rows + 63) / 64 - 1} with the rows whose code is in
     * {@code [lo, hi]}; bits past the last row come out clear, words past it are not touched. The full blocks are
     * read as two streams, as in {@link #count}.
     */
    static void select(MemorySegment segment, int codeBits, long rows, int lo, int hi, long[] selection,
                       boolean overwrite, KernelVariant variant) {
        if (variant == KernelVariant.SCALAR) {
            selectScalar(segment, codeBits, rows, lo, hi, selection, overwrite);
            return;
        }
        long[] loBits = bitLanes(lo, codeBits, false);
        long[] notHiBits = bitLanes(hi, codeBits, true);
        int blockBytes = codeBits * PLANE_BYTES;
        long fullBlocks = rows / PackedLayout.BLOCK_ROWS;
        long half = fullBlocks / 2;
        int blocksPerChunk = PackedRangeScan.STREAM_CHUNK_BYTES / blockBytes;
        for (long first = 0; first < half; first += blocksPerChunk) {
            int blocks = (int) Math.min(blocksPerChunk, half - first);
            MemorySegment one = segment.asSlice(first * blockBytes, (long) blocks * blockBytes);
            MemorySegment two = segment.asSlice((half + first) * blockBytes, (long) blocks * blockBytes);
            selectBlocks(one, two, blocks * blockBytes, codeBits, loBits, notHiBits, selection,
                    (int) (first * PackedLayout.PLANE_WORDS), (int) ((half + first) * PackedLayout.PLANE_WORDS),
                    overwrite);
        }
        long[] words = new long[PackedLayout.PLANE_WORDS];
        int index = (int) (2 * half * PackedLayout.PLANE_WORDS);
        if (2 * half < fullBlocks) {
            MemorySegment block = segment.asSlice(2 * half * blockBytes, blockBytes);
            for (int part = 0; part < PLANE_BYTES; part += VECTOR_BYTES) {
                match(block, part, codeBits, loBits, notHiBits).intoArray(words, part / Long.BYTES);
            }
            for (int w = 0; w < PackedLayout.PLANE_WORDS; w++) {
                PackedRangeScan.store(selection, index++, words[w], overwrite);
            }
        }
        int tailWords = lastBlock(segment, codeBits, rows, loBits, notHiBits, words);
        for (int w = 0; w < tailWords; w++) {
            PackedRangeScan.store(selection, index + w, words[w], overwrite);
        }
    }

    /**
     * The blocks of two equal slices, a block of each a step, into the selection words from {@code index} and from
     * {@code moreIndex}: set, or OR-ed in, each a loop of its own (see {@link #countBlocksLanePopcount}).
     */
    private static void selectBlocks(MemorySegment one, MemorySegment two, int end, int codeBits, long[] loBits,
                                     long[] notHiBits, long[] selection, int index, int moreIndex,
                                     boolean overwrite) {
        if (overwrite) {
            setBlocks(one, two, end, codeBits, loBits, notHiBits, selection, index, moreIndex);
        } else {
            orBlocks(one, two, end, codeBits, loBits, notHiBits, selection, index, moreIndex);
        }
    }

    private static void setBlocks(MemorySegment one, MemorySegment two, int end, int codeBits, long[] loBits,
                                  long[] notHiBits, long[] selection, int index, int moreIndex) {
        int blockBytes = codeBits * PLANE_BYTES;
        for (int base = 0; base < end; base += blockBytes) {
            for (int part = 0; part < PLANE_BYTES; part += VECTOR_BYTES, index += LANES, moreIndex += LANES) {
                match(one, base + part, codeBits, loBits, notHiBits).intoArray(selection, index);
                match(two, base + part, codeBits, loBits, notHiBits).intoArray(selection, moreIndex);
            }
        }
    }

    private static void orBlocks(MemorySegment one, MemorySegment two, int end, int codeBits, long[] loBits,
                                 long[] notHiBits, long[] selection, int index, int moreIndex) {
        int blockBytes = codeBits * PLANE_BYTES;
        for (int base = 0; base < end; base += blockBytes) {
            for (int part = 0; part < PLANE_BYTES; part += VECTOR_BYTES, index += LANES, moreIndex += LANES) {
                match(one, base + part, codeBits, loBits, notHiBits)
                        .or(LongVector.fromArray(SPECIES, selection, index)).intoArray(selection, index);
                match(two, base + part, codeBits, loBits, notHiBits)
                        .or(LongVector.fromArray(SPECIES, selection, moreIndex)).intoArray(selection, moreIndex);
            }
        }
    }

    /**
     * The selection words of the rows of a last, partial block into {@code words} (bits past the last row clear,
     * so a slice that ends inside a block counts none of the rows after it); returns how many words hold rows.
     */
    private static int lastBlock(MemorySegment segment, int codeBits, long rows, long[] loBits, long[] notHiBits,
                                 long[] words) {
        int tailRows = (int) (rows % PackedLayout.BLOCK_ROWS);
        if (tailRows == 0) {
            return 0;
        }
        int blockBytes = codeBits * PLANE_BYTES;
        MemorySegment block = segment.asSlice(rows / PackedLayout.BLOCK_ROWS * blockBytes, blockBytes);
        for (int part = 0; part < PLANE_BYTES; part += VECTOR_BYTES) {
            match(block, part, codeBits, loBits, notHiBits).intoArray(words, part / Long.BYTES);
        }
        int tailWords = (tailRows + 63) >>> 6;
        if ((tailRows & 63) != 0) {
            words[tailWords - 1] &= (1L << tailRows) - 1;
        }
        return tailWords;
    }

    /**
     * The match bits of the rows of one vector of plane 0 at {@code offset} (the block's other planes follow it,
     * {@link #PLANE_BYTES} apart).
     */
    private static LongVector match(MemorySegment slice, int offset, int codeBits, long[] loBits,
                                    long[] notHiBits) {
        LongVector borrowLo = LongVector.zero(SPECIES);
        LongVector borrowHi = borrowLo;
        for (int p = 0, o = offset; p < codeBits; p++, o += PLANE_BYTES) {
            LongVector x = LongVector.fromMemorySegment(SPECIES, slice, o, ORDER);
            LongVector notX = x.not();
            LongVector l = LongVector.broadcast(SPECIES, loBits[p]);
            LongVector notH = LongVector.broadcast(SPECIES, notHiBits[p]);
            // Borrow out of x - lo: maj(~x, lo, borrow); out of hi - x: maj(~hi, x, borrow).
            borrowLo = notX.and(l).or(notX.and(borrowLo)).or(l.and(borrowLo));
            borrowHi = notH.and(x).or(notH.and(borrowHi)).or(x.and(borrowHi));
        }
        return borrowLo.or(borrowHi).not();
    }

    /** Bit p of {@code value} (or of its complement) as an all-zeros or all-ones lane, per plane. */
    private static long[] bitLanes(int value, int codeBits, boolean complement) {
        long[] lanes = new long[codeBits];
        for (int p = 0; p < codeBits; p++) {
            boolean set = ((value >>> p) & 1) != 0;
            lanes[p] = set != complement ? -1L : 0L;
        }
        return lanes;
    }

    /** Scalar form (and reference) with the same arithmetic, a word of 64 rows at a time. */
    static long countScalar(MemorySegment segment, int codeBits, long rows, int lo, int hi) {
        long count = 0;
        long words = (rows + 63) >>> 6;
        for (long w = 0; w < words; w++) {
            count += Long.bitCount(matchScalar(segment, codeBits, rows, lo, hi, w));
        }
        return count;
    }

    /** {@link #select} a word of 64 rows at a time. */
    static void selectScalar(MemorySegment segment, int codeBits, long rows, int lo, int hi, long[] selection,
                             boolean overwrite) {
        int words = (int) ((rows + 63) >>> 6);
        for (int w = 0; w < words; w++) {
            PackedRangeScan.store(selection, w, matchScalar(segment, codeBits, rows, lo, hi, w), overwrite);
        }
    }

    /** The match bits of rows {@code 64w..64w+63}, bits past the last row clear. */
    private static long matchScalar(MemorySegment segment, int codeBits, long rows, int lo, int hi, long w) {
        long planeZero = w / PackedLayout.PLANE_WORDS * codeBits * PackedLayout.PLANE_WORDS
                + w % PackedLayout.PLANE_WORDS;
        long borrowLo = 0;
        long borrowHi = 0;
        for (int p = 0; p < codeBits; p++) {
            long x = segment.getAtIndex(ValueLayout.JAVA_LONG, planeZero + (long) p * PackedLayout.PLANE_WORDS);
            long l = ((lo >>> p) & 1) != 0 ? -1L : 0L;
            long notH = ((hi >>> p) & 1) != 0 ? 0L : -1L;
            borrowLo = (~x & l) | (~x & borrowLo) | (l & borrowLo);
            borrowHi = (notH & x) | (notH & borrowHi) | (x & borrowHi);
        }
        long match = ~(borrowLo | borrowHi);
        long rowsLeft = rows - w * 64;
        if (rowsLeft < 64) {
            match &= (1L << rowsLeft) - 1;
        }
        return match;
    }
}
