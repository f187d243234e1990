package io.locusdb.core.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PortableBitsTest {
    private final SplittableRandom random = new SplittableRandom(23);

    @Test
    void gatheringDelimiterBitsEqualsPextForEveryFieldWidth() {
        for (int fieldBits = 2; fieldBits <= 32; fieldBits++) {
            long delimiters = 0;
            for (int i = 0; i < 64 / fieldBits; i++) {
                delimiters |= 1L << (i * fieldBits + fieldBits - 1);
            }
            for (long match : new long[] {0, delimiters, Long.lowestOneBit(delimiters),
                    Long.highestOneBit(delimiters)}) {
                assertThat(PortableBits.gatherDelimiters(match, fieldBits)).as("fields of %d bits, %x", fieldBits,
                        match).isEqualTo(Long.compress(match, delimiters));
            }
            for (int trial = 0; trial < 2000; trial++) {
                long match = random.nextLong() & delimiters;
                assertThat(PortableBits.gatherDelimiters(match, fieldBits)).as("fields of %d bits, %x", fieldBits,
                        match).isEqualTo(Long.compress(match, delimiters));
            }
        }
    }

    @Test
    void oneMultiplyGathersFromEightBitFieldsUp() {
        assertThat(PortableBits.gathersWithOneMultiply(7)).isFalse();
        for (int fieldBits = 8; fieldBits <= 32; fieldBits++) {
            assertThat(PortableBits.gathersWithOneMultiply(fieldBits)).isTrue();
        }
    }

    @Test
    void spreadingAByteEqualsPdepOntoTheBytesLowBits() {
        for (int b = 0; b < 256; b++) {
            assertThat(PortableBits.spreadByte(b)).isEqualTo(Long.expand(b, 0x0101010101010101L));
            assertThat(PortableBits.spreadByte(b | 0xFF00)).isEqualTo(Long.expand(b, 0x0101010101010101L));
        }
    }

    @Test
    void gatheringTheBytesLowBitsEqualsPext() {
        for (int trial = 0; trial < 10_000; trial++) {
            long x = random.nextLong();
            assertThat(PortableBits.gatherByteLowBits(x)).isEqualTo((int) Long.compress(x, 0x0101010101010101L));
        }
    }
}
