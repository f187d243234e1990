package io.locusdb.core.storage.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.cpu.KernelVariant;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.column.PackedLayout;
import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.memory.NodeMemory;
import java.lang.foreign.Arena;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each horizontal select and count kernel on its own, whichever the CPU would pick (a form this CPU has no vectors
 * for runs emulated, slowly but exactly): the byte-mask kernel must set exactly the selection words of the words it
 * covers and write nothing else, each gathering kernel (every width, with PEXT and without) must OR exactly the
 * rows of the words it covers into the selection (keeping bits already there) or with overwrite set exactly those
 * words, and the two count kernels must agree with a naive loop, for every field width
 * each kernel takes and for word counts around its blocks.
 */
class SelectKernelsTest {
    private final NodeMemory memory = TestStorage.memory();
    private final Random random = new Random(11);

    @Test
    void theByteMaskKernelSetsExactlyTheSelectionWordsOfTheWordsItCovers() {
        try (Arena arena = Arena.ofConfined()) {
            for (int bits = ByteMaskSelect.MIN_FIELD_BITS - 1; bits <= PackedLayout.MAX_CODE_BITS; bits++) {
                PackedLayout layout = PackedLayout.horizontal(bits);
                long rowsPerVector = 8L * layout.codesPerWord();
                long wordsPerPeriod = ByteMaskSelect.WORDS_PER_STEP * 64 / gcd(64, rowsPerVector);
                // Around the vectors a half merges instead of storing (up to 3 of them): one period a half and
                // a few more, and long halves that cross the kernel's stream chunks.
                for (long words : new long[] {8, 16, 2 * wordsPerPeriod, 2 * wordsPerPeriod + 8, 4 * wordsPerPeriod,
                        136, 137, 4096 + 8, 2 * 65536 + 3 * wordsPerPeriod}) {
                    Fixture fixture = fixture(layout, words, arena);
                    long[] selection = fixture.garbageSelection();
                    long covered = ByteMaskSelect.selectInto(fixture.codes.words(), words, fixture.belowLo(),
                            fixture.belowHi(), fixture.layout.delimiterMask(), selection);
                    // Two halves, each a whole number of vectors and selection words; at most two periods left.
                    assertThat(covered % (2 * wordsPerPeriod)).isZero();
                    assertThat(words - covered).isNotNegative().isLessThan(2 * wordsPerPeriod);
                    fixture.assertOverwritten(selection, 0, covered, "byte mask, bits=%d words=%d", bits, words);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}, pext {1}")
    @MethodSource("everyForm")
    void everyGatheringKernelPicksUpAtAnySelectionWordBoundary(KernelVariant variant, boolean pext) {
        try (Arena arena = Arena.ofConfined()) {
            for (int bits = 1; bits <= PackedLayout.MAX_CODE_BITS; bits++) {
                PackedLayout layout = PackedLayout.horizontal(bits);
                long words = 2048;
                Fixture fixture = fixture(layout, words, arena);
                // The first word whose first row starts a selection word, past 1000 words.
                long from = 1000;
                while (from * layout.codesPerWord() % 64 != 0) {
                    from++;
                }
                long to = from + (words - from - 1) / 8 * 8;
                long[] selection = fixture.seededSelection();
                PackedRangeScan.selectCompressed(fixture.codes.words(), from, to, fixture.belowLo(),
                        fixture.belowHi(), layout.delimiterMask(), selection, false, variant, pext);
                fixture.assertSelectedBetween(selection, from, to, "%s pext=%s, bits=%d", variant, pext, bits);
                long[] overwritten = fixture.garbageSelection();
                PackedRangeScan.selectCompressed(fixture.codes.words(), from, to, fixture.belowLo(),
                        fixture.belowHi(), layout.delimiterMask(), overwritten, true, variant, pext);
                fixture.assertOverwritten(overwritten, from, to, "%s pext=%s, bits=%d", variant, pext, bits);
            }
        }
    }

    @Test
    void everyCountKernelAgreesWithANaiveLoopOnEveryWidth() {
        try (Arena arena = Arena.ofConfined()) {
            for (int bits = 1; bits <= PackedLayout.MAX_CODE_BITS; bits++) {
                PackedLayout layout = PackedLayout.horizontal(bits);
                for (long words : new long[] {1, 31, 32, 33, 5000}) {
                    Fixture fixture = fixture(layout, words, arena);
                    long expected = fixture.expectedMatches(0, words);
                    long[] args = {layout.codeBitsMask(), layout.delimiterMask(), layout.repeat(fixture.range.lo()),
                            layout.repeat(fixture.range.hi() + 1L)};
                    assertThat(HorizontalLanes512.countPopcount(fixture.codes.words(), words, args[0], args[1],
                            args[2], args[3])).as("popcount 512, bits=%d words=%d", bits, words).isEqualTo(expected);
                    assertThat(HorizontalLanes512.countFields(fixture.codes.words(), words, args[0], args[1],
                            args[2], args[3])).as("field counters 512, bits=%d words=%d", bits, words)
                            .isEqualTo(expected);
                    assertThat(HorizontalLanes256.countFields(fixture.codes.words(), words, args[0], args[1],
                            args[2], args[3])).as("field counters 256, bits=%d words=%d", bits, words)
                            .isEqualTo(expected);
                    for (KernelVariant variant : KernelVariant.values()) {
                        assertThat(PackedRangeScan.countWords(fixture.codes.words(), words, args[0], args[1],
                                args[2], args[3], variant)).as("%s, bits=%d words=%d", variant, bits, words)
                                .isEqualTo(expected);
                    }
                }
            }
        }
    }

    /** Every vector width and the scalar form, each with PEXT and with the multiply gather. */
    static Stream<Arguments> everyForm() {
        return Arrays.stream(KernelVariant.values())
                .flatMap(v -> Stream.of(Arguments.of(v, true), Arguments.of(v, false)));
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private Fixture fixture(PackedLayout layout, long words, Arena arena) {
        int rows = (int) (words * layout.codesPerWord());
        int[] codes = new int[rows];
        PackedCodes.Writer writer = PackedCodes.writer(memory.allocate(layout.bytesFor(rows) + 64,
                MemoryPolicy.bind(0), arena).segment(), layout);
        for (int r = 0; r < rows; r++) {
            codes[r] = random.nextInt(16) == 0 ? 0 : (int) (random.nextLong() & layout.codeMask());
            writer.add(codes[r]);
        }
        long max = layout.maxCode();
        long a = 1 + (random.nextLong() & Long.MAX_VALUE) % max;
        long b = 1 + (random.nextLong() & Long.MAX_VALUE) % max;
        return new Fixture(layout, codes, writer.finish(), new IdRange((int) Math.min(a, b), (int) Math.max(a, b)));
    }

    private record Fixture(PackedLayout layout, int[] values, PackedCodes codes, IdRange range) {
        private static final long SEED_BITS = 0x8000_0000_0000_0001L;
        private static final long GARBAGE = 0x5A5A_5A5A_5A5A_5A5AL;

        long belowLo() {
            return layout.codeBitsMask() + layout.repeat(range.lo());
        }

        long belowHi() {
            return layout.codeBitsMask() + layout.repeat(range.hi() + 1L);
        }

        boolean matches(int row) {
            return values[row] >= range.lo() && values[row] <= range.hi();
        }

        long expectedMatches(long fromWord, long toWord) {
            long count = 0;
            for (long r = fromWord * layout.codesPerWord(); r < toWord * layout.codesPerWord(); r++) {
                count += matches((int) r) ? 1 : 0;
            }
            return count;
        }

        /** Every third word starts with its first and last bit set, which a kernel must keep. */
        long[] seededSelection() {
            long[] selection = new long[(values.length + 63) / 64];
            for (int i = 0; i < selection.length; i += 3) {
                selection[i] = SEED_BITS;
            }
            return selection;
        }

        long[] garbageSelection() {
            long[] selection = new long[(values.length + 63) / 64];
            Arrays.fill(selection, GARBAGE);
            return selection;
        }

        /**
         * With overwrite, the words holding rows of words {@code fromWord..toWord-1} are exactly those rows' bits
         * (a word the range ends in has its bits past the range clear); every other word is untouched.
         */
        void assertOverwritten(long[] selection, long fromWord, long toWord, String description, Object... args) {
            long firstRow = fromWord * layout.codesPerWord();
            long endRow = toWord * layout.codesPerWord();
            long[] expected = garbageSelection();
            for (long w = firstRow >>> 6; w < (endRow + 63) >>> 6; w++) {
                expected[(int) w] = 0;
            }
            for (long r = firstRow; r < endRow; r++) {
                if (matches((int) r)) {
                    expected[(int) (r >>> 6)] |= 1L << r;
                }
            }
            assertThat(selection).as(description, args).isEqualTo(expected);
        }

        void assertSelectedBetween(long[] selection, long fromWord, long toWord, String description,
                                   Object... args) {
            long[] expected = seededSelection();
            for (long r = fromWord * layout.codesPerWord(); r < toWord * layout.codesPerWord(); r++) {
                if (matches((int) r)) {
                    expected[(int) (r >>> 6)] |= 1L << r;
                }
            }
            assertThat(selection).as(description, args).isEqualTo(expected);
        }
    }
}
