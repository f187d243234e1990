package io.locusdb.core.query.agg;

import io.locusdb.core.storage.column.StringDictionary;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One query's global numbering of the strings it groups or counts distinctly. Each table part has its own sorted
 * dictionary, so equal strings have different codes in different parts; as the adaptive-placement paper
 * prescribes, a global dictionary of the group-by column is built first (here: per part dictionary, the first
 * time a task of that part needs it), and tasks then group on global IDs without ever building a String per row.
 *
 * <p>Strings that arrive decoded (a join's build side) are looked up once per row, so lookups are lock-free. The
 * strings are spread by hash over {@value #SHARDS} shards, each an open-addressing table of keys and (hash, ID)
 * pairs that only grows: a shard is small, so growing it rehashes in the cache, and inserts into different shards
 * do not wait for each other. An ID names its shard in its low bits. A {@link ConcurrentHashMap} spent most of a
 * string-heavy GROUP BY chasing nodes and resizing.
 */
public final class StringIds {
    private static final int SHARD_BITS = 6;
    private static final int SHARDS = 1 << SHARD_BITS;
    private static final VarHandle KEYS = MethodHandles.arrayElementVarHandle(String[].class);

    private final AtomicReferenceArray<Shard> shards = new AtomicReferenceArray<>(SHARDS);
    private final Map<StringDictionary, int[]> mappings = new ConcurrentHashMap<>();

    public int id(String value) {
        int hash = value.hashCode();
        int spread = spread(hash);
        return shard(spread >>> (32 - SHARD_BITS)).id(value, hash, spread);
    }

    private Shard shard(int index) {
        Shard shard = shards.get(index);
        if (shard == null) {
            shards.compareAndSet(index, null, new Shard(index));
            shard = shards.get(index);
        }
        return shard;
    }

    /** String hashes of short keys cluster; the multiply and shift spread them over shards and slots. */
    private static int spread(int hash) {
        int h = hash * 0x9E3779B9;
        return h ^ h >>> 16;
    }

    /** Part-local code to global ID for every code of {@code dictionary} (code 0, NULL, maps to -1). */
    public int[] mapping(StringDictionary dictionary) {
        int[] mapping = mappings.get(dictionary);
        if (mapping != null) {
            return mapping;
        }
        return mappings.computeIfAbsent(dictionary, d -> {
            int[] m = new int[d.size() + 1];
            m[0] = -1;
            for (int code = 1; code <= d.size(); code++) {
                m[code] = id(d.value(code));
            }
            return m;
        });
    }

    /**
     * The string of an ID, for the results: called once the tasks that numbered the strings have finished, whose
     * completion orders their writes before this read.
     */
    public String value(int id) {
        Shard shard = id < 0 ? null : shards.get(id & (SHARDS - 1));
        String value = shard == null ? null : shard.value(id >>> SHARD_BITS);
        if (value == null) {
            throw new IllegalArgumentException("no string has ID " + id);
        }
        return value;
    }

    /** How many strings are numbered. */
    public int size() {
        int size = 0;
        for (int i = 0; i < SHARDS; i++) {
            Shard shard = shards.get(i);
            if (shard != null) {
                synchronized (shard) {
                    size += shard.size;
                }
            }
        }
        return size;
    }

    /** Keys, and per slot the string's hash (high half) and ID (low half); capacity a power of two. */
    private record Table(String[] keys, long[] entries) {
        int mask() {
            return keys.length - 1;
        }
    }

    /**
     * One shard. Inserts take its lock, write a slot's pair before publishing its key, and replace a half-full
     * table by a copy twice its size; a reader holding an older table may miss a string added since and then
     * looks again under the lock.
     */
    private static final class Shard {
        private final int index;
        private volatile Table table = new Table(new String[64], new long[64]);
        private volatile String[] values = new String[16];
        private int size;

        Shard(int index) {
            this.index = index;
        }

        int id(String value, int hash, int spread) {
            Table t = table;
            int mask = t.mask();
            for (int slot = spread & mask; ; slot = (slot + 1) & mask) {
                String key = (String) KEYS.getAcquire(t.keys(), slot);
                if (key == null) {
                    return insert(value, hash, spread);
                }
                long entry = t.entries()[slot];
                if (key == value || (int) (entry >>> 32) == hash && key.equals(value)) {
                    return (int) entry;
                }
            }
        }

        private synchronized int insert(String value, int hash, int spread) {
            Table t = table;
            int mask = t.mask();
            int slot = spread & mask;
            for (; t.keys()[slot] != null; slot = (slot + 1) & mask) {
                long entry = t.entries()[slot];
                if ((int) (entry >>> 32) == hash && t.keys()[slot].equals(value)) {
                    return (int) entry;
                }
            }
            int local = size++;
            if (local == values.length) {
                values = Arrays.copyOf(values, local * 2);
            }
            values[local] = value;
            int id = local << SHARD_BITS | index;
            long entry = (long) hash << 32 | id & 0xFFFF_FFFFL;
            if (2 * size > t.keys().length) {
                t = grown(t);
                slot = spread & t.mask();
                while (t.keys()[slot] != null) {
                    slot = (slot + 1) & t.mask();
                }
                t.entries()[slot] = entry;
                t.keys()[slot] = value;
                table = t;
            } else {
                t.entries()[slot] = entry;
                KEYS.setRelease(t.keys(), slot, value);
            }
            return id;
        }

        private static Table grown(Table old) {
            int capacity = old.keys().length * 2;
            Table t = new Table(new String[capacity], new long[capacity]);
            int mask = capacity - 1;
            for (int i = 0; i < old.keys().length; i++) {
                String key = old.keys()[i];
                if (key != null) {
                    long entry = old.entries()[i];
                    int slot = spread((int) (entry >>> 32)) & mask;
                    while (t.keys()[slot] != null) {
                        slot = (slot + 1) & mask;
                    }
                    t.keys()[slot] = key;
                    t.entries()[slot] = entry;
                }
            }
            return t;
        }

        String value(int local) {
            String[] v = values;
            return local < v.length ? v[local] : null;
        }
    }
}
