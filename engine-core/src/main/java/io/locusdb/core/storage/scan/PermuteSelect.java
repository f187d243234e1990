package io.locusdb.core.storage.scan;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The select kernel of {@link PackedRangeScan} for fields under 8 bits (9 to 32 codes a word), where a byte may hold
 * two delimiters, so a byte compare cannot tell rows apart. It works in groups of 64 rows, one selection word each:
 * the 64 delimiters of a group lie within 8 consecutive words (64 bytes, as {@code k >= 9} codes a word), so one
 * byte permute (VPERMB) brings, for every row, the byte holding its delimiter to the row's lane, and a compare with
 * each lane's bit turns the 64 lanes into the selection word. Where a group's window starts, and each lane's byte
 * and bit, repeat with the packing's period; they are computed once per field width as a {@link Plan}.
 *
 * <p>Match words are computed a vector (8 words) at a time into an L1 buffer, not per group. A block's groups are
 * computed from its buffer while the next block's match words are computed into a second one, a vector per group in
 * the same loop, so the next block's loads are in flight while this block's groups compute. With the two as
 * separate loops (match, then groups) the loads and the compute did not overlap: per group of 5-bit codes, the
 * match loop alone took 1.5 ns (memory-bound), the group loop alone 1.65 ns, and both 3.0 ns. The overlapped form
 * measured 15-20% faster on 5- and 7-bit codes selected in turn with wider columns (data from memory). Every other
 * arrangement tried was slower: matches and groups in one loop of variable trip counts, two-vector permutes
 * (VPERMI2B) straight from the column without a buffer, loads spread evenly over all groups with a branch, and
 * smaller blocks. Against PEXT per word (the portable kernel) the permute kernel measured 11-13.5 GB/s against
 * 7.5-8; splitting rows by parity instead (two byte compares, two PEXTs and four PDEPs per vector) measured the
 * same as the permute and was dropped.
 */
final class PermuteSelect {
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_512;
    private static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_512;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    static final int MAX_FIELD_BITS = 7;
    /** A group's window: the 8 words (one vector) that hold all of its 64 delimiters. */
    private static final int WINDOW_WORDS = 8;
    private static final Plan[] PLANS = new Plan[MAX_FIELD_BITS + 1];

    static {
        for (int fieldBits = 2; fieldBits <= MAX_FIELD_BITS; fieldBits++) {
            PLANS[fieldBits] = new Plan(fieldBits);
        }
    }

    private PermuteSelect() {
    }

    static boolean supports(int fieldBits) {
        return CpuFeatures.BYTE_PERMUTES && fieldBits <= MAX_FIELD_BITS;
    }

    /**
     * The words of a column of {@code words} words this kernel does: whole blocks whose windows stay inside the
     * column. It is always a multiple of 64 rows.
     */
    static long coveredWords(int fieldBits, long words) {
        int blockWords = PLANS[fieldBits].blockWords;
        return Math.max(0, (words - WINDOW_WORDS) / blockWords) * blockWords;
    }

