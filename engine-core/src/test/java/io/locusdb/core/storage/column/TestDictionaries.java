package io.locusdb.core.storage.column;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** String dictionaries for tests, on the heap: {@code values} get codes 1..n in the order given. */
public final class TestDictionaries {
    private TestDictionaries() {
    }

    public static StringDictionary of(List<String> values) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int[] offsets = new int[values.size() + 1];
        for (int i = 0; i < values.size(); i++) {
            bytes.writeBytes(values.get(i).getBytes(StandardCharsets.UTF_8));
            offsets[i + 1] = bytes.size();
        }
        return new StringDictionary(MemorySegment.ofArray(offsets), MemorySegment.ofArray(bytes.toByteArray()),
                values.size());
    }
}
