package io.locusdb.core.storage.table;

import io.locusdb.core.storage.column.Dictionary;
import io.locusdb.core.storage.column.DoubleDictionary;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.index.MainKeyIndex;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Finds the rows of a part that hold a key (the values of one or more columns, physical): main rows through the
 * first column's dictionary and the part's {@link MainKeyIndex}, delta rows through the delta's index on that
 * column; the other columns are compared on the rows found.
 */
public final class KeyLookup {
    private KeyLookup() {
    }

    /**
     * Rows (main rows 0..rows-1, then delta rows) holding {@code key} in {@code columns}, not deleted as of
     * {@code commit}, among the main rows and the first {@code deltaRows} delta rows.
     */
    public static void find(TablePart part, int[] columns, Object[] key, long commit, int deltaRows,
                            LongConsumer rows) {
        for (Object v : key) {
            if (v == null) {
                return;
            }
        }
        PartDelta delta = part.delta();
        int[] ids = new int[columns.length];
        boolean inMain = part.rows() > 0;
        for (int k = 0; k < columns.length && inMain; k++) {
            ids[k] = idOf(part.column(columns[k]).dictionary(), key[k]);
            inMain = ids[k] > 0;
        }
        if (inMain) {
            MainKeyIndex index = part.keyIndex(columns[0]);
            for (int at = index.from(ids[0]), end = index.to(ids[0]); at < end; at++) {
                int r = index.rowAt(at);
                if (sameRest(part, columns, ids, r) && !delta.isDeleted(r, commit)) {
                    rows.accept(r);
                }
            }
        }
        long main = part.rows();
        for (int i : delta.keyIndex(columns[0]).rows(key[0])) {
            if (i >= deltaRows) {
                break;
            }
            if (!delta.isDeleted(main + i, commit) && sameRest(delta.pendingOrVisibleRow(i), columns, key)) {
                rows.accept(main + i);
            }
        }
    }

    private static boolean sameRest(TablePart part, int[] columns, int[] ids, int row) {
        for (int k = 1; k < columns.length; k++) {
            if (part.column(columns[k]).codes().get(row) != ids[k]) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameRest(Object[] row, int[] columns, Object[] key) {
        for (int k = 1; k < columns.length; k++) {
            if (!Objects.equals(row[columns[k]], key[k])) {
                return false;
            }
        }
        return true;
    }

    /** The value's ID in the dictionary, or 0 when the part does not hold it. */
    public static int idOf(Dictionary dictionary, Object value) {
        return switch (dictionary) {
            case LongDictionary d -> value instanceof Long l ? Math.max(0, d.idOf(l)) : 0;
            case DoubleDictionary d -> value instanceof Double x ? Math.max(0, d.idOf(x)) : 0;
            case StringDictionary d -> value instanceof String s ? Math.max(0, d.idOf(s)) : 0;
        };
    }
}
