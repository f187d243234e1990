package io.locusdb.core.storage.column;

import io.locusdb.core.cpu.KernelVariant;
import io.locusdb.core.cpu.Kernels;
import io.locusdb.core.cpu.PortableBits;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * A column's index vector: {@code count} value IDs packed per {@link PackedLayout} in an off-heap segment (bound to
 * the part's node). Random access is for materialization; scans read whole words.
 */
public final class PackedCodes {
    /** 64 code bytes, one per row of a plane word; only where such byte masks are native (else emulated, slow). */
    private static final VectorSpecies<Byte> CODE_BYTES = ByteVector.SPECIES_512;
    private static final VectorSpecies<Integer> CODE_INTS = IntVector.SPECIES_512;
    /** Half a plane word, 32 code bytes, for 256-bit vectors (AVX2 forms such masks with a shuffle and a compare). */
    private static final VectorSpecies<Byte> HALF_BYTES = ByteVector.SPECIES_256;
    private static final VectorSpecies<Integer> HALF_INTS = IntVector.SPECIES_256;
    private static final VectorSpecies<Byte> EIGHT_BYTES = ByteVector.SPECIES_64;
    /** Bit 0 of every byte: {@link Long#compress} / {@link Long#expand} move one plane bit per vertical code byte. */
    private static final long BYTE_LOW_BITS = 0x0101010101010101L;

    private final MemorySegment words;
    private final PackedLayout layout;
    private final long count;
    private final boolean vertical;
    private final int codeBits;
    private final int codesPerWord;
    private final int fieldBits;
    private final long codeMask;

    public PackedCodes(MemorySegment words, PackedLayout layout, long count) {
        if (words.byteSize() < layout.bytesFor(count)) {
            throw new IllegalArgumentException("segment of " + words.byteSize() + " bytes cannot hold " + count
                    + " codes of layout " + layout);
        }
        this.words = words;
        this.layout = layout;
        this.count = count;
        this.vertical = layout.isVertical();
        this.codeBits = layout.codeBits();
        this.codesPerWord = vertical ? 0 : layout.codesPerWord();
        this.fieldBits = vertical ? 0 : layout.fieldBits();
        this.codeMask = layout.codeMask();
    }

    public MemorySegment words() {
        return words;
    }

    public PackedLayout layout() {
        return layout;
    }

    public long count() {
        return count;
    }

    public long wordCount() {
        return layout.wordsFor(count);
    }

    /** Bytes holding codes (what a full scan reads). */
    public long byteSize() {
        return layout.bytesFor(count);
    }

    public int get(long index) {
        if (vertical) {
            long word = planeWord(index);
            int bit = (int) (index & 63);
            int code = 0;
            for (int p = 0; p < codeBits; p++) {
                code |= (int) ((words.getAtIndex(ValueLayout.JAVA_LONG, word + (long) p * PackedLayout.PLANE_WORDS)
                        >>> bit) & 1) << p;
            }
            return code;
        }
        long word = index / codesPerWord;
        int field = (int) (index - word * codesPerWord);
        long bits = words.getAtIndex(ValueLayout.JAVA_LONG, word);
        return (int) ((bits >>> (field * fieldBits)) & codeMask);
    }

    /** Codes {@code from..to-1} as a view; {@code from} a multiple of the layout's {@link PackedLayout#rowGranule}. */
    public PackedCodes slice(long from, long to) {
        if (from < 0 || to > count || from > to || from % layout.rowGranule() != 0) {
            throw new IllegalArgumentException("cannot slice codes " + from + ".." + to + " of " + count + " ("
                    + layout + ")");
        }
        return new PackedCodes(words.asSlice(layout.wordOfRow(from) * Long.BYTES, layout.bytesFor(to - from)),
                layout, to - from);
    }

    /**
     * The codes of rows {@code from..from+n-1} into {@code out[0..n-1]} (vertical layouts). Each whole 64-row word
     * is decoded in vector registers: every plane word becomes a 64-lane byte mask that ORs its bit into the rows'
     * code bytes, and the bytes are widened to ints, about 0.3 instructions a row. Without 64-lane byte masks (and at
     * the ends of the span), eight rows at a time: one {@link Long#expand} (PDEP) per plane spreads its byte of
     * those rows into the low bits of eight code bytes, or where PDEP is slow a 256-entry table does. Returns the
     * words it read.
     */
    public long unpackVertical(long from, int n, int[] out) {
        return unpackVertical(from, n, out, Kernels.verticalDecode(), Kernels.PEXT);
    }