    /**
     * Writes the row bits of the first {@code words} packed words (a value of {@link #coveredWords}) into
     * {@code selection} from row 0: OR-ed into what is there, or with {@code overwrite} in place of it.
     */
    static void select(MemorySegment segment, long words, long belowLo, long belowHi, long delimiters,
                       long[] selection, boolean overwrite) {
        Plan plan = PLANS[Long.numberOfTrailingZeros(delimiters) + 1];
        long blocks = words / plan.blockWords;
        if (blocks == 0) {
            return;
        }
        int blockWords = plan.blockWords;
        int groups = plan.groups;
        int[] windowWord = plan.windowWord;
        byte[] lanes = plan.laneBytes;
        byte[] bits = plan.laneBits;
        // A block's match words and the first vector of the next block, which its last windows reach into.
        int bufferWords = blockWords + WINDOW_WORDS;
        int vectors = bufferWords / WINDOW_WORDS;
        long[] matchWords = new long[2 * bufferWords];
        long[] rowWords = new long[groups];
        LongVector vLo = LongVector.broadcast(LONGS, belowLo);
        LongVector vHi = LongVector.broadcast(LONGS, belowHi);
        int vectorBytes = LONGS.vectorByteSize();
        int bufferBytes = bufferWords * Long.BYTES;
        MemorySegment first = segment.asSlice(0, bufferBytes);
        for (int v = 0; v < vectors; v++) {
            LongVector x = LongVector.fromMemorySegment(LONGS, first, (long) v * vectorBytes, ORDER);
            vHi.sub(x).lanewise(VectorOperators.XOR, vLo.sub(x)).intoArray(matchWords, v * WINDOW_WORDS);
        }
        int out = 0;
        for (long block = 0; block < blocks; block++) {
            int current = (int) (block & 1) * bufferWords;
            int next = bufferWords - current;
            int g = 0;
            if (block + 1 < blocks) {
                // The next block's matches are computed in the same loop as this block's first groups, one vector
                // a group: its loads are then in flight while groups compute (see the class comment).
                MemorySegment slice = segment.asSlice((block + 1) * blockWords * Long.BYTES, bufferBytes);
                for (; g < vectors; g++) {
                    LongVector x = LongVector.fromMemorySegment(LONGS, slice, (long) g * vectorBytes, ORDER);
                    vHi.sub(x).lanewise(VectorOperators.XOR, vLo.sub(x))
                            .intoArray(matchWords, next + g * WINDOW_WORDS);
                    rowWords[g] = rowWord(matchWords, current + windowWord[g], lanes, bits, g);
                }
            }
            for (; g < groups; g++) {
                rowWords[g] = rowWord(matchWords, current + windowWord[g], lanes, bits, g);
            }
            // groups is a multiple of the vector length (see Plan).
            for (int w = 0; w < groups; w += WINDOW_WORDS) {
                LongVector rows = LongVector.fromArray(LONGS, rowWords, w);
                (overwrite ? rows : LongVector.fromArray(LONGS, selection, out + w).or(rows))
                        .intoArray(selection, out + w);
            }
            out += groups;
        }
    }

    /** Group {@code g}'s selection word, from its window of match words starting at {@code window}. */
    private static long rowWord(long[] matchWords, int window, byte[] lanes, byte[] bits, int g) {
        ByteVector bytes = LongVector.fromArray(LONGS, matchWords, window).reinterpretAsBytes();
        return ByteVector.fromArray(BYTES, lanes, g << 6).selectFrom(bytes)
                .and(ByteVector.fromArray(BYTES, bits, g << 6))
                .compare(VectorOperators.NE, (byte) 0).toLong();
    }

    /**
     * The layout of one block for a field width: {@code blockWords} words holding {@code groups} groups of 64 rows,
     * a whole number of the packing's periods (its rows a multiple of 64 and of the codes a word), with
     * {@code groups} a multiple of 8 and at least 64 so the loops run long. Per group: the first word of its window,
     * and per lane (row) the byte of the window and the bit in it that hold the row's delimiter.
     */
    static final class Plan {
        final int blockWords;
        final int groups;
        final int[] windowWord;
        final byte[] laneBytes;
        final byte[] laneBits;

        Plan(int fieldBits) {
            int perWord = 64 / fieldBits;
            int periodGroups = perWord / gcd(64, perWord);
            groups = WINDOW_WORDS * periodGroups * ((WINDOW_WORDS + periodGroups - 1) / periodGroups);
            blockWords = groups * 64 / perWord;
            if (blockWords / WINDOW_WORDS + 1 > groups) {
                // select computes one vector of the next block's matches per group of this block.
                throw new IllegalStateException("a block of " + fieldBits + "-bit fields has fewer groups than vectors");
            }
            windowWord = new int[groups];
            laneBytes = new byte[groups * 64];
            laneBits = new byte[groups * 64];
            for (int g = 0; g < groups; g++) {
                int first = g * 64;
                windowWord[g] = first / perWord;
                for (int lane = 0; lane < 64; lane++) {
                    int row = first + lane;
                    int bit = (row / perWord - windowWord[g]) * 64 + (row % perWord) * fieldBits + fieldBits - 1;
                    if (bit >= WINDOW_WORDS * 64) {
                        throw new IllegalStateException("row " + row + " lies outside its group's window");
                    }
                    laneBytes[g * 64 + lane] = (byte) (bit >>> 3);
                    laneBits[g * 64 + lane] = (byte) (1 << (bit & 7));
                }
            }
        }

        private static int gcd(int a, int b) {
            return b == 0 ? a : gcd(b, a % b);
        }
    }
}
