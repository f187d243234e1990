package io.locusdb.core.durable;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The CRC of a segment checked in slices, combined, is the CRC of the whole, for any cut. */
class SegmentChecksumsTest {
    @Test
    void combiningTheSlicesCrcsGivesTheWholeSegmentsCrc() {
        Random random = new Random(7);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(1 << 20);
            for (long i = 0; i < data.byteSize(); i++) {
                data.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
            }
            long whole = SegmentChecksums.crc(data);
            for (int trial = 0; trial < 200; trial++) {
                long cut = trial < 3 ? new long[] {0, 1, data.byteSize() - 1}[trial] : random.nextLong(data.byteSize());
                long a = SegmentChecksums.crc(data.asSlice(0, cut));
                long b = SegmentChecksums.crc(data.asSlice(cut));
                assertThat(SegmentChecksums.combine(a, b, data.byteSize() - cut)).as("cut at %d", cut)
                        .isEqualTo(whole);
            }
        }
    }

    @Test
    void aFixedLengthFactorCombinesLikeTheGeneralOne() {
        Random random = new Random(11);
        int zeros = SegmentChecksums.zeros(4096);
        for (int trial = 0; trial < 100; trial++) {
            long a = random.nextLong() & 0xFFFF_FFFFL;
            long b = random.nextLong() & 0xFFFF_FFFFL;
            assertThat(SegmentChecksums.combine(zeros, a, b)).isEqualTo(SegmentChecksums.combine(a, b, 4096));
        }
    }

    @Test
    void slicesOfAFixedSizeWithAShorterLastOneAddUpToTheWhole() {
        Random random = new Random(3);
        try (Arena arena = Arena.ofConfined()) {
            for (long bytes : new long[] {0, 1, 4096, 4097, 3 * 4096 + 17}) {
                MemorySegment data = arena.allocate(Math.max(1, bytes)).asSlice(0, bytes);
                for (long i = 0; i < bytes; i++) {
                    data.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
                }
                long[] crcs = new long[1 + (int) ((bytes + 4095) / 4096)];
                for (long at = 0; at < bytes; at += 4096) {
                    crcs[1 + (int) (at / 4096)] = SegmentChecksums.crc(data.asSlice(at, Math.min(4096, bytes - at)));
                }
                assertThat(SegmentChecksums.ofSlices(crcs, 1, bytes, 4096, SegmentChecksums.zeros(4096)))
                        .as("%d bytes", bytes).isEqualTo(SegmentChecksums.crc(data));
            }
        }
    }

    @Test
    void secondPiecesOfManyMegabytesCombineToTheWholeSegmentsCrc() {
        Random random = new Random(5);
        try (Arena arena = Arena.ofConfined()) {
            // Mostly zeros (what the allocation gives), random bytes around the cuts: lengths whose high bits are set.
            MemorySegment data = arena.allocate((67L << 20) + 13);
            long[] cuts = {1, 4L << 20, (4L << 20) + 1, (33L << 20) - 7, data.byteSize() - 1};
            for (long cut : cuts) {
                for (long i = Math.max(0, cut - 64); i < Math.min(data.byteSize(), cut + 64); i++) {
                    data.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
                }
            }
            long whole = SegmentChecksums.crc(data);
            for (long cut : cuts) {
                long a = SegmentChecksums.crc(data.asSlice(0, cut));
                long b = SegmentChecksums.crc(data.asSlice(cut));
                assertThat(SegmentChecksums.combine(a, b, data.byteSize() - cut)).as("cut at %d", cut)
                        .isEqualTo(whole);
            }
        }
    }

    @Test
    void anEmptySecondPieceLeavesTheFirstCrc() {
        assertThat(SegmentChecksums.combine(0x1234_5678L, 0, 0)).isEqualTo(0x1234_5678L);
    }
}
