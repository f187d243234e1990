package io.locusdb.core.storage.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.cpu.KernelVariant;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.column.PackedLayout;
import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.memory.NodeMemory;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PackedRangeScanTest {
    private final NodeMemory memory = TestStorage.memory();

    @Test
    void countAndSelectAgreeWithANaiveLoopForEveryCodeWidth() {
        Random random = new Random(42);
        try (Arena arena = Arena.ofConfined()) {
            for (PackedLayout layout : everyLayout()) {
                int bits = layout.codeBits();
                // Row counts that end exactly on a selection word, just past one, and large enough for the vector
                // kernel's per-field counters to be flushed several times.
                int rows = switch (bits % 4) {
                    case 0 -> 64 * (1 + random.nextInt(40));
                    case 1 -> 64 * (1 + random.nextInt(40)) + 1;
                    case 2 -> 200_000 + random.nextInt(1000);
                    default -> 1000 + random.nextInt(3000);
                };
                int[] codes = new int[rows];
                PackedCodes.Writer writer = PackedCodes.writer(
                        memory.allocate(layout.bytesFor(rows) + 8, MemoryPolicy.bind(0), arena).segment(), layout);
                for (int r = 0; r < rows; r++) {
                    codes[r] = (int) (random.nextLong() & layout.codeMask());
                    writer.add(codes[r]);
                }
                PackedCodes packed = writer.finish();
                for (int trial = 0; trial < 20; trial++) {
                    long a = 1 + (random.nextLong() & Long.MAX_VALUE) % layout.maxCode();
                    long b = 1 + (random.nextLong() & Long.MAX_VALUE) % layout.maxCode();
                    IdRange range = trial == 0 ? new IdRange(1, (int) layout.maxCode())
                            : new IdRange((int) Math.min(a, b), (int) Math.max(a, b));
                    long expected = 0;
                    long[] expectedBits = new long[(rows + 63) / 64];
                    for (int r = 0; r < rows; r++) {
                        if (codes[r] >= range.lo() && codes[r] <= range.hi()) {
                            expected++;
                            expectedBits[r >>> 6] |= 1L << r;
                        }
                        assertThat(packed.get(r)).isEqualTo(codes[r]);
                    }
                    ScanBytes bytes = new ScanBytes();
                    assertThat(PackedRangeScan.count(packed, range, bytes)).as("%s %s", layout, range)
                            .isEqualTo(expected);
                    assertThat(PackedRangeScan.countScalar(packed, range)).isEqualTo(expected);
                    long[] selection = new long[(rows + 63) / 64];
                    PackedRangeScan.select(packed, range, selection, bytes);
                    assertThat(selection).as("%s %s", layout, range).isEqualTo(expectedBits);
                    assertThat(bytes.packedBytes()).isEqualTo(2 * packed.byteSize());
                    if (trial < 3) {
                        assertEveryFormAgrees(packed, range, expected, expectedBits);
                    }
                }
            }
        }
    }

    /**
     * Every form of the count and of the select (OR-ing into garbage-free words, and overwriting garbage), with PEXT
     * and with the multiply gather, whatever this CPU would choose: correctness never depends on the machine.
     */
    private static void assertEveryFormAgrees(PackedCodes packed, IdRange range, long expected,
                                              long[] expectedBits) {
        for (KernelVariant variant : KernelVariant.values()) {
            assertThat(PackedRangeScan.count(packed, range, new ScanBytes(), variant))
                    .as("%s %s %s", variant, packed.layout(), range).isEqualTo(expected);
            for (boolean pext : new boolean[] {true, false}) {
                long[] ored = new long[expectedBits.length];
                PackedRangeScan.select(packed, range, ored, new ScanBytes(), false, variant, pext);
                assertThat(ored).as("select %s pext=%s %s %s", variant, pext, packed.layout(), range)
                        .isEqualTo(expectedBits);
                // OR-ing into bits an earlier predicate left keeps them.
                long[] earlier = new long[expectedBits.length];
                long[] expectedOred = new long[expectedBits.length];
                Random random = new Random(expectedBits.length);
                for (int w = 0; w < earlier.length; w++) {
                    earlier[w] = random.nextLong() & random.nextLong();
                    expectedOred[w] = earlier[w] | expectedBits[w];
                }
                PackedRangeScan.select(packed, range, earlier, new ScanBytes(), false, variant, pext);
                assertThat(earlier).as("select over earlier bits %s pext=%s %s %s", variant, pext, packed.layout(),
                        range).isEqualTo(expectedOred);
                long[] overwritten = new long[expectedBits.length];
                Arrays.fill(overwritten, 0x5A5A_5A5A_5A5A_5A5AL);
                PackedRangeScan.select(packed, range, overwritten, new ScanBytes(), true, variant, pext);
                assertThat(overwritten).as("selectInto %s pext=%s %s %s", variant, pext, packed.layout(), range)
                        .isEqualTo(expectedBits);
            }
        }
    }

    /** Horizontal packing at every code width, vertical at every width it takes. */
    static List<PackedLayout> everyLayout() {
        List<PackedLayout> layouts = new ArrayList<>();
        for (int bits = 1; bits <= PackedLayout.MAX_CODE_BITS; bits++) {
            layouts.add(PackedLayout.horizontal(bits));
        }
        for (int bits = 1; bits <= PackedLayout.MAX_VERTICAL_CODE_BITS; bits++) {
            layouts.add(PackedLayout.vertical(bits));
        }
        return layouts;
    }

    @Test
    void emptyRangesMatchNothing() {
        try (Arena arena = Arena.ofConfined()) {
            for (PackedLayout layout : List.of(PackedLayout.horizontal(3), PackedLayout.vertical(3))) {
                PackedCodes.Writer writer = PackedCodes.writer(
                        memory.allocate(layout.bytesFor(2), MemoryPolicy.bind(0), arena).segment(), layout);
                writer.add(0);
                writer.add(5);
                PackedCodes codes = writer.finish();
                assertThat(PackedRangeScan.count(codes, IdRange.EMPTY, new ScanBytes())).isZero();
                assertThat(PackedRangeScan.count(codes, new IdRange(1, 7), new ScanBytes())).as("%s", layout)
                        .isEqualTo(1);
            }
        }
    }
}
