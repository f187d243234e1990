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
}