    /**
     * {@link #unpackVertical(long, int, int[])} in the form {@code variant} (512: 64-lane byte masks; 256: two
     * 32-lane ones a word; scalar: eight rows at a time), spreading bits with PDEP or the table ({@code pdep}) where
     * eight rows are decoded at a time, whatever this CPU would choose.
     */
    public long unpackVertical(long from, int n, int[] out, KernelVariant variant, boolean pdep) {
        if (!vertical) {
            throw new IllegalStateException("unpackVertical on horizontal codes " + layout);
        }
        if (from < 0 || n < 0 || from + n > count || out.length < n) {
            throw new IndexOutOfBoundsException("rows " + from + "+" + n + " of " + count + " into " + out.length);
        }
        int i = 0;
        while (i < n && ((from + i) & 7) != 0) {
            out[i] = get(from + i);
            i++;
        }
        while (i + 8 <= n && ((from + i) & 63) != 0) {
            unpackEight(from + i, out, i, pdep);
            i += 8;
        }
        if (variant == KernelVariant.VECTOR_512) {
            MemorySegment segment = words;
            for (; i + 64 <= n; i += 64) {
                long word = planeWord(from + i);
                ByteVector codes = ByteVector.zero(CODE_BYTES);
                for (int p = 0; p < codeBits; p++) {
                    long plane = segment.getAtIndex(ValueLayout.JAVA_LONG, word + (long) p * PackedLayout.PLANE_WORDS);
                    codes = codes.lanewise(VectorOperators.OR, (byte) (1 << p), VectorMask.fromLong(CODE_BYTES, plane));
                }
                for (int part = 0; part < 4; part++) {
                    codes.convertShape(VectorOperators.ZERO_EXTEND_B2I, CODE_INTS, part)
                            .reinterpretAsInts().intoArray(out, i + part * CODE_INTS.length());
                }
            }
        }
        if (variant == KernelVariant.VECTOR_256) {
            i = unpackHalves(from, i, n, out);
        }
        for (; i + 8 <= n; i += 8) {
            unpackEight(from + i, out, i, pdep);
        }
        for (; i < n; i++) {
            out[i] = get(from + i);
        }
        // Every plane's word of each 64 rows in the span.
        return n == 0 ? 0 : (((from + n - 1) >>> 6) - (from >>> 6) + 1) * codeBits;
    }

    /**
     * Whole 64-row words from {@code out[i]} (row {@code from + i}, a multiple of 64) as two halves of 32 rows in
     * 256-bit vectors: each plane word's halves become 32-lane byte masks. Returns the index after the last word.
     */
    private int unpackHalves(long from, int i, int n, int[] out) {
        MemorySegment segment = words;
        // The widening goes through memory: a 256-bit vector's upper parts (convertShape with part > 0) need a
        // cross-lane byte shuffle that AVX2 lacks, and C2 then runs the Vector API's Java fallback, slower than
        // scalar code. Eight bytes loaded and zero-extended to eight ints is one instruction on every x86.
        byte[] bytes = new byte[64];
        for (; i + 64 <= n; i += 64) {
            long word = planeWord(from + i);
            ByteVector low = ByteVector.zero(HALF_BYTES);
            ByteVector high = low;
            for (int p = 0; p < codeBits; p++) {
                long plane = segment.getAtIndex(ValueLayout.JAVA_LONG, word + (long) p * PackedLayout.PLANE_WORDS);
                byte bit = (byte) (1 << p);
                low = low.lanewise(VectorOperators.OR, bit, VectorMask.fromLong(HALF_BYTES, plane & 0xFFFF_FFFFL));
                high = high.lanewise(VectorOperators.OR, bit, VectorMask.fromLong(HALF_BYTES, plane >>> 32));
            }
            low.intoArray(bytes, 0);
            high.intoArray(bytes, 32);
            for (int part = 0; part < 8; part++) {
                ByteVector.fromArray(EIGHT_BYTES, bytes, part * 8)
                        .convertShape(VectorOperators.ZERO_EXTEND_B2I, HALF_INTS, 0).reinterpretAsInts()
                        .intoArray(out, i + part * 8);
            }
        }
        return i;
    }

    /** Rows {@code row..row+7} ({@code row} a multiple of 8) into {@code out[at..at+7]}. */
    private void unpackEight(long row, int[] out, int at, boolean pdep) {
        long word = planeWord(row);
        int shift = (int) (row & 56);
        long bytes = 0;
        if (pdep) {
            for (int p = 0; p < codeBits; p++) {
                long plane = words.getAtIndex(ValueLayout.JAVA_LONG, word + (long) p * PackedLayout.PLANE_WORDS);
                bytes |= Long.expand((plane >>> shift) & 0xFF, BYTE_LOW_BITS << p);
            }
        } else {
            for (int p = 0; p < codeBits; p++) {
                long plane = words.getAtIndex(ValueLayout.JAVA_LONG, word + (long) p * PackedLayout.PLANE_WORDS);
                bytes |= PortableBits.spreadByte((int) (plane >>> shift)) << p;
            }
        }
        for (int b = 0; b < 8; b++) {
            out[at + b] = (int) (bytes >>> (b << 3)) & 0xFF;
        }
    }

    /** Index of the word of plane 0 that holds row {@code row}'s bit (vertical). */
    private long planeWord(long row) {
        return planeWord(row, codeBits * PackedLayout.PLANE_WORDS);
    }

    private static long planeWord(long row, int blockWords) {
        return row / PackedLayout.BLOCK_ROWS * blockWords + ((row >>> 6) & (PackedLayout.PLANE_WORDS - 1));
    }

