package io.locusdb.core.query.expr;

import io.locusdb.core.storage.column.StringDictionary;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * The codes of a string dictionary whose values contain a byte string, found by searching the dictionary's value
 * bytes as one text, a run of values at a time, instead of testing each value: the bytes are read as ISO-8859-1,
 * which maps every byte to one char, so the JDK's vectorized {@link String#indexOf(String, int)} finds exactly the
 * byte matches. A match that crosses from one value into the next is not one. A search may also take a test that
 * decides each value found to contain the needle (a pattern such as {@code %special%requests%} searches for its
 * longest literal and tests only the values holding it). Results are kept with the dictionary
 * ({@link StringDictionary#derived}: a dropped part's dictionary takes them along) and shared by every task, plan and
 * query that searches it for the same bytes (and the same test).
 */
final class DictionarySearch {
    /** Values copied and searched at a time. */
    private static final int VALUES_PER_RUN = 16_384;

    /** Decides a value that contains the needle: its bytes are {@code bytes[from, to)}. */
    @FunctionalInterface
    interface CandidateTest {
        boolean matches(byte[] bytes, int from, int to);
    }

    /** The key a plain search's result is kept under with the dictionary: the needle's bytes, as ISO-8859-1 text. */
    private record Key(String needle) {
    }

    /** The key of a search with a test: what the test is (e.g. the LIKE pattern and its escape) and the needle. */
    private record TestedKey(String needle, Object test) {
    }

    private final byte[] needle;
    private final String needleText;
    private final Object key;
    private final CandidateTest test;

    DictionarySearch(byte[] needle) {
        this(needle, null, null);
    }

    /**
     * A search whose found values are decided by {@code test}; {@code testKey} names the test (equal keys, equal
     * tests), so that its results are shared only with searches that decide alike.
     */
    DictionarySearch(byte[] needle, Object testKey, CandidateTest test) {
        if (needle.length == 0) {
            throw new IllegalArgumentException("an empty needle is in every value: no search needed");
        }
        if ((testKey == null) != (test == null)) {
            throw new IllegalArgumentException("a test needs a key that names it, and a key a test");
        }
        this.needle = needle.clone();
        this.needleText = new String(needle, StandardCharsets.ISO_8859_1);
        this.key = test == null ? new Key(needleText) : new TestedKey(needleText, testKey);
        this.test = test;
    }

    /** One bit per code (bit {@code code} of the array), set where the value contains the needle; cached. */
    long[] codesContaining(StringDictionary dictionary) {
        return dictionary.derived(key, this::search);
    }

    /** Whether {@code codesContaining} is already known for {@code dictionary}. */
    boolean known(StringDictionary dictionary) {
        return dictionary.hasDerived(key);
    }

    private long[] search(StringDictionary dictionary) {
        int size = dictionary.size();
        long[] bits = new long[(size >> 6) + 1];
        MemorySegment offsets = dictionary.offsetsSegment();
        MemorySegment bytes = dictionary.bytesSegment();
        byte[] buffer = new byte[0];
        // The run's offsets on the heap: the walk from a match to its value reads them without a segment access each.
        int[] ends = new int[VALUES_PER_RUN + 1];
        // Codes run from 1; value c's bytes are offsets[c-1]..offsets[c]-1.
        for (int first = 1; first <= size; first += VALUES_PER_RUN) {
            int last = Math.min(size, first + VALUES_PER_RUN - 1);
            MemorySegment.copy(offsets, ValueLayout.JAVA_INT, (first - 1) * (long) Integer.BYTES, ends, 0,
                    last - first + 2);
            int base = ends[0];
            int length = ends[last - first + 1] - base;
            if (buffer.length < length) {
                buffer = new byte[Math.max(length, buffer.length * 2)];
            }
            MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, base, buffer, 0, length);
            String text = new String(buffer, 0, length, StandardCharsets.ISO_8859_1);
            int code = first;
            int from = 0;
            int at;
            while ((at = text.indexOf(needleText, from)) >= 0) {
                // The value the match starts in: the first whose end lies past the match's start.
                while (ends[code - first + 1] - base <= at) {
                    code++;
                }
                int end = ends[code - first + 1] - base;
                if (at + needle.length <= end) {
                    if (test == null || test.matches(buffer, ends[code - first] - base, end)) {
                        bits[code >>> 6] |= 1L << code;
                    }
                    // One match is enough: go on with the next value.
                    from = end;
                } else {
                    from = at + 1;
                }
            }
        }
        return bits;
    }
}
