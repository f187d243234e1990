package io.locusdb.core.cpu;

/**
 * Bit moves that the scan and decode kernels otherwise do with PEXT ({@link Long#compress}) and PDEP
 * ({@link Long#expand}), written with shifts, multiplies and a small table. On CPUs where PEXT/PDEP are microcoded
 * (AMD before Zen 3: about 20 popcounts' time each, more with more mask bits) these are the fast way; elsewhere
 * PEXT/PDEP are one instruction and win.
 */
public final class PortableBits {
    /** Bit 0 of byte {@code k} is bit {@code k} of the index: the eight bits of a byte spread one per byte. */
    private static final long[] SPREAD = spreadTable();
    /**
     * Per field width: the multiplier that gathers a whole word's fields where one multiply does, else a group of
     * {@code fieldBits} fields (computed once, not per word: a loop per call measured at a tenth of the speed).
     */
    private static final long[] MULTIPLIERS = new long[65];
    private static final int[] SHIFTS = new int[65];

    static {
        for (int fieldBits = 2; fieldBits <= 64; fieldBits++) {
            int fields = Math.min(64 / fieldBits, fieldBits);
            int c = (fields - 1) * (fieldBits - 1);
            long multiplier = 0;
            for (int j = 0; j < fields; j++) {
                multiplier |= 1L << (c - j * (fieldBits - 1));
            }
            MULTIPLIERS[fieldBits] = multiplier;
            SHIFTS[fieldBits] = c;
        }
    }

    private PortableBits() {
    }

    /**
     * Whether one multiply gathers the delimiter bits of a word of {@code fieldBits}-bit fields (see
     * {@link #gatherMultiplier}): it does when no field is narrower than the number of fields in a word, that is
     * from 8-bit fields up.
     */
    public static boolean gathersWithOneMultiply(int fieldBits) {
        return fieldBits >= 64 / fieldBits;
    }

    /**
     * The multiplier that moves bit {@code i * f} of a word (field {@code i}'s lowest bit, for {@code n = 64 / f}
     * fields) to bit {@code c + i}, {@code c = (n - 1)(f - 1)}: the sum of {@code 2^(c - j(f - 1))}. Term
     * {@code (i, j)} lands at {@code c + i f - j (f - 1)}; these positions are all distinct (as {@code f} and
     * {@code f - 1} are coprime and {@code i, j < n <= f}), so the product has no carries, and the terms with
     * {@code i != j} land below {@code c} or at {@code c + f} and above, never in {@code c..c + n - 1} when
     * {@code f >= n}. Bits past 63 fall off, and {@code c + n - 1 = (n - 1) f < 64}. For {@code f < n} it is the
     * multiplier of a group of {@code f} fields.
     */
    public static long gatherMultiplier(int fieldBits) {
        return MULTIPLIERS[fieldBits];
    }

    /** Where {@link #gatherMultiplier}'s product holds the gathered bits. */
    public static int gatherShift(int fieldBits) {
        return SHIFTS[fieldBits];
    }

    /**
     * {@code Long.compress(match, delimiters)} for {@code match} with bits only at the delimiters (the top bit of
     * each {@code fieldBits}-bit field): field {@code i}'s bit becomes bit {@code i}. Fields of 8 bits and more take
     * one multiply; narrower ones are gathered in groups of {@code fieldBits} fields, one multiply each.
     */
    public static long gatherDelimiters(long match, int fieldBits) {
        int n = 64 / fieldBits;
        long low = match >>> (fieldBits - 1);
        long multiplier = MULTIPLIERS[fieldBits];
        int shift = SHIFTS[fieldBits];
        if (fieldBits >= n) {
            return (low * multiplier) >>> shift & ((1L << n) - 1);
        }
        int groupBits = fieldBits * fieldBits;
        long groupMask = (1L << groupBits) - 1;
        long groupRows = (1L << fieldBits) - 1;
        long rows = 0;
        for (int first = 0; first < n; first += fieldBits) {
            long group = (low >>> (first * fieldBits)) & groupMask;
            rows |= ((group * multiplier) >>> shift & groupRows) << first;
        }
        return rows & (n == 64 ? -1L : (1L << n) - 1);
    }

    /** {@code Long.expand(bits & 0xFF, 0x0101010101010101L)}: bit k of {@code bits} to bit 0 of byte k. */
    public static long spreadByte(int bits) {
        return SPREAD[bits & 0xFF];
    }

    /** {@code Long.compress(x, 0x0101010101010101L)}: bit 0 of byte k to bit k (one multiply, no carries). */
    public static int gatherByteLowBits(long x) {
        return (int) (((x & 0x0101010101010101L) * 0x0102040810204080L) >>> 56);
    }

    private static long[] spreadTable() {
        long[] table = new long[256];
        for (int b = 0; b < 256; b++) {
            long spread = 0;
            for (int k = 0; k < 8; k++) {
                spread |= (long) ((b >>> k) & 1) << (8 * k);
            }
            table[b] = spread;
        }
        return table;
    }
}
