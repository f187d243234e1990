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
 * <p>A block of words is done in three light loops: match words into an L1 buffer (one vector of arithmetic per 8
 * words, not per group), groups into selection words, and those stored into the selection.
 * Written as one loop, the group loop's state spilled to the stack and it ran at about half the speed. Against
 * PEXT per word (the portable kernel) this measured 11-13.5 GB/s against 7.5-8 on 4- and 6-bit codes. Splitting
 * rows by parity instead (two byte compares, two PEXTs and four PDEPs per vector) measured the same and was dropped.
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
        int blockWords = plan.blockWords;
        int groups = plan.groups;
        int[] windowWord = plan.windowWord;
        byte[] lanes = plan.laneBytes;
        byte[] bits = plan.laneBits;
        long[] matchWords = new long[blockWords + WINDOW_WORDS];
        long[] rowWords = new long[groups];
        LongVector vLo = LongVector.broadcast(LONGS, belowLo);
        LongVector vHi = LongVector.broadcast(LONGS, belowHi);
        int vectorBytes = LONGS.vectorByteSize();
        int bufferBytes = matchWords.length * Long.BYTES;
        int out = 0;
        for (long block = 0; block < words; block += blockWords) {
            MemorySegment slice = segment.asSlice(block * Long.BYTES, bufferBytes);
            for (int o = 0, w = 0; o < bufferBytes; o += vectorBytes, w += WINDOW_WORDS) {
                LongVector x = LongVector.fromMemorySegment(LONGS, slice, o, ORDER);
                vHi.sub(x).lanewise(VectorOperators.XOR, vLo.sub(x)).intoArray(matchWords, w);
            }
            for (int g = 0; g < groups; g++) {
                ByteVector window = LongVector.fromArray(LONGS, matchWords, windowWord[g]).reinterpretAsBytes();
                rowWords[g] = ByteVector.fromArray(BYTES, lanes, g << 6).selectFrom(window)
                        .and(ByteVector.fromArray(BYTES, bits, g << 6))
                        .compare(VectorOperators.NE, (byte) 0).toLong();
            }
            // groups is a multiple of the vector length (see Plan).
            for (int g = 0; g < groups; g += WINDOW_WORDS) {
                LongVector rows = LongVector.fromArray(LONGS, rowWords, g);
                (overwrite ? rows : LongVector.fromArray(LONGS, selection, out + g).or(rows))
                        .intoArray(selection, out + g);
            }
            out += groups;
        }
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
