package io.locusdb.core.storage.scan;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The select kernel of {@link PackedRangeScan} for fields of 8 bits or more, where no two delimiters share a byte.
 * A vector of 8 words gives its match bits with one 64-lane byte compare (is the byte's delimiter bit set?) into a
 * mask register; that 64-bit mask, compressed with one PEXT by the constant of the bytes that hold a delimiter,
 * is the vector's rows in order (words are lanes in row order, fields within a word in row order).
 *
 * <p>A vector holds 8 words of {@code perWord} rows each, so its rows are exactly {@code perWord} whole bytes of
 * the selection. Each vector's rows are stored as one unaligned 8-byte little-endian store at the stream's byte
 * position; its upper bytes are zero and the next vector's store writes over them. That replaced appending rows to
 * a register with variable shifts and storing each full selection word: per vector that was a shift, an OR, an add,
 * a compare and a branch, with both streams' state spilled to the stack (C2 ran out of registers for it). On 13-,
 * 21- and 22-bit fields from L3 that read at 0.88-0.96 of a plain read, this kernel at 0.96-1.04; the select
 * benchmark over lineitem's five columns went from 0.77-0.87 to 0.85-0.93 in alternating runs. Overlapping stores
 * only work front to back, so the kernel sets whole selection words and never ORs into them.
 */
final class ByteMaskSelect {
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_512;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    static final int MIN_FIELD_BITS = 8;
    /** Words of one vector: the step of each stream. */
    static final int WORDS_PER_STEP = 8;
    /** Packed words selected into scratch at a time when OR-ing (32 KiB of codes; their rows' bits stay in L1). */
    static final long OR_BLOCK_WORDS = 4096;

    private ByteMaskSelect() {
    }

    /** Whether the kernel takes fields this wide (whether the CPU has byte masks is the caller's question). */
    static boolean supports(int fieldBits) {
        return fieldBits >= MIN_FIELD_BITS;
    }

    /**
     * Sets the selection words of the rows of the first words of {@code words} packed words (rows from 0) to
     * exactly those rows, and returns how many packed words that is: two equal halves read side by side as two
     * streams (for the reason given at {@link PackedRangeScan#countWordsPopcount}), each ending on a selection word,
     * so the caller picks up the rest at a selection word with another kernel. Fewer than two periods of
     * {@code 8 * 64 / gcd(64, rows per vector)} words are left over. Nothing past the covered selection words is
     * written.
     */
    static long selectInto(MemorySegment segment, long words, long belowLo, long belowHi, long delimiters,
                           long[] selection) {
        int perWord = Long.bitCount(delimiters);
        long period = period(perWord);
        long half = words / 2 / period * period;
        if (half == 0) {
            return 0;
        }
        Plan plan = new Plan(segment, half, perWord, delimiterBytes(delimiters), belowLo, belowHi, delimiters);
        long vectors = half / WORDS_PER_STEP;
        // A store's zero upper bytes reach 8 - perWord bytes past its rows: the last vectors of each half, whose
        // spill would land past the half, merge their bytes instead.
        long merged = Math.min(vectors, 7 / perWord);
        storeTwoStreams(plan, vectors - merged, selection);
        for (long v = vectors - merged; v < vectors; v++) {
            mergeRows(plan, v, 0, selection);
            mergeRows(plan, v, half, selection);
        }
        return 2 * half;
    }

    /**
     * ORs the matching rows of the first words of {@code words} packed words (rows from 0) into {@code selection},
     * as a query's later predicates do, and returns how many packed words that is. The overlapping stores of
     * {@link #selectInto} cannot OR, so blocks of at least {@link #OR_BLOCK_WORDS} words are selected into a scratch
     * bitmap that stays in L1 and OR-ed into the selection from there: on AVX-512 the gathering kernel that OR-ed
     * them before read 0.22-0.35 of a plain read on lineitem's horizontal columns, against 0.98-1.03 for the
     * byte masks. Each block starts a selection word; fewer than one block's words are left to the caller.
     */
    static long orInto(MemorySegment segment, long words, long belowLo, long belowHi, long delimiters,
                       long[] selection) {
        int perWord = Long.bitCount(delimiters);
        long pair = 2 * period(perWord);
        // A whole number of period pairs: selectInto then covers all of a block, both halves starting a word.
        long block = pair * Math.max(1, OR_BLOCK_WORDS / pair);
        int blockRowWords = (int) (block * perWord / 64);
        long[] scratch = new long[blockRowWords];
        long done = 0;
        for (; done + block <= words; done += block) {
            selectInto(segment.asSlice(done * Long.BYTES, block * Long.BYTES), block, belowLo, belowHi, delimiters,
                    scratch);
            int at = (int) (done * perWord >>> 6);
            for (int i = 0; i < blockRowWords; i++) {
                selection[at + i] |= scratch[i];
            }
        }
        return done;
    }

    /**
     * Packed words after which both a vector and a selection word start again: a half (or a block) of a multiple of
     * it starts a selection word (its first row is a multiple of 64) and a vector.
     */
    private static long period(int perWord) {
        return (long) WORDS_PER_STEP * 64 / gcd(64, (long) WORDS_PER_STEP * perWord);
    }

    /** The per-call constants: each vector's rows are the delimiter bytes' compare bits, compressed. */
    private record Plan(MemorySegment segment, long half, int perWord, long delimiterBytes, long belowLo,
                        long belowHi, long delimiters) {
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

    /** A vector's rows in order; the constants are the loop's own locals, broadcast once per call. */
    private static long rows(LongVector x, LongVector vLo, LongVector vHi, LongVector vDelimiters,
                             long delimiterBytes) {
        long byteMask = vHi.sub(x).lanewise(VectorOperators.XOR, vLo.sub(x)).and(vDelimiters)
                .reinterpretAsBytes().compare(VectorOperators.NE, (byte) 0).toLong();
        return Long.compress(byteMask, delimiterBytes);
    }

    /** Vectors {@code 0..vectors-1} of both halves, a vector of each a step, each stored front to back. */
    private static void storeTwoStreams(Plan plan, long vectors, long[] selection) {
        // Made here, so that C2 knows the segment's exact class at the stores instead of going by the shared access
        // code's type profile, which mixes every kind of segment the process uses.
        MemorySegment out = MemorySegment.ofArray(selection);
        int perWord = plan.perWord();
        long delimiterBytes = plan.delimiterBytes();
        LongVector vLo = LongVector.broadcast(LONGS, plan.belowLo());
        LongVector vHi = LongVector.broadcast(LONGS, plan.belowHi());
        LongVector vDelimiters = LongVector.broadcast(LONGS, plan.delimiters());
        long halfBytes = plan.half() * Long.BYTES;
        long bytes = vectors * LONGS.vectorByteSize();
        long position = 0;
        long morePosition = plan.half() * perWord / Byte.SIZE;
        for (long base = 0; base < bytes; base += PackedRangeScan.STREAM_CHUNK_BYTES) {
            int chunk = (int) Math.min(PackedRangeScan.STREAM_CHUNK_BYTES, bytes - base);
            MemorySegment one = plan.segment().asSlice(base, chunk);
            MemorySegment two = plan.segment().asSlice(halfBytes + base, chunk);
            for (int o = 0; o < chunk; o += LONGS.vectorByteSize()) {
                long rows = rows(LongVector.fromMemorySegment(LONGS, one, o, ORDER), vLo, vHi, vDelimiters,
                        delimiterBytes);
                long moreRows = rows(LongVector.fromMemorySegment(LONGS, two, o, ORDER), vLo, vHi, vDelimiters,
                        delimiterBytes);
                out.set(ValueLayout.JAVA_LONG_UNALIGNED, position, rows);
                out.set(ValueLayout.JAVA_LONG_UNALIGNED, morePosition, moreRows);
                position += perWord;
                morePosition += perWord;
            }
        }
    }

    /**
     * Vector {@code vector} of the half starting at word {@code first}: only its own {@code perWord} bytes change,
     * through the 8-byte window that ends at its half's last byte when a window from its first byte would not fit.
     */
    private static void mergeRows(Plan plan, long vector, long first, long[] selection) {
        MemorySegment out = MemorySegment.ofArray(selection);
        int perWord = plan.perWord();
        LongVector x = LongVector.fromMemorySegment(LONGS, plan.segment(),
                (first + vector * WORDS_PER_STEP) * Long.BYTES, ORDER);
        long rows = rows(x, LongVector.broadcast(LONGS, plan.belowLo()), LongVector.broadcast(LONGS, plan.belowHi()),
                LongVector.broadcast(LONGS, plan.delimiters()), plan.delimiterBytes());
        long position = (first + vector * WORDS_PER_STEP) * perWord / Byte.SIZE;
        long halfEnd = (first + plan.half()) * perWord / Byte.SIZE;
        long window = Math.min(position, halfEnd - Long.BYTES);
        int shift = (int) (position - window) * Byte.SIZE;
        long mask = ((1L << (Byte.SIZE * perWord)) - 1) << shift;
        long old = out.get(ValueLayout.JAVA_LONG_UNALIGNED, window);
        out.set(ValueLayout.JAVA_LONG_UNALIGNED, window, old & ~mask | rows << shift);
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