    /** A writer that packs codes sequentially into {@code words} in {@code layout}'s packing. */
    public static Writer writer(MemorySegment words, PackedLayout layout) {
        return layout.isVertical() ? new VerticalWriter(words, layout) : new HorizontalWriter(words, layout);
    }

    /** Writes codes sequentially into a segment; codes past the last one, up to the last word it wrote, are 0. */
    public abstract static sealed class Writer permits HorizontalWriter, VerticalWriter {
        final MemorySegment words;
        final PackedLayout layout;
        final long codeMask;

        Writer(MemorySegment words, PackedLayout layout) {
            this.words = words;
            this.layout = layout;
            this.codeMask = layout.codeMask();
        }

        public abstract void add(int code);

        public abstract PackedCodes finish();

        final void check(int code) {
            if ((code & ~codeMask) != 0) {
                throw new IllegalArgumentException("code " + code + " does not fit " + layout.codeBits() + " bits");
            }
        }
    }

    /** One word store per {@code codesPerWord} codes. */
    static final class HorizontalWriter extends Writer {
        private final int codesPerWord;
        private final int fieldBits;
        /** Where a word is full: codesPerWord fields of fieldBits. */
        private final int fullShift;
        private long wordIndex;
        private long current;
        private int shift;

        HorizontalWriter(MemorySegment words, PackedLayout layout) {
            super(words, layout);
            this.codesPerWord = layout.codesPerWord();
            this.fieldBits = layout.fieldBits();
            this.fullShift = codesPerWord * fieldBits;
        }

        @Override
        public void add(int code) {
            check(code);
            current |= (long) code << shift;
            shift += fieldBits;
            if (shift == fullShift) {
                words.setAtIndex(ValueLayout.JAVA_LONG, wordIndex++, current);
                current = 0;
                shift = 0;
            }
        }

        @Override
        public PackedCodes finish() {
            long written = wordIndex * codesPerWord + shift / fieldBits;
            if (shift > 0) {
                words.setAtIndex(ValueLayout.JAVA_LONG, wordIndex++, current);
                current = 0;
                shift = 0;
            }
            return new PackedCodes(words, layout, written);
        }
    }

    /**
     * Codes gather as bytes, eight rows to a word; every eight rows one {@link Long#compress} (PEXT) per plane pulls
     * that plane's bit out of each byte (a multiply where PEXT is slow), and every 64 rows the planes' words are
     * stored. The last block is written
     * whole (its missing rows 0), since the segment may not come zeroed.
     */
    static final class VerticalWriter extends Writer {
        private final int codeBits;
        private final int blockWords;
        private final long[] planes;
        private long rows;
        private long pending;

        VerticalWriter(MemorySegment words, PackedLayout layout) {
            super(words, layout);
            this.codeBits = layout.codeBits();
            this.blockWords = layout.blockWords();
            this.planes = new long[codeBits];
        }

        @Override
        public void add(int code) {
            check(code);
            pending |= (long) code << ((rows & 7) << 3);
            rows++;
            if ((rows & 7) == 0) {
                spreadPending();
                if ((rows & 63) == 0) {
                    storePlanes();
                }
            }
        }

        /** The pending rows' bits into their byte of each plane word. */
        private void spreadPending() {
            int shift = (int) ((rows - 1) & 56);
            if (Kernels.PEXT) {
                for (int p = 0; p < codeBits; p++) {
                    planes[p] |= Long.compress(pending, BYTE_LOW_BITS << p) << shift;
                }
            } else {
                for (int p = 0; p < codeBits; p++) {
                    planes[p] |= (long) PortableBits.gatherByteLowBits(pending >>> p) << shift;
                }
            }
            pending = 0;
        }

        /** The plane words of the 64 rows that hold the last row added. */
        private void storePlanes() {
            long word = planeWord(rows - 1, blockWords);
            for (int p = 0; p < codeBits; p++) {
                words.setAtIndex(ValueLayout.JAVA_LONG, word + (long) p * PackedLayout.PLANE_WORDS, planes[p]);
                planes[p] = 0;
            }
        }

        @Override
        public PackedCodes finish() {
            if ((rows & 7) != 0) {
                spreadPending();
            }
            if ((rows & 63) != 0) {
                storePlanes();
            }
            if ((rows & (PackedLayout.BLOCK_ROWS - 1)) != 0) {
                long last = rows - 1;
                long blockStart = last / PackedLayout.BLOCK_ROWS * blockWords;
                for (int w = (int) ((last >>> 6) & (PackedLayout.PLANE_WORDS - 1)) + 1; w < PackedLayout.PLANE_WORDS;
                     w++) {
                    for (int p = 0; p < codeBits; p++) {
                        words.setAtIndex(ValueLayout.JAVA_LONG, blockStart + (long) p * PackedLayout.PLANE_WORDS + w,
                                0L);
                    }
                }
            }
            return new PackedCodes(words, layout, rows);
        }
    }
}
