package io.locusdb.core.storage.column;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A dictionary of moderate size hands out one String per value, so that queries do not allocate and hash a String
 * per row; a large one decodes afresh each time rather than hold its values on the heap.
 */
class StringDictionaryTest {
    /** A dictionary of {@code values} (already sorted), each repeated to {@code width} bytes. */
    private static StringDictionary dictionary(List<String> values, int width) {
        Arena arena = Arena.ofAuto();
        MemorySegment offsets = arena.allocate(ValueLayout.JAVA_INT, values.size() + 1);
        MemorySegment bytes = arena.allocate(Math.max(1, (long) values.size() * width));
        int at = 0;
        for (int i = 0; i < values.size(); i++) {
            byte[] utf8 = values.get(i).repeat(width / values.get(i).length()).getBytes(StandardCharsets.UTF_8);
            MemorySegment.copy(utf8, 0, bytes, ValueLayout.JAVA_BYTE, at, utf8.length);
            offsets.setAtIndex(ValueLayout.JAVA_INT, i, at);
            at += utf8.length;
        }
        offsets.setAtIndex(ValueLayout.JAVA_INT, values.size(), at);
        return new StringDictionary(offsets, bytes, values.size());
    }

    @Test
    void aModerateDictionaryReturnsTheSameStringForAValueEveryTime() {
        StringDictionary d = dictionary(List.of("a", "b", "c"), 4);
        assertThat(d.value(2)).isEqualTo("bbbb").isSameAs(d.value(2));
        assertThat(d.value(1)).isEqualTo("aaaa");
        assertThat(d.value(3)).isEqualTo("cccc");
    }

    @Test
    void aLargeDictionaryDecodesEachTime() {
        int width = 1 << 20;
        int count = (int) (StringDictionary.CACHED_BYTES / width) + 1;
        List<String> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            values.add(String.format("%03d", i));
        }
        StringDictionary d = dictionary(values, width - width % 3);
        assertThat(d.heapBytes()).isGreaterThan(StringDictionary.CACHED_BYTES);
        String first = d.value(5); // ID 5 is the fifth value, "004..."
        assertThat(first).startsWith("004004").isEqualTo(d.value(5)).isNotSameAs(d.value(5));
    }
}
