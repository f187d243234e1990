package io.locusdb.core.storage.scan;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The select kernel of {@link PackedRangeScan} for fields of 8 bits or more (at most 8 codes a word), in vector
 * registers: the match bits of a word (one delimiter bit per field, {@code f} bits apart) are gathered into row
 * order with one multiplication, the 8 words of a vector are shifted to their place and OR-ed together across
 * lanes, and only finished bitmap bits go through scalar code.
 *
 * <p>Why a multiplication gathers: with {@code k} fields of {@code f >= k} bits and delimiters at
 * {@code p_j = j*f + f - 1}, the constant {@code Σ_i 2^(64 - k + i - p_i)} moves the delimiter of field {@code i}
 * to bit {@code 64 - k + i}. Every other product term lands at {@code 64 - k + i + (j - i) * f}: at or above bit 64
 * (dropped) when {@code j > i}, below the window when {@code j < i}, and no two terms share a bit because
 * {@code |i - i'| < k <= f}. The product is therefore a carry-free OR whose top {@code k} bits are the word's rows
 * in order. The exponents are non-negative because {@code k * f <= 64}. {@code f >= k} holds exactly when
 * {@code f >= 8}.
 *
 * <p>The alternative, PEXT per word, is a scalar port-1 instruction with a chain of shifts and ORs behind it; on
 * 12-bit codes (f = 13) this kernel measured about 1.5 times its throughput.
 */
final class MultiplyGatherSelect {
    private static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    private static final int LANES = SPECIES.length();
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    /**
     * Narrower fields hold more than 8 codes a word: a multiplication gathers at most {@code f} of them, and the
     * 2 to 4 multiplications a word then needed, with the wider bitmap appends, measured half the speed of PEXT.
     */
    static final int MIN_FIELD_BITS = 8;

    private MultiplyGatherSelect() {
    }

    static boolean supports(int fieldBits) {
        // Vector 64-bit multiplies are native from AVX-512DQ on; narrower vectors emulate them slowly.
        return fieldBits >= MIN_FIELD_BITS && fieldBits <= 32 && LANES == 8;
    }

    /** Words a call processes: a multiple of the vector length. */
    static long wordsPerStep() {
        return LANES;
    }

    /**
     * ORs the row bits of the first {@code words} packed words (a multiple of {@link #wordsPerStep}) into
     * {@code selection} from row 0, and returns the number of matching rows.
     */
    static long select(MemorySegment segment, long words, long belowLo, long belowHi, long delimiters,
                       long[] selection) {
        int fieldBits = Long.numberOfTrailingZeros(delimiters) + 1;
        int perWord = Long.bitCount(delimiters);
        long magic = 0;
        for (int i = 0; i < perWord; i++) {
            magic |= 1L << (64 - perWord + i - (i * fieldBits + fieldBits - 1));
        }
        long[] laneShifts = new long[LANES];
        for (int w = 0; w < LANES; w++) {
            laneShifts[w] = (long) w * perWord;
        }
        return select(segment, words, LongVector.broadcast(SPECIES, belowLo), LongVector.broadcast(SPECIES, belowHi),
                LongVector.broadcast(SPECIES, delimiters), LongVector.broadcast(SPECIES, magic), 64 - perWord,
                LongVector.fromArray(SPECIES, laneShifts, 0), LANES * perWord, selection);
    }

    /*
     * The bitmap is written as a stream of appends of appendBits row bits each, a selection word at a time (each
     * word OR-ed into once), with set bits counted as words complete. Its state lives in locals of the loop: as
     * fields of a helper object that was not scalar-replaced, every append waited on the previous one's stores.
     */

    private static long select(MemorySegment segment, long words, LongVector vLo, LongVector vHi,
                                LongVector vDelimiters, LongVector magic, int windowShift, LongVector laneShifts,
                                int appendBits, long[] selection) {
        long pending = 0;
        int filled = 0;
        int index = 0;
        long matches = 0;
        // Two vectors a step: their gathers overlap, and when both fit one append (4 rows a word or fewer) the
        // stream's shift, carry and store are paid once for both.
        boolean pairs = 2 * appendBits <= 64;
        int stepBits = pairs ? 2 * appendBits : appendBits;
        int pairShift = pairs ? appendBits : 0;
        long totalBytes = words * Long.BYTES;
        int vectorBytes = SPECIES.vectorByteSize();
        int stepBytes = 2 * vectorBytes;
        long pairedBytes = totalBytes - totalBytes % stepBytes;
        for (long base = 0; base < pairedBytes; base += PackedRangeScan.CHUNK_BYTES) {
            int chunk = (int) Math.min(PackedRangeScan.CHUNK_BYTES, pairedBytes - base);
            MemorySegment slice = segment.asSlice(base, chunk);
            for (int o = 0; o < chunk; o += stepBytes) {
                LongVector x0 = LongVector.fromMemorySegment(SPECIES, slice, o, ORDER);
                LongVector x1 = LongVector.fromMemorySegment(SPECIES, slice, o + vectorBytes, ORDER);
                long rows0 = vHi.sub(x0).lanewise(VectorOperators.XOR, vLo.sub(x0)).and(vDelimiters).mul(magic)
                        .lanewise(VectorOperators.LSHR, windowShift).lanewise(VectorOperators.LSHL, laneShifts)
                        .reduceLanes(VectorOperators.OR);
                long rows1 = vHi.sub(x1).lanewise(VectorOperators.XOR, vLo.sub(x1)).and(vDelimiters).mul(magic)
                        .lanewise(VectorOperators.LSHR, windowShift).lanewise(VectorOperators.LSHL, laneShifts)
                        .reduceLanes(VectorOperators.OR);
                long rowBits = pairs ? rows0 | rows1 << pairShift : rows0;
                pending |= rowBits << filled;
                filled += stepBits;
                if (filled >= 64) {
                    matches += Long.bitCount(pending);
                    selection[index++] |= pending;
                    filled -= 64;
                    // Two shifts: a full 64-bit append leaves nothing over, and a shift by 64 would be by 0.
                    pending = (rowBits >>> 1) >>> (stepBits - filled - 1);
                }
                if (!pairs) {
                    pending |= rows1 << filled;
                    filled += stepBits;
                    if (filled >= 64) {
                        matches += Long.bitCount(pending);
                        selection[index++] |= pending;
                        filled -= 64;
                        pending = (rows1 >>> 1) >>> (stepBits - filled - 1);
                    }
                }
            }
        }
        if (pairedBytes < totalBytes) {
            LongVector x = LongVector.fromMemorySegment(SPECIES, segment, pairedBytes, ORDER);
            long rowBits = vHi.sub(x).lanewise(VectorOperators.XOR, vLo.sub(x)).and(vDelimiters).mul(magic)
                    .lanewise(VectorOperators.LSHR, windowShift).lanewise(VectorOperators.LSHL, laneShifts)
                    .reduceLanes(VectorOperators.OR);
            pending |= rowBits << filled;
            filled += appendBits;
            if (filled >= 64) {
                matches += Long.bitCount(pending);
                selection[index++] |= pending;
                filled -= 64;
                pending = (rowBits >>> 1) >>> (appendBits - filled - 1);
            }
        }
        return finish(selection, index, pending, filled, matches);
    }

    private static long finish(long[] selection, int index, long pending, int filled, long matches) {
        if (filled > 0) {
            selection[index] |= pending;
            return matches + Long.bitCount(pending);
        }
        return matches;
    }
}
