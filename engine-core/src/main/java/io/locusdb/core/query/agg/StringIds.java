package io.locusdb.core.query.agg;

import io.locusdb.core.storage.column.StringDictionary;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One query's global numbering of the strings it groups or counts distinctly. Each table part has its own sorted
 * dictionary, so equal strings have different codes in different parts; as the adaptive-placement paper
 * prescribes, a global dictionary of the group-by column is built first (here: per part dictionary, the first
 * time a task of that part needs it), and tasks then group on global IDs without ever building a String per row.
 */
public final class StringIds {
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    private final Map<Integer, String> values = new ConcurrentHashMap<>();
    private final Map<StringDictionary, int[]> mappings = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger();

    public int id(String value) {
        Integer id = ids.get(value);
        if (id != null) {
            return id;
        }
        return ids.computeIfAbsent(value, v -> {
            int fresh = next.getAndIncrement();
            values.put(fresh, v);
            return fresh;
        });
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

    public String value(int id) {
        return values.get(id);
    }

    public int size() {
        return next.get();
    }
}
