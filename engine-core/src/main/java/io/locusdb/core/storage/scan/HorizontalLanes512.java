package io.locusdb.core.storage.scan;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector loops of {@link PackedRangeScan} on 512-bit vectors, and the count with a popcount per lane (VPOPCNTQ,
 * AVX-512 only). {@link HorizontalLanes256} has the same loops on 256-bit ones: C2 turns Vector API calls into
 * instructions only where the species is a constant of the compiled method, so each width is a class of its own
 * with a {@code static final} species (see {@link HorizontalLanes256}). Apart from the popcount count, the two files
 * differ only in the species.
 */
final class HorizontalLanes512 {
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_512;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static final int UNROLL = 4;

    private HorizontalLanes512() {
    }

    static long countFields(MemorySegment segment, long words, long codeBits, long delimiters, long lo,
                            long hiPlusOne) {
        int bits = Long.numberOfTrailingZeros(delimiters);
        int fieldBits = bits + 1;
        if (fieldBits < PackedRangeScan.MIN_VECTOR_FIELD_BITS) {
            return PackedRangeScan.countWordsScalar(segment, 0, words, codeBits, delimiters, lo, hiPlusOne);
        }
        int fields = 64 / fieldBits;
        int stepBytes = UNROLL * LONGS.vectorByteSize();
        int blockSteps = (int) Math.min(((1L << fieldBits) - 1) / UNROLL, PackedRangeScan.CHUNK_BYTES / stepBytes);
        int blockBytes = blockSteps * stepBytes;
        long vectorBytes = words * Long.BYTES - words * Long.BYTES % stepBytes;
        LongVector vLo = LongVector.broadcast(LONGS, codeBits + lo);
        LongVector vHi = LongVector.broadcast(LONGS, codeBits + hiPlusOne);
        LongVector vDelimiters = LongVector.broadcast(LONGS, delimiters);
        int v1 = LONGS.vectorByteSize();
        int v2 = 2 * v1;
        int v3 = 3 * v1;
        LongVector total = LongVector.zero(LONGS);
        for (long base = 0; base < vectorBytes; base += PackedRangeScan.CHUNK_BYTES) {
            int chunk = (int) Math.min(PackedRangeScan.CHUNK_BYTES, vectorBytes - base);
            MemorySegment slice = segment.asSlice(base, chunk);
            for (int block = 0; block < chunk; block += blockBytes) {
                int end = Math.min(block + blockBytes, chunk);
                LongVector a0 = LongVector.zero(LONGS);
                LongVector a1 = a0;
                LongVector a2 = a0;
                LongVector a3 = a0;
                for (int o = block; o < end; o += stepBytes) {
                    LongVector x0 = LongVector.fromMemorySegment(LONGS, slice, o, ORDER);
                    LongVector x1 = LongVector.fromMemorySegment(LONGS, slice, o + v1, ORDER);
                    LongVector x2 = LongVector.fromMemorySegment(LONGS, slice, o + v2, ORDER);
                    LongVector x3 = LongVector.fromMemorySegment(LONGS, slice, o + v3, ORDER);
                    a0 = a0.add(vHi.sub(x0).lanewise(VectorOperators.XOR, vLo.sub(x0)).and(vDelimiters)
                            .lanewise(VectorOperators.LSHR, bits));
                    a1 = a1.add(vHi.sub(x1).lanewise(VectorOperators.XOR, vLo.sub(x1)).and(vDelimiters)
                            .lanewise(VectorOperators.LSHR, bits));
                    a2 = a2.add(vHi.sub(x2).lanewise(VectorOperators.XOR, vLo.sub(x2)).and(vDelimiters)
                            .lanewise(VectorOperators.LSHR, bits));
                    a3 = a3.add(vHi.sub(x3).lanewise(VectorOperators.XOR, vLo.sub(x3)).and(vDelimiters)
                            .lanewise(VectorOperators.LSHR, bits));
                }
                LongVector a = a0.add(a1).add(a2.add(a3));
                for (int width = fieldBits; width < fields * fieldBits; width <<= 1) {
                    long even = PackedRangeScan.evenSlots(width);
                    a = a.and(even).add(a.lanewise(VectorOperators.LSHR, width).and(even));
                }
                total = total.add(a);
            }
        }
        long count = total.reduceLanes(VectorOperators.ADD);
        return count + PackedRangeScan.countWordsScalar(segment, vectorBytes / Long.BYTES, words, codeBits,
                delimiters, lo, hiPlusOne);
    }

