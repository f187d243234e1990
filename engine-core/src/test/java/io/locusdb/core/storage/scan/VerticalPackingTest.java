package io.locusdb.core.storage.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.cpu.KernelVariant;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.column.PackedLayout;
import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.memory.NodeMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Vertically packed codes (BitWeaving/V): 512-row blocks of one plane per code bit. The writer, row access, bulk
 * decoding, slices and both count paths and select modes of the kernel must agree with the codes written, at row
 * counts on each side of a selection word, a block and a kernel slice.
 */
class VerticalPackingTest {
    private static final long GARBAGE = 0x5A5A_5A5A_5A5A_5A5AL;
    private final NodeMemory memory = TestStorage.memory();
    private final Random random = new Random(23);

    @Test
    void codesOfUpToEightBitsArePackedVerticallyAtExactlyTheirWidthAndWiderOnesHorizontally() {
        assertThat(PackedLayout.forDistinctValues(11)).isEqualTo(PackedLayout.vertical(4));
        assertThat(PackedLayout.forDistinctValues(255)).isEqualTo(PackedLayout.vertical(8));
        assertThat(PackedLayout.forDistinctValues(256)).isEqualTo(PackedLayout.horizontal(9));
        PackedLayout four = PackedLayout.vertical(4);
        assertThat(four.bytesFor(2 * PackedLayout.BLOCK_ROWS)).isEqualTo(2L * PackedLayout.BLOCK_ROWS * 4 / 8);
        assertThat(four.bytesFor(1)).as("a started block is whole").isEqualTo(PackedLayout.BLOCK_ROWS * 4 / 8);
        assertThat(four.rowGranule()).isEqualTo(PackedLayout.BLOCK_ROWS);
        assertThatThrownBy(() -> PackedLayout.vertical(9)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 8 bits");
        assertThatThrownBy(four::fieldBits).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theWriterDefinesEveryWordOfTheLastBlockOnMemoryThatHeldGarbage() {
        try (Arena arena = Arena.ofConfined()) {
            for (int bits = 1; bits <= PackedLayout.MAX_VERTICAL_CODE_BITS; bits++) {
                Codes codes = codes(PackedLayout.vertical(bits), 700, arena);
                MemorySegment words = codes.packed.words();
                // Rows 700..1023 of the second block, in every plane, are 0.
                for (int p = 0; p < bits; p++) {
                    long plane = (long) bits * PackedLayout.PLANE_WORDS + (long) p * PackedLayout.PLANE_WORDS;
                    assertThat(words.getAtIndex(ValueLayout.JAVA_LONG, plane + 2) >>> (700 - 640)).isZero();
                    for (int w = 3; w < PackedLayout.PLANE_WORDS; w++) {
                        assertThat(words.getAtIndex(ValueLayout.JAVA_LONG, plane + w)).isZero();
                    }
                }
                for (int r = 0; r < 700; r++) {
                    assertThat(codes.packed.get(r)).as("bits=%d row=%d", bits, r).isEqualTo(codes.values[r]);
                }
            }
        }
    }

    @Test
    void countSelectAndSelectIntoAgreeWithANaiveLoopAroundEveryBoundary() {
        try (Arena arena = Arena.ofConfined()) {
            for (int bits = 1; bits <= PackedLayout.MAX_VERTICAL_CODE_BITS; bits++) {
                PackedLayout layout = PackedLayout.vertical(bits);
                for (int rows : rowCountsAroundBoundaries(bits)) {
                    Codes codes = codes(layout, rows, arena);
                    long max = layout.maxCode();
                    long a = 1 + random.nextInt((int) max);
                    long b = 1 + random.nextInt((int) max);
                    for (IdRange range : List.of(new IdRange(1, (int) max),
                            new IdRange((int) Math.min(a, b), (int) Math.max(a, b)),
                            new IdRange((int) max, (int) max), new IdRange(1, 1))) {
                        codes.assertScansAgree(range, "bits=%d rows=%d %s", bits, rows, range);
                    }
                }
            }
        }
    }

    @Test
    void aSliceFromABlockBoundaryScansOnlyItsOwnRowsEvenWhenItEndsInsideABlock() {
        try (Arena arena = Arena.ofConfined()) {
            for (int bits : new int[] {1, 4, 6, 8}) {
                Codes codes = codes(PackedLayout.vertical(bits), 5000, arena);
                IdRange range = new IdRange(1, (int) Math.max(1, PackedLayout.vertical(bits).maxCode() / 2));
                for (int[] span : new int[][] {{512, 1500}, {1024, 5000}, {0, 7}, {4608, 4609}}) {
                    PackedCodes slice = codes.packed.slice(span[0], span[1]);
                    Codes expected = new Codes(Arrays.copyOfRange(codes.values, span[0], span[1]), slice);
                    expected.assertScansAgree(range, "bits=%d slice %d..%d", bits, span[0], span[1]);
                    for (int r = span[0]; r < span[1]; r++) {
                        assertThat(slice.get(r - span[0])).isEqualTo(codes.values[r]);
                    }
                }
                assertThatThrownBy(() -> codes.packed.slice(64, 1000)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("cannot slice");
            }
        }
    }

    @Test
    void bulkDecodingFromAnyRowAgreesWithRowAccessAndCountsThePlaneWordsItRead() {
        try (Arena arena = Arena.ofConfined()) {
            for (int bits = 1; bits <= PackedLayout.MAX_VERTICAL_CODE_BITS; bits++) {
                Codes codes = codes(PackedLayout.vertical(bits), 3000, arena);
                for (int trial = 0; trial < 40; trial++) {
                    int from = random.nextInt(3000);
                    int n = random.nextInt(3000 - from + 1);
                    long spanned = n == 0 ? 0 : (from + n - 1) / 64 - from / 64 + 1;
                    int[] out = new int[n + 3];
                    assertThat(codes.packed.unpackVertical(from, n, out)).isEqualTo(spanned * bits);
                    assertThat(Arrays.copyOf(out, n)).as("bits=%d rows %d+%d", bits, from, n)
                            .isEqualTo(Arrays.copyOfRange(codes.values, from, from + n));
                    for (KernelVariant variant : KernelVariant.values()) {
                        for (boolean pdep : new boolean[] {true, false}) {
                            int[] formOut = new int[n + 3];
                            assertThat(codes.packed.unpackVertical(from, n, formOut, variant, pdep))
                                    .isEqualTo(spanned * bits);
                            assertThat(Arrays.copyOf(formOut, n)).as("%s pdep=%s bits=%d rows %d+%d", variant, pdep,
                                    bits, from, n).isEqualTo(Arrays.copyOfRange(codes.values, from, from + n));
                        }
                    }
                }
            }
        }
    }

    @Test
    void horizontalCodesHaveNoVerticalDecoding() {
        try (Arena arena = Arena.ofConfined()) {
            Codes codes = codes(PackedLayout.horizontal(4), 100, arena);
            assertThatThrownBy(() -> codes.packed.unpackVertical(0, 10, new int[10]))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    /**
     * 1, around a selection word, around a block, one to three full blocks (the two streams' halves and an odd block
     * left over), and for the widths whose stream slices (512 KiB of blocks each) are cheap enough to fill, around
     * a pair of slices.
     */
    private static int[] rowCountsAroundBoundaries(int bits) {
        List<Integer> rows = new ArrayList<>(List.of(1, 63, 64, 65, 511, 512, 513, 1024, 1025, 3 * 512 + 7,
                10_000));
        if (bits >= 5) {
            int sliceRows = 2 * (PackedRangeScan.STREAM_CHUNK_BYTES / (bits * 64)) * PackedLayout.BLOCK_ROWS;
            rows.addAll(List.of(sliceRows - 1, sliceRows, sliceRows + 513, sliceRows + 2 * 512 + 1));
        }
        return rows.stream().mapToInt(Integer::intValue).toArray();
    }

    private Codes codes(PackedLayout layout, int rows, Arena arena) {
        MemorySegment segment = memory.allocate(layout.bytesFor(rows) + 64, MemoryPolicy.bind(0), arena).segment();
        segment.fill((byte) 0xFF);
        PackedCodes.Writer writer = PackedCodes.writer(segment, layout);
        int[] values = new int[rows];
        for (int r = 0; r < rows; r++) {
            // Some NULLs (0), which no range matches, among codes from the whole code space.
            values[r] = random.nextInt(16) == 0 ? 0 : (int) (random.nextLong() & layout.codeMask());
            writer.add(values[r]);
        }
        PackedCodes packed = writer.finish();
        assertThat(packed.count()).isEqualTo(rows);
        return new Codes(values, packed);
    }

    private record Codes(int[] values, PackedCodes packed) {
        void assertScansAgree(IdRange range, String description, Object... args) {
            int rows = values.length;
            int words = (rows + 63) / 64;
            long expected = 0;
            long[] expectedBits = new long[words];
            for (int r = 0; r < rows; r++) {
                if (values[r] >= range.lo() && values[r] <= range.hi()) {
                    expected++;
                    expectedBits[r >>> 6] |= 1L << r;
                }
            }
            int bits = packed.layout().codeBits();
            ScanBytes bytes = new ScanBytes();
            assertThat(PackedRangeScan.count(packed, range, bytes)).as(description, args).isEqualTo(expected);
            assertThat(bytes.packedBytes()).isEqualTo(packed.byteSize());
            assertThat(VerticalRangeScan.count(packed.words(), bits, rows, range.lo(), range.hi(), false))
                    .as("scalar popcount: " + description, args).isEqualTo(expected);
            assertThat(VerticalRangeScan.count(packed.words(), bits, rows, range.lo(), range.hi(), true))
                    .as("lane popcount: " + description, args).isEqualTo(expected);
            assertThat(PackedRangeScan.countScalar(packed, range)).as(description, args).isEqualTo(expected);

            for (KernelVariant variant : KernelVariant.values()) {
                assertThat(PackedRangeScan.count(packed, range, new ScanBytes(), variant))
                        .as(variant + ": " + description, args).isEqualTo(expected);
                // OR-ing keeps the bits already there and writes no word past the rows.
                long[] seeded = new long[words + 1];
                for (int w = 0; w < words; w += 3) {
                    seeded[w] = 0x8000_0000_0000_0001L;
                }
                seeded[words] = GARBAGE;
                long[] expectedSeeded = seeded.clone();
                for (int w = 0; w < words; w++) {
                    expectedSeeded[w] |= expectedBits[w];
                }
                PackedRangeScan.select(packed, range, seeded, new ScanBytes(), false, variant, false);
                assertThat(seeded).as("select " + variant + ": " + description, args).isEqualTo(expectedSeeded);

                long[] garbage = new long[words + 1];
                Arrays.fill(garbage, GARBAGE);
                long[] expectedInto = Arrays.copyOf(expectedBits, words + 1);
                expectedInto[words] = GARBAGE;
                PackedRangeScan.select(packed, range, garbage, new ScanBytes(), true, variant, false);
                assertThat(garbage).as("selectInto " + variant + ": " + description, args).isEqualTo(expectedInto);
            }
            long[] selection = new long[words];
            PackedRangeScan.select(packed, range, selection, new ScanBytes());
            assertThat(selection).as("chosen form: " + description, args).isEqualTo(expectedBits);
        }
    }
}
