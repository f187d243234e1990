package io.locusdb.core.storage.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.column.PackedLayout;
import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.memory.NodeMemory;
import java.lang.foreign.Arena;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The vector kernels split a column into 1 MiB slices, per-field counter blocks, vector steps, a scalar tail and,
 * for select, a streamed part that stops before the last word; these specifications put row counts on each side of
 * every such boundary, for every code width.
 */
class PackedRangeScanKernelTest {
    private final NodeMemory memory = TestStorage.memory();
    private final Random random = new Random(7);

    @Test
    void countAndSelectAreExactAtEveryKernelBoundaryForEveryCodeWidth() {
        try (Arena arena = Arena.ofConfined()) {
            for (int bits = 1; bits <= PackedLayout.MAX_CODE_BITS; bits++) {
                PackedLayout layout = PackedLayout.horizontal(bits);
                for (long words : wordCountsAroundBoundaries(layout)) {
                    for (long rows : new long[] {words * layout.codesPerWord(), words * layout.codesPerWord() - 1,
                            (words - 1) * layout.codesPerWord() + 1}) {
                        if (rows < 1) {
                            continue;
                        }
                        Column column = column(layout, (int) rows, arena);
                        long max = layout.maxCode();
                        long a = 1 + (random.nextLong() & Long.MAX_VALUE) % max;
                        long b = 1 + (random.nextLong() & Long.MAX_VALUE) % max;
                        for (IdRange range : new IdRange[] {new IdRange(1, (int) max),
                                new IdRange((int) Math.min(a, b), (int) Math.max(a, b)),
                                new IdRange((int) max, (int) max), new IdRange(1, 1)}) {
                            column.assertScansAgreeWithNaiveLoop(range, "bits=%d rows=%d %s", bits, rows, range);
                        }
                    }
                }
            }
        }
    }

    @Test
    void aFullRangeCountsEveryNonNullRowAndNullsNever() {
        try (Arena arena = Arena.ofConfined()) {
            for (int bits : new int[] {3, 4, 6, 12, 20, 21, 31}) {
                PackedLayout layout = PackedLayout.horizontal(bits);
                int rows = (int) Math.min(3_000_000, 4L * CHUNK_WORDS * layout.codesPerWord() / 3);
                PackedCodes.Writer writer = writer(layout, rows, arena);
                long nonNull = 0;
                for (int r = 0; r < rows; r++) {
                    int code = r % 5 == 0 ? 0 : (int) (1 + r % layout.maxCode());
                    nonNull += code == 0 ? 0 : 1;
                    writer.add(code);
                }
                PackedCodes codes = writer.finish();
                IdRange all = new IdRange(1, (int) layout.maxCode());
                assertThat(PackedRangeScan.count(codes, all, new ScanBytes())).as("bits=%d", bits).isEqualTo(nonNull);
                long[] selection = new long[(rows + 63) / 64];
                PackedRangeScan.select(codes, all, selection, new ScanBytes());
                assertThat(Arrays.stream(selection).map(Long::bitCount).sum()).isEqualTo(nonNull);
            }
        }
    }

    @Test
    void selectKeepsBitsAlreadyInTheSelectionAndWritesNoWordPastTheRows() {
        try (Arena arena = Arena.ofConfined()) {
            for (int bits = 1; bits <= PackedLayout.MAX_CODE_BITS; bits++) {
                PackedLayout layout = PackedLayout.horizontal(bits);
                int rows = 5000 + random.nextInt(64);
                Column column = column(layout, rows, arena);
                IdRange range = new IdRange(1, (int) Math.max(1, layout.maxCode() / 2));
                long[] selection = new long[(rows + 63) / 64 + 1];
                long[] expected = new long[selection.length];
                for (int i = 0; i < selection.length - 1; i += 3) {
                    selection[i] = 0x8000_0000_0000_0001L;
                }
                System.arraycopy(selection, 0, expected, 0, selection.length);
                long sentinel = 0x5A5A_5A5A_5A5A_5A5AL;
                selection[selection.length - 1] = sentinel;
                expected[selection.length - 1] = sentinel;
                for (int r = 0; r < rows; r++) {
                    if (column.codes[r] >= range.lo() && column.codes[r] <= range.hi()) {
                        expected[r >>> 6] |= 1L << r;
                    }
                }
                PackedRangeScan.select(column.packed, range, selection, new ScanBytes());
                assertThat(selection).as("bits=%d", bits).isEqualTo(expected);
            }
        }
    }

