package io.locusdb.core.storage.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SwarBytesTest {
    @Test
    void marksExactlyTheBytesEqualToThePattern() {
        // '}' is '|' + 1: the borrow of the short zero-byte test would mark it too, right above a match.
        long word = littleEndian('a', '|', '}', '|', 0, '\n', (byte) 0xFC, '|');
        long marks = SwarBytes.equalBytes(word, SwarBytes.broadcast((byte) '|'));
        assertThat(marks).isEqualTo(littleEndian(0, 0x80, 0, 0x80, 0, 0, 0, 0x80));
        assertThat(SwarBytes.hasZeroByte(word)).isTrue();
        assertThat(SwarBytes.hasZeroByte(littleEndian('n', 'o', ' ', 'z', 'e', 'r', 'o', '!'))).isFalse();
    }

    private static long littleEndian(int... bytes) {
        long word = 0;
        for (int i = bytes.length - 1; i >= 0; i--) {
            word = (word << 8) | (bytes[i] & 0xFF);
        }
        return word;
    }

    @Test
    void parsesOneToEightDigitsAndRejectsAnyOtherByteAmongThem() {
        java.util.Random random = new java.util.Random(9);
        for (int trial = 0; trial < 100_000; trial++) {
            int n = 1 + random.nextInt(8);
            byte[] bytes = new byte[8];
            long expected = 0;
            for (int i = 0; i < 8; i++) {
                bytes[i] = (byte) (i < n ? '0' + random.nextInt(10) : random.nextInt(256));
                if (i < n) {
                    expected = expected * 10 + (bytes[i] - '0');
                }
            }
            boolean spoil = random.nextBoolean();
            if (spoil) {
                int at = random.nextInt(n);
                byte b;
                do {
                    b = (byte) random.nextInt(256);
                } while (b >= '0' && b <= '9');
                bytes[at] = b;
            }
            long word = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
            assertThat(SwarBytes.parseDigits(word, n)).as("%s, n=%d", java.util.Arrays.toString(bytes), n)
                    .isEqualTo(spoil ? -1 : expected);
        }
    }
}
