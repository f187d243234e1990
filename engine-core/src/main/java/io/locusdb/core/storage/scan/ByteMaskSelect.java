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
    /** Words a call processes: a multiple of this (one vector). */
    static final int WORDS_PER_STEP = 8;

    private ByteMaskSelect() {
    }

    static boolean supports(int fieldBits) {
        return CpuFeatures.BYTE_MASKS && fieldBits >= MIN_FIELD_BITS;
    }

    /**
     * Writes the row bits of the first {@code words} packed words (a multiple of {@link #WORDS_PER_STEP}) into
     * {@code selection} from row 0: OR-ed into what is there, or with {@code overwrite} in place of it.
     */
    static void select(MemorySegment segment, long words, long belowLo, long belowHi, long delimiters,
                       long[] selection, boolean overwrite) {
        int fieldBits = Long.numberOfTrailingZeros(delimiters) + 1;
        int perWord = Long.bitCount(delimiters);
        long delimiterBytes = 0;
        for (int lane = 0; lane < WORDS_PER_STEP; lane++) {
            for (int field = 0; field < perWord; field++) {
                delimiterBytes |= 1L << (lane * Long.BYTES + (field * fieldBits + fieldBits - 1) / Byte.SIZE);
            }
        }
        int step = WORDS_PER_STEP * perWord;
        LongVector vLo = LongVector.broadcast(LONGS, belowLo);
        LongVector vHi = LongVector.broadcast(LONGS, belowHi);
        LongVector vDelimiters = LongVector.broadcast(LONGS, delimiters);
        // The bitmap is a stream of step-bit appends, each selection word OR-ed into once; its state stays in locals
        // of the loop so that appends do not wait on each other's stores.
        long pending = 0;
        int filled = 0;
        int index = 0;
        long totalBytes = words * Long.BYTES;
        for (long base = 0; base < totalBytes; base += PackedRangeScan.CHUNK_BYTES) {
            int chunk = (int) Math.min(PackedRangeScan.CHUNK_BYTES, totalBytes - base);
            MemorySegment slice = segment.asSlice(base, chunk);
            for (int o = 0; o < chunk; o += LONGS.vectorByteSize()) {
                LongVector x = LongVector.fromMemorySegment(LONGS, slice, o, ORDER);
                long byteMask = vHi.sub(x).lanewise(VectorOperators.XOR, vLo.sub(x)).and(vDelimiters)
                        .reinterpretAsBytes().compare(VectorOperators.NE, (byte) 0).toLong();
                long rows = Long.compress(byteMask, delimiterBytes);
                pending |= rows << filled;
                filled += step;
                if (filled >= 64) {
                    PackedRangeScan.store(selection, index++, pending, overwrite);
                    filled -= 64;
                    // Two shifts: a full 64-bit append leaves nothing over, and a shift by 64 would be by 0.
                    pending = (rows >>> 1) >>> (step - filled - 1);
                }
            }
        }
        if (filled > 0) {
            PackedRangeScan.store(selection, index, pending, overwrite);
        }
    }
}