    @Test
    void selectIntoSetsExactlyTheWordsOfTheRowsWhateverTheyHeld() {
        try (Arena arena = Arena.ofConfined()) {
            for (int bits = 1; bits <= PackedLayout.MAX_CODE_BITS; bits++) {
                PackedLayout layout = PackedLayout.horizontal(bits);
                for (int rows : new int[] {1, 63, 64, 5000 + random.nextInt(64), 70_000 + random.nextInt(640)}) {
                    Column column = column(layout, rows, arena);
                    for (IdRange range : new IdRange[] {new IdRange(1, (int) Math.max(1, layout.maxCode() / 2)),
                            IdRange.EMPTY}) {
                        long[] selection = new long[(rows + 63) / 64 + 1];
                        Arrays.fill(selection, 0xA5A5_A5A5_A5A5_A5A5L);
                        long[] expected = new long[selection.length];
                        expected[selection.length - 1] = 0xA5A5_A5A5_A5A5_A5A5L;
                        for (int r = 0; r < rows; r++) {
                            if (!range.isEmpty() && column.codes[r] >= range.lo() && column.codes[r] <= range.hi()) {
                                expected[r >>> 6] |= 1L << r;
                            }
                        }
                        PackedRangeScan.selectInto(column.packed, range, selection, new ScanBytes());
                        assertThat(selection).as("bits=%d rows=%d %s", bits, rows, range).isEqualTo(expected);
                    }
                }
            }
        }
    }

    @Test
    void emptyRangesAndEmptyColumnsMatchNothingAndLeaveTheSelectionAlone() {
        try (Arena arena = Arena.ofConfined()) {
            PackedLayout layout = PackedLayout.horizontal(12);
            Column column = column(layout, 10_000, arena);
            long[] selection = new long[(10_000 + 63) / 64];
            assertThat(PackedRangeScan.count(column.packed, IdRange.EMPTY, new ScanBytes())).isZero();
            PackedRangeScan.select(column.packed, IdRange.EMPTY, selection, new ScanBytes());
            assertThat(selection).containsOnly(0L);
            PackedCodes none = writer(layout, 0, arena).finish();
            assertThat(PackedRangeScan.count(none, new IdRange(1, 5), new ScanBytes())).isZero();
            long[] nothing = new long[0];
            PackedRangeScan.select(none, new IdRange(1, 5), nothing, new ScanBytes());
            assertThat(nothing).isEmpty();
        }
    }

    private static final long CHUNK_WORDS = PackedRangeScan.CHUNK_BYTES / Long.BYTES;

    /**
     * Word counts straddling: a vector step (4 vectors of up to 8 longs), the select stream's step, its L1 buffer
     * (512 words), one field-counter block of this width (whose size depends on the field width), and a slice.
     */
    private static long[] wordCountsAroundBoundaries(PackedLayout layout) {
        int fieldBits = layout.fieldBits();
        long blockWords = Math.min(((1L << fieldBits) - 1) / 4, CHUNK_WORDS / 16) * 16;
        long[] centres = {1, 16, 32, 512, blockWords, 2 * blockWords};
        long[] words = new long[centres.length * 3 + 3];
        int n = 0;
        for (long centre : centres) {
            words[n++] = Math.max(1, centre - 1);
            words[n++] = centre;
            words[n++] = centre + 1;
        }
        // One slice is only worth its cost for the layouts whose per-row cost is lowest.
        long slice = layout.codeBits() % 10 == 1 ? CHUNK_WORDS : 64;
        words[n++] = slice - 1;
        words[n++] = slice + 3;
        words[n++] = slice + 33;
        return Arrays.copyOf(words, n);
    }

    private Column column(PackedLayout layout, int rows, Arena arena) {
        int[] codes = new int[rows];
        PackedCodes.Writer writer = writer(layout, rows, arena);
        for (int r = 0; r < rows; r++) {
            // A few NULLs (0), which no range matches, among codes drawn from the whole code space.
            codes[r] = random.nextInt(16) == 0 ? 0 : (int) (random.nextLong() & layout.codeMask());
            writer.add(codes[r]);
        }
        return new Column(codes, writer.finish());
    }

    private PackedCodes.Writer writer(PackedLayout layout, int rows, Arena arena) {
        return PackedCodes.writer(memory.allocate(layout.bytesFor(rows) + 64, MemoryPolicy.bind(0), arena)
                .segment(), layout);
    }

    private record Column(int[] codes, PackedCodes packed) {
        void assertScansAgreeWithNaiveLoop(IdRange range, String description, Object... args) {
            int rows = codes.length;
            long expected = 0;
            long[] expectedBits = new long[(rows + 63) / 64];
            for (int r = 0; r < rows; r++) {
                if (codes[r] >= range.lo() && codes[r] <= range.hi()) {
                    expected++;
                    expectedBits[r >>> 6] |= 1L << r;
                }
            }
            assertThat(PackedRangeScan.count(packed, range, new ScanBytes())).as(description, args)
                    .isEqualTo(expected);
            long[] selection = new long[expectedBits.length];
            PackedRangeScan.select(packed, range, selection, new ScanBytes());
            assertThat(selection).as(description, args).isEqualTo(expectedBits);
        }
    }
}