    /**
     * The count with a popcount per lane, reading the column as two streams (its halves); see
     * {@link PackedRangeScan#countWordsPopcount}.
     */
    static long countPopcount(MemorySegment segment, long words, long codeBits, long delimiters, long lo,
                              long hiPlusOne) {
        LongVector vLo = LongVector.broadcast(LONGS, codeBits + lo);
        LongVector vHi = LongVector.broadcast(LONGS, codeBits + hiPlusOne);
        LongVector vDelimiters = LongVector.broadcast(LONGS, delimiters);
        int v1 = LONGS.vectorByteSize();
        int stepBytes = 2 * v1;
        long halfBytes = words * Long.BYTES / 2 / stepBytes * stepBytes;
        LongVector a0 = LongVector.zero(LONGS);
        LongVector a1 = a0;
        LongVector a2 = a0;
        LongVector a3 = a0;
        for (long base = 0; base < halfBytes; base += PackedRangeScan.STREAM_CHUNK_BYTES) {
            int chunk = (int) Math.min(PackedRangeScan.STREAM_CHUNK_BYTES, halfBytes - base);
            MemorySegment first = segment.asSlice(base, chunk);
            MemorySegment second = segment.asSlice(halfBytes + base, chunk);
            for (int o = 0; o < chunk; o += stepBytes) {
                LongVector x0 = LongVector.fromMemorySegment(LONGS, first, o, ORDER);
                LongVector x1 = LongVector.fromMemorySegment(LONGS, first, o + v1, ORDER);
                LongVector x2 = LongVector.fromMemorySegment(LONGS, second, o, ORDER);
                LongVector x3 = LongVector.fromMemorySegment(LONGS, second, o + v1, ORDER);
                a0 = a0.add(vHi.sub(x0).lanewise(VectorOperators.XOR, vLo.sub(x0)).and(vDelimiters)
                        .lanewise(VectorOperators.BIT_COUNT));
                a1 = a1.add(vHi.sub(x1).lanewise(VectorOperators.XOR, vLo.sub(x1)).and(vDelimiters)
                        .lanewise(VectorOperators.BIT_COUNT));
                a2 = a2.add(vHi.sub(x2).lanewise(VectorOperators.XOR, vLo.sub(x2)).and(vDelimiters)
                        .lanewise(VectorOperators.BIT_COUNT));
                a3 = a3.add(vHi.sub(x3).lanewise(VectorOperators.XOR, vLo.sub(x3)).and(vDelimiters)
                        .lanewise(VectorOperators.BIT_COUNT));
            }
        }
        long count = a0.add(a1).add(a2.add(a3)).reduceLanes(VectorOperators.ADD);
        return count + PackedRangeScan.countWordsScalar(segment, 2 * halfBytes / Long.BYTES, words, codeBits,
                delimiters, lo, hiPlusOne);
    }

    /** The match words of {@code chunk} bytes of {@code slice} (a multiple of the vector size) into {@code out}. */
    static void matches(MemorySegment slice, int chunk, long belowLo, long belowHi, long delimiters, long[] out) {
        LongVector vLo = LongVector.broadcast(LONGS, belowLo);
        LongVector vHi = LongVector.broadcast(LONGS, belowHi);
        LongVector vDelimiters = LongVector.broadcast(LONGS, delimiters);
        for (int o = 0, w = 0; o < chunk; o += LONGS.vectorByteSize(), w += LONGS.length()) {
            LongVector x = LongVector.fromMemorySegment(LONGS, slice, o, ORDER);
            vHi.sub(x).lanewise(VectorOperators.XOR, vLo.sub(x)).and(vDelimiters).intoArray(out, w);
        }
    }

    /**
     * Each word's row bits (its matches gathered as by {@link io.locusdb.core.cpu.PortableBits#gatherDelimiters},
     * fields of 8 bits and more) into {@code out}: the match, shifted down to the fields' low bits, times the
     * gather multiplier, shifted and masked: no PEXT.
     */
    static void rowBits(MemorySegment slice, int chunk, long belowLo, long belowHi, long delimiters, int fieldBits,
                        long multiplier, int shift, long[] out) {
        LongVector vLo = LongVector.broadcast(LONGS, belowLo);
        LongVector vHi = LongVector.broadcast(LONGS, belowHi);
        LongVector vDelimiters = LongVector.broadcast(LONGS, delimiters);
        LongVector vMultiplier = LongVector.broadcast(LONGS, multiplier);
        long rowMask = (1L << (64 / fieldBits)) - 1;
        int down = fieldBits - 1;
        for (int o = 0, w = 0; o < chunk; o += LONGS.vectorByteSize(), w += LONGS.length()) {
            LongVector x = LongVector.fromMemorySegment(LONGS, slice, o, ORDER);
            vHi.sub(x).lanewise(VectorOperators.XOR, vLo.sub(x)).and(vDelimiters)
                    .lanewise(VectorOperators.LSHR, down).mul(vMultiplier)
                    .lanewise(VectorOperators.LSHR, shift).and(rowMask).intoArray(out, w);
        }
    }
}
