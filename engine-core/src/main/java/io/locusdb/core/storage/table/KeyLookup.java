package io.locusdb.core.storage.table;

import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.DoubleDictionary;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.column.StringDictionary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the rows of a part that hold a key, for upserts: main rows through the sorted dictionary and a value-ID →
 * row index built once per (immutable) part and column, delta rows through the delta's key index.
 */
final class KeyLookup {
    /** Main-row index per part and column: first row of each value ID, -2 where the ID occurs more than once. */
    private static final Map<TablePart, Map<Integer, int[]>> MAIN_INDEXES =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    private KeyLookup() {
    }

    /** Rows (main rows first, then delta rows) with {@code key} that are not deleted as of {@code commit}. */
    static List<Long> find(TablePart part, int keyColumn, Object key, long commit) {
        List<Long> rows = new ArrayList<>(1);
        if (key == null) {
            return rows;
        }
        Column column = part.column(keyColumn);
        int id = idOf(column, key);
        if (id > 0) {
            int[] firstRow = MAIN_INDEXES.computeIfAbsent(part, p -> new ConcurrentHashMap<>())
                    .computeIfAbsent(keyColumn, c -> buildIndex(column));
            int first = firstRow[id];
            if (first >= 0) {
                addIfLive(part, first, commit, rows);
            } else if (first == -2) {
                for (long r = 0; r < column.rows(); r++) {
                    if (column.codes().get(r) == id) {
                        addIfLive(part, r, commit, rows);
                    }
                }
            }
        }
        for (int i : part.delta().rowsWithKey(keyColumn, key)) {
            addIfLive(part, part.rows() + i, commit, rows);
        }
        return rows;
    }

    private static void addIfLive(TablePart part, long row, long commit, List<Long> rows) {
        if (!part.delta().isDeleted(row, commit)) {
            rows.add(row);
        }
    }

    private static int[] buildIndex(Column column) {
        int[] firstRow = new int[column.dictionary().size() + 1];
        java.util.Arrays.fill(firstRow, -1);
        for (int r = 0; r < column.rows(); r++) {
            int id = column.codes().get(r);
            firstRow[id] = firstRow[id] == -1 ? r : -2;
        }
        return firstRow;
    }

    private static int idOf(Column column, Object key) {
        return switch (column.dictionary()) {
            case LongDictionary d -> d.idOf((Long) key);
            case DoubleDictionary d -> d.idOf((Double) key);
            case StringDictionary d -> d.idOf((String) key);
        };
    }
}
