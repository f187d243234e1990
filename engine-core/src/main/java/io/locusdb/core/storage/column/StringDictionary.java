package io.locusdb.core.storage.column;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Sorted distinct strings as UTF-8 in an off-heap byte heap, with {@code size+1} int offsets into it. Sorted by
 * unsigned UTF-8 bytes, which is Unicode code point order (binary collation).
 */
public final class StringDictionary implements Dictionary {
    /**
     * Dictionaries of up to this many bytes of strings keep each value's String once decoded. A query that outputs or
     * groups on such a column (names, addresses, comments of a dimension table) then neither allocates nor hashes a
     * String per row, query after query: the String and its cached hash stay. Larger ones (lineitem's comments) would
     * hold too much heap, and decode afresh.
     */
    static final long CACHED_BYTES = 16L << 20;

    private final MemorySegment offsets;
    private final MemorySegment bytes;
    private final int size;
    /** Decoded values by ID, filled as they are asked for; allocated on the first one. Races only duplicate work. */
    private volatile String[] decoded;
    /** What queries worked out from the values (the codes a LIKE pattern matches), by key, least recently used first. */
    private final Map<Object, Object> derived = new LinkedHashMap<>(4, 0.75f, true);

    public StringDictionary(MemorySegment offsets, MemorySegment bytes, int size) {
        if (offsets.byteSize() < (long) (size + 1) * Integer.BYTES) {
            throw new IllegalArgumentException("offsets segment too small for " + size + " values");
        }
        this.offsets = offsets;
        this.bytes = bytes;
        this.size = size;
    }

    /**
     * A result derived from this dictionary's values alone, computed once per {@code key} and kept with the
     * dictionary (which never changes): every query, plan and task that asks for it again gets it without a scan of
     * the values. At most {@value #DERIVED_KEPT} are kept, the least recently used dropped first; they go with the
     * dictionary. Two threads that ask at once may both compute it.
     */
    @SuppressWarnings("unchecked")
    public <T> T derived(Object key, Function<StringDictionary, T> compute) {
        synchronized (derived) {
            Object known = derived.get(key);
            if (known != null) {
                return (T) known;
            }
        }
        T value = compute.apply(this);
        synchronized (derived) {
            derived.putIfAbsent(key, value);
            while (derived.size() > DERIVED_KEPT) {
                derived.remove(derived.keySet().iterator().next());
            }
        }
        return value;
    }

    /** Whether {@link #derived} holds a result for {@code key}. */
    public boolean hasDerived(Object key) {
        synchronized (derived) {
            return derived.containsKey(key);
        }
    }

    /** Derived results kept per dictionary. */
    static final int DERIVED_KEPT = 32;

    public MemorySegment offsetsSegment() {
        return offsets;
    }

    public MemorySegment bytesSegment() {
        return bytes;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public long byteSize() {
        return (long) (size + 1) * Integer.BYTES + heapBytes();
    }

    public long heapBytes() {
        return offsets.getAtIndex(ValueLayout.JAVA_INT, size);
    }

    /** The UTF-8 bytes of a value, as a slice (no copy). */
    public MemorySegment valueBytes(int id) {
        int start = offsets.getAtIndex(ValueLayout.JAVA_INT, id - 1);
        int end = offsets.getAtIndex(ValueLayout.JAVA_INT, id);
        return bytes.asSlice(start, end - start);
    }

    public String value(int id) {
        String[] cache = decoded;
        if (cache == null) {
            if (heapBytes() > CACHED_BYTES) {
                return decode(id);
            }
            cache = new String[size + 1];
            decoded = cache;
        }
        String value = cache[id];
        if (value == null) {
            value = decode(id);
            cache[id] = value;
        }
        return value;
    }

    /**
     * About how much heap the decoded values kept by {@link #value} take (String and array headers of a 64-bit JVM
     * with compressed references, Latin-1 text a byte a character), for the memory account.
     */
    public long cachedHeapBytes() {
        String[] cache = decoded;
        if (cache == null) {
            return 0;
        }
        long bytes = 16 + 4L * cache.length;
        for (String value : cache) {
            if (value != null) {
                bytes += 24 + 16 + value.length();
            }
        }
        return bytes;
    }

    private String decode(int id) {
        int start = offsets.getAtIndex(ValueLayout.JAVA_INT, id - 1);
        int end = offsets.getAtIndex(ValueLayout.JAVA_INT, id);
        byte[] utf8 = new byte[end - start];
        MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, start, utf8, 0, utf8.length);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    @Override
    public Object boxedValue(int id) {
        return id == 0 ? null : value(id);
    }

    /** Unsigned byte comparison of value {@code id} with {@code probe}. */
    public int compare(int id, MemorySegment probe) {
        MemorySegment value = valueBytes(id);
        long mismatch = value.mismatch(probe);
        if (mismatch < 0) {
            return 0;
        }
        if (mismatch == value.byteSize()) {
            return -1;
        }
        if (mismatch == probe.byteSize()) {
            return 1;
        }
        return Integer.compare(Byte.toUnsignedInt(value.get(ValueLayout.JAVA_BYTE, mismatch)),
                Byte.toUnsignedInt(probe.get(ValueLayout.JAVA_BYTE, mismatch)));
    }

    public int ceilingId(String probe) {
        MemorySegment p = MemorySegment.ofArray(probe.getBytes(StandardCharsets.UTF_8));
        int lo = 1;
        int hi = size + 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(mid, p) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    public int floorId(String probe) {
        MemorySegment p = MemorySegment.ofArray(probe.getBytes(StandardCharsets.UTF_8));
        int lo = 1;
        int hi = size + 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(mid, p) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - 1;
    }

    public int idOf(String probe) {
        int id = ceilingId(probe);
        return id <= size && value(id).equals(probe) ? id : -1;
    }
}
