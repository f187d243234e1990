package io.locusdb.core.storage.scan;

import io.locusdb.core.cpu.CpuFeatures;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The select kernel of {@link PackedRangeScan} for fields of 8 bits or more, where no two delimiters share a byte.
 * A vector of 8 words gives its match bits with one 64-lane byte compare (is the byte's delimiter bit set?) into a
 * mask register; that 64-bit mask, compressed with one PEXT by the constant of the bytes that hold a delimiter,
 * is the vector's rows in order (words are lanes in row order, fields within a word in row order). Only that one
 * word per vector goes through scalar code, to be appended to the bitmap.
 *
 * <p>It replaced a kernel that gathered each word's match bits with a vector multiplication and OR-ed the 8 lanes
 * together: per vector that was a multiply, a variable shift and a 3-step horizontal reduction, against a compare
 * and a PEXT here. On the wide lineitem columns (12- to 21-bit codes), selected in turn, it measured 20-22 GB/s
 * against 12.4-13.7.
 */
final class ByteMaskSelect {
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_512;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    static final int MIN_FIELD_BITS = 8;
    /** Words of one vector: the step of each stream. */
    static final int WORDS_PER_STEP = 8;

    private ByteMaskSelect() {
    }

    static boolean supports(int fieldBits) {
        return CpuFeatures.BYTE_MASKS && fieldBits >= MIN_FIELD_BITS;
    }

    /**
     * Writes the row bits of the first words of {@code words} packed words into {@code selection} from row 0: OR-ed
     * into what is there, or with {@code overwrite} in place of it. Returns how many words that is: two equal halves
     * read side by side as two streams (for the reason given at {@link PackedRangeScan#countWordsPopcount}), each
     * ending on a selection word, so the caller picks up the rest at a selection word with another kernel. Fewer
     * than two periods of {@code 8 * 64 / gcd(64, rows per vector)} words are left over.
     */
    static long select(MemorySegment segment, long words, long belowLo, long belowHi, long delimiters,
                       long[] selection, boolean overwrite) {
        Plan plan = new Plan(delimiters, belowLo, belowHi);
        // Each half starts a selection word: its first row is a multiple of 64 and its first word starts a vector.
        long period = (long) WORDS_PER_STEP * 64 / gcd(64, plan.step());
        long half = words / 2 / period * period;
        if (half > 0) {
            selectTwoStreams(segment, half, plan, selection, overwrite);
        }
        return 2 * half;
    }

    /** The per-call constants: each vector's row bits are the delimiter bytes' compare bits, compressed. */
    private record Plan(int perWord, int step, long delimiterBytes, long belowLo, long belowHi, long delimiters) {
        Plan(long delimiters, long belowLo, long belowHi) {
            this(Long.bitCount(delimiters), WORDS_PER_STEP * Long.bitCount(delimiters), delimiterBytes(delimiters),
                    belowLo, belowHi, delimiters);
        }

        private static long delimiterBytes(long delimiters) {
            int fieldBits = Long.numberOfTrailingZeros(delimiters) + 1;
            int perWord = Long.bitCount(delimiters);
            long bytes = 0;
            for (int lane = 0; lane < WORDS_PER_STEP; lane++) {
                for (int field = 0; field < perWord; field++) {
                    bytes |= 1L << (lane * Long.BYTES + (field * fieldBits + fieldBits - 1) / Byte.SIZE);
                }
            }
            return bytes;
        }
    }

    /** A vector's rows in order; the constants are the loop's own locals, broadcast once per call. */
    private static long rows(LongVector x, LongVector vLo, LongVector vHi, LongVector vDelimiters,
                             long delimiterBytes) {
        long byteMask = vHi.sub(x).lanewise(VectorOperators.XOR, vLo.sub(x)).and(vDelimiters)
                .reinterpretAsBytes().compare(VectorOperators.NE, (byte) 0).toLong();
        return Long.compress(byteMask, delimiterBytes);
    }

    /**
     * Words {@code 0..half-1} and {@code half..2*half-1} side by side; each half ends on a selection word, so
     * neither leaves a partial word behind.
     */
    private static void selectTwoStreams(MemorySegment segment, long half, Plan plan, long[] selection,
                                         boolean overwrite) {
        int step = plan.step();
        long delimiterBytes = plan.delimiterBytes();
        LongVector vLo = LongVector.broadcast(LONGS, plan.belowLo());
        LongVector vHi = LongVector.broadcast(LONGS, plan.belowHi());
        LongVector vDelimiters = LongVector.broadcast(LONGS, plan.delimiters());
        // Each bitmap is a stream of step-bit appends, each selection word written once; the state stays in locals
        // of the loop so that appends do not wait on each other's stores.
        long pending = 0;
        int filled = 0;
        int index = 0;
        long morePending = 0;
        int moreFilled = 0;
        int moreIndex = (int) (half * plan.perWord() / 64);
        long halfBytes = half * Long.BYTES;
        for (long base = 0; base < halfBytes; base += PackedRangeScan.STREAM_CHUNK_BYTES) {
            int chunk = (int) Math.min(PackedRangeScan.STREAM_CHUNK_BYTES, halfBytes - base);
            MemorySegment one = segment.asSlice(base, chunk);
            MemorySegment two = segment.asSlice(halfBytes + base, chunk);
            for (int o = 0; o < chunk; o += LONGS.vectorByteSize()) {
                long rows = rows(LongVector.fromMemorySegment(LONGS, one, o, ORDER), vLo, vHi, vDelimiters,
                        delimiterBytes);
                long moreRows = rows(LongVector.fromMemorySegment(LONGS, two, o, ORDER), vLo, vHi, vDelimiters,
                        delimiterBytes);
                pending |= rows << filled;
                filled += step;
                if (filled >= 64) {
                    PackedRangeScan.store(selection, index++, pending, overwrite);
                    filled -= 64;
                    // Two shifts: a full 64-bit append leaves nothing over, and a shift by 64 would be by 0.
                    pending = (rows >>> 1) >>> (step - filled - 1);
                }
                morePending |= moreRows << moreFilled;
                moreFilled += step;
                if (moreFilled >= 64) {
                    PackedRangeScan.store(selection, moreIndex++, morePending, overwrite);
                    moreFilled -= 64;
                    morePending = (moreRows >>> 1) >>> (step - moreFilled - 1);
                }
            }
        }
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
