package io.locusdb.core.storage.column;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The values of a string column piece while it has few distinct ones (flags, modes, categories): each distinct
 * value is kept once and every row as a one-byte code, packed eight to a long. Such columns then stage a byte per
 * row instead of the value and a reference, and encode without looking at their rows' bytes again.
 */
final class FewStrings {
    /** Codes are one byte. */
    static final int MAX_DISTINCT = 255;
    /** Longer values are rarely few; they go to plain staging. */
    static final int MAX_VALUE_BYTES = 64;
    private static final int SLOTS = 512;
    private static final int STRING_CACHE = 256;
    private static final ValueLayout.OfLong LONG_LE =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle ARRAY_LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    private final byte[][] values = new byte[MAX_DISTINCT][];
    private final MemorySegment[] valueSegments = new MemorySegment[MAX_DISTINCT];
    /** Per code: the value's first eight bytes (little-endian, zero-padded) and length, compared before bytes. */
    private final long[] firstWords = new long[MAX_DISTINCT];
    private final int[] lengths = new int[MAX_DISTINCT];
    /** Open addressing over the values: code + 1 per slot, 0 for empty. */
    private final short[] slots = new short[SLOTS];
    private final StagingLongs codes = new StagingLongs();
    private final String[] cachedStrings = new String[STRING_CACHE];
    private final byte[] cachedCodes = new byte[STRING_CACHE];
    private long pending;
    private long rows;
    private int size;

    int size() {
        return size;
    }

    byte[] value(int code) {
        return values[code];
    }

    /**
     * The code of a value, added if new; -1 if it is too long or one value too many. Generators hand over a new
     * String per row: a small cache by hash and equality finds the code without encoding the String to UTF-8.
     */
    int codeOf(String value) {
        int i = value.hashCode() & (STRING_CACHE - 1);
        String cached = cachedStrings[i];
        if (cached != null && cached.equals(value)) {
            return cachedCodes[i] & 0xFF;
        }
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        int code = codeOf(utf8, utf8.length);
        if (code >= 0) {
            cachedStrings[i] = value;
            cachedCodes[i] = (byte) code;
        }
        return code;
    }

    /**
     * The code of a value (UTF-8), added if new; -1 if it is too long or one value too many. Values of up to eight
     * bytes (most flags and modes) are found with one word read and compare; the array is read directly, a heap
     * segment per call costs more than the lookup.
     */
    int codeOf(byte[] utf8, int length) {
        if (length > MAX_VALUE_BYTES) {
            return -1;
        }
        long first = length >= Long.BYTES ? (long) ARRAY_LONG_LE.get(utf8, 0) : firstWord(utf8, length);
        long last = length > Long.BYTES ? (long) ARRAY_LONG_LE.get(utf8, length - Long.BYTES) : 0;
        int i = slot(first, length, last);
        while (slots[i] != 0) {
            int code = slots[i] - 1;
            if (firstWords[code] == first && lengths[code] == length && (length <= Long.BYTES
                    || Arrays.equals(values[code], 0, length, utf8, 0, length))) {
                return code;
            }
            i = (i + 1) & (SLOTS - 1);
        }
        return add(Arrays.copyOf(utf8, length), first, i);
    }

    /** Like {@link #codeOf(byte[], int)} for {@code length} bytes of {@code source} from {@code from}. */
    int codeOf(MemorySegment source, long from, long length) {
        if (length > MAX_VALUE_BYTES) {
            return -1;
        }
        int n = (int) length;
        long first = firstWord(source, from, n);
        long last = n > Long.BYTES ? source.get(LONG_LE, from + n - Long.BYTES) : 0;
        int i = slot(first, n, last);
        while (slots[i] != 0) {
            int code = slots[i] - 1;
            if (firstWords[code] == first && lengths[code] == n && (n <= Long.BYTES
                    || restEquals(source, from, n, valueSegments[code]))) {
                return code;
            }
            i = (i + 1) & (SLOTS - 1);
        }
        return add(source.asSlice(from, n).toArray(ValueLayout.JAVA_BYTE), first, i);
    }

    /** The first slot to probe for a value: from its first and last words and length, the same for both forms. */
    private static int slot(long first, int length, long last) {
        long mixed = (first + length) * 0x9E3779B97F4A7C15L;
        mixed = (mixed ^ last) * 0xC2B2AE3D27D4EB4FL;
        return (int) (mixed >>> 55); // the top 9 bits
    }

    private int add(byte[] value, long first, int slot) {
        if (size == MAX_DISTINCT) {
            return -1;
        }
        values[size] = value;
        valueSegments[size] = MemorySegment.ofArray(value);
        firstWords[size] = first;
        lengths[size] = value.length;
        slots[slot] = (short) (++size);
        return size - 1;
    }

    /** Whether bytes 8.. of two values of {@code n} (over 8) bytes agree: word by word, the last word overlapping. */
    private static boolean restEquals(MemorySegment source, long from, int n, MemorySegment value) {
        for (int at = Long.BYTES; at < n; at += Long.BYTES) {
            int word = Math.min(at, n - Long.BYTES);
            if (source.get(LONG_LE, from + word) != value.get(LONG_LE, word)) {
                return false;
            }
        }
        return true;
    }

    private static long firstWord(byte[] utf8, int n) {
        long word = 0;
        for (int b = n - 1; b >= 0; b--) {
            word = (word << 8) | (utf8[b] & 0xFF);
        }
        return word;
    }

    private static long firstWord(MemorySegment source, long from, int n) {
        if (n >= Long.BYTES) {
            return source.get(LONG_LE, from);
        }
        if (from + Long.BYTES <= source.byteSize()) {
            return n == 0 ? 0 : source.get(LONG_LE, from) & (-1L >>> (64 - 8 * n));
        }
        long word = 0;
        for (int b = n - 1; b >= 0; b--) {
            word = (word << 8) | (source.get(ValueLayout.JAVA_BYTE, from + b) & 0xFF);
        }
        return word;
    }

    /** Appends a row's code. */
    void add(int code) {
        int field = (int) (rows & 7);
        pending |= (long) code << (field << 3);
        if (field == 7) {
            codes.add(pending);
            pending = 0;
        }
        rows++;
    }

    int codeAt(long row) {
        long word = (row >>> 3) < codes.size() ? codes.get(row >>> 3) : pending;
        return (int) (word >>> ((row & 7) << 3)) & 0xFF;
    }

    void release() {
        codes.release();
    }
}
