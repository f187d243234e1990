package io.locusdb.core.query.agg;

import io.locusdb.core.cpu.KernelVariant;
import io.locusdb.core.cpu.Kernels;
import io.locusdb.core.query.expr.Numerics;
import java.util.Arrays;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Per-group sums of a batch for tables with few groups (TPC-H Q1 has four). Two costs of the plain
 * {@code sums[groups[i]] += values[i]} loop are removed:
 * <ul>
 * <li>consecutive rows of one group form a chain of store-to-load forwarding through one array element (about five
 * cycles a row); here rows go round-robin to four lanes per group, so neighbouring rows never wait on each other;
 * <li>an overflow check per row: when the batch's largest magnitude times its row count fits in 62 bits, no sum of
 * its rows can overflow, so rows are added unchecked and only each group's batch total is added to the running sum
 * with a check. Otherwise every row is checked as before.
 * </ul>
 * Up to {@link #FEW_GROUPS} groups (without NULLs) are summed with vectors instead: one masked add per group and
 * vector of rows, no stores at all until the batch is done.
 */
public final class GroupedSums {
    static final int LANES = 4;
    /** Above this many groups the lanes cost more to clear and fold than the chains cost. */
    static final int MAX_GROUPS = 256;
    static final int FEW_GROUPS = 4;
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;
    /** Group numbers are ints: as many int lanes as long lanes, so a comparison's mask selects long lanes. */
    private static final VectorSpecies<Integer> INTS = LONGS.length() >= 2
            ? VectorSpecies.of(int.class, VectorShape.forBitSize(LONGS.vectorBitSize() / 2)) : null;
    /**
     * The masked-add form runs at the JVM's preferred width (a forced 512 or 256 does not change it); the scalar
     * form ({@link Kernels#GROUPED_SUMS}) is the lanes loop for every group count.
     */
    private static final boolean VECTORS = INTS != null && Kernels.GROUPED_SUMS != KernelVariant.SCALAR;

    private GroupedSums() {
    }

    /** Scratch for {@code groups} groups' lanes, reusing {@code lanes} when it is large enough. */
    static long[] lanes(long[] lanes, int groups) {
        int needed = groups * LANES;
        if (lanes.length < needed) {
            return new long[needed];
        }
        Arrays.fill(lanes, 0, needed, 0L);
        return lanes;
    }

    /** Whether the values of the rows (NULL rows as 0) can be added in any order without overflowing. */
    static boolean bounded(long[] values, boolean[] nulls, int rows) {
        long bits = 0;
        if (nulls == null) {
            for (int i = 0; i < rows; i++) {
                long v = values[i];
                bits |= v ^ (v >> 63);
            }
        } else {
            for (int i = 0; i < rows; i++) {
                long v = nulls[i] ? 0 : values[i];
                bits |= v ^ (v >> 63);
            }
        }
        // |v| <= 2^valueBits for every row, so the sum of fewer than 2^rowBits rows is below 2^(valueBits+rowBits).
        int valueBits = 64 - Long.numberOfLeadingZeros(bits);
        int rowBits = 32 - Integer.numberOfLeadingZeros(rows);
        return valueBits + rowBits <= 62;
    }

    /**
     * Adds the rows' values (skipping NULL rows when {@code nulls} is given) to their groups' sums; groups are below
     * {@code groupCount}. Overflow of a sum is an error.
     */
    static long[] addExact(long[] sums, int groupCount, int[] groups, long[] values, boolean[] nulls, int rows,
                           long[] scratch) {
        if (groupCount > MAX_GROUPS || !bounded(values, nulls, rows)) {
            if (nulls == null) {
                for (int i = 0; i < rows; i++) {
                    sums[groups[i]] = Numerics.addExact(sums[groups[i]], values[i]);
                }
            } else {
                for (int i = 0; i < rows; i++) {
                    if (!nulls[i]) {
                        sums[groups[i]] = Numerics.addExact(sums[groups[i]], values[i]);
                    }
                }
            }
            return scratch;
        }
        if (nulls == null && groupCount <= FEW_GROUPS && VECTORS && Kernels.vectorsReady()) {
            addFew(sums, groupCount, groups, values, rows);
            return scratch;
        }
        long[] lanes = lanes(scratch, groupCount);
        int i = 0;
        if (nulls == null) {
            for (; i + 3 < rows; i += 4) {
                lanes[groups[i] * LANES] += values[i];
                lanes[groups[i + 1] * LANES + 1] += values[i + 1];
                lanes[groups[i + 2] * LANES + 2] += values[i + 2];
                lanes[groups[i + 3] * LANES + 3] += values[i + 3];
            }
            for (; i < rows; i++) {
                lanes[groups[i] * LANES] += values[i];
            }
        } else {
            for (; i + 3 < rows; i += 4) {
                lanes[groups[i] * LANES] += nulls[i] ? 0 : values[i];
                lanes[groups[i + 1] * LANES + 1] += nulls[i + 1] ? 0 : values[i + 1];
                lanes[groups[i + 2] * LANES + 2] += nulls[i + 2] ? 0 : values[i + 2];
                lanes[groups[i + 3] * LANES + 3] += nulls[i + 3] ? 0 : values[i + 3];
            }
            for (; i < rows; i++) {
                lanes[groups[i] * LANES] += nulls[i] ? 0 : values[i];
            }
        }
        for (int g = 0; g < groupCount; g++) {
            int l = g * LANES;
            long batch = lanes[l] + lanes[l + 1] + lanes[l + 2] + lanes[l + 3];
            if (batch != 0) {
                sums[g] = Numerics.addExact(sums[g], batch);
            }
        }
        return lanes;
    }

    /** Sums of at most four groups, whose sums of these rows cannot overflow ({@link #bounded}). */
    private static void addFew(long[] sums, int groupCount, int[] groups, long[] values, int rows) {
        LongVector a0 = LongVector.zero(LONGS);
        LongVector a1 = a0;
        LongVector a2 = a0;
        LongVector a3 = a0;
        int bound = LONGS.loopBound(rows);
        int i = 0;
        for (; i < bound; i += LONGS.length()) {
            // Widened to longs once (one instruction), so the comparisons' masks are long masks without casts.
            LongVector g = (LongVector) IntVector.fromArray(INTS, groups, i)
                    .convertShape(VectorOperators.I2L, LONGS, 0);
            LongVector v = LongVector.fromArray(LONGS, values, i);
            a0 = a0.add(v, g.eq(0L));
            a1 = a1.add(v, g.eq(1L));
            a2 = a2.add(v, g.eq(2L));
            a3 = a3.add(v, g.eq(3L));
        }
        long s0 = a0.reduceLanes(VectorOperators.ADD);
        long s1 = a1.reduceLanes(VectorOperators.ADD);
        long s2 = a2.reduceLanes(VectorOperators.ADD);
        long s3 = a3.reduceLanes(VectorOperators.ADD);
        for (; i < rows; i++) {
            long v = values[i];
            switch (groups[i]) {
                case 0 -> s0 += v;
                case 1 -> s1 += v;
                case 2 -> s2 += v;
                default -> s3 += v;
            }
        }
        addTo(sums, 0, groupCount, s0);
        addTo(sums, 1, groupCount, s1);
        addTo(sums, 2, groupCount, s2);
        addTo(sums, 3, groupCount, s3);
    }

    private static void countFew(long[] counts, int groupCount, int[] groups, int rows) {
        long c0 = 0;
        long c1 = 0;
        long c2 = 0;
        int bound = INTS.loopBound(rows);
        int i = 0;
        for (; i < bound; i += INTS.length()) {
            IntVector g = IntVector.fromArray(INTS, groups, i);
            c0 += g.eq(0).trueCount();
            c1 += g.eq(1).trueCount();
            c2 += g.eq(2).trueCount();
        }
        for (; i < rows; i++) {
            int g = groups[i];
            c0 += g == 0 ? 1 : 0;
            c1 += g == 1 ? 1 : 0;
            c2 += g == 2 ? 1 : 0;
        }
        long c3 = (rows - c0) - c1 - c2;
        counts[0] += c0;
        if (groupCount > 1) {
            counts[1] += c1;
        }
        if (groupCount > 2) {
            counts[2] += c2;
        }
        if (groupCount > 3) {
            counts[3] += c3;
        }
    }

    /**
     * Sums and counts {@code values} into the four groups {@code groups} names (0..3), in the vector form or the
     * scalar one, whatever the kernel setting: what a warm-up runs so that the JIT compiles the vector form before
     * queries need it (and what it is timed against). Returns a checksum.
     */
    public static long exercise(int[] groups, long[] values, boolean vectors) {
        long[] sums = new long[FEW_GROUPS];
        long[] counts = new long[FEW_GROUPS];
        int rows = values.length;
        if (vectors && VECTORS) {
            addFew(sums, FEW_GROUPS, groups, values, rows);
            countFew(counts, FEW_GROUPS, groups, rows);
        } else {
            for (int i = 0; i < rows; i++) {
                sums[groups[i]] += values[i];
                counts[groups[i]]++;
            }
        }
        return sums[0] + sums[1] + sums[2] + sums[3] + counts[0] + counts[3];
    }

    private static void addTo(long[] sums, int g, int groupCount, long batch) {
        if (g < groupCount && batch != 0) {
            sums[g] = Numerics.addExact(sums[g], batch);
        }
    }

    /** Counts the rows of each group into {@code counts}. */
    static long[] count(long[] counts, int groupCount, int[] groups, int rows, long[] scratch) {
        if (groupCount <= FEW_GROUPS && VECTORS && Kernels.vectorsReady()) {
            countFew(counts, groupCount, groups, rows);
            return scratch;
        }
        if (groupCount > MAX_GROUPS) {
            for (int i = 0; i < rows; i++) {
                counts[groups[i]]++;
            }
            return scratch;
        }
        long[] lanes = lanes(scratch, groupCount);
        int i = 0;
        for (; i + 3 < rows; i += 4) {
            lanes[groups[i] * LANES]++;
            lanes[groups[i + 1] * LANES + 1]++;
            lanes[groups[i + 2] * LANES + 2]++;
            lanes[groups[i + 3] * LANES + 3]++;
        }
        for (; i < rows; i++) {
            lanes[groups[i] * LANES]++;
        }
        for (int g = 0; g < groupCount; g++) {
            int l = g * LANES;
            counts[g] += lanes[l] + lanes[l + 1] + lanes[l + 2] + lanes[l + 3];
        }
        return lanes;
    }
}
