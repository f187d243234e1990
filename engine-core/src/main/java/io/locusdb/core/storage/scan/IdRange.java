package io.locusdb.core.storage.scan;

import io.locusdb.core.storage.column.DoubleDictionary;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.column.StringDictionary;

/**
 * A closed range of value IDs, the form every comparison predicate on a dictionary-encoded column takes: because
 * the dictionary is sorted, {@code lo ≤ v ≤ hi} on values is {@code loId ≤ id ≤ hiId} on IDs. NULL (ID 0) is never
 * inside a range. Empty when {@code lo > hi}.
 */
public record IdRange(int lo, int hi) {
    public static final IdRange EMPTY = new IdRange(1, 0);

    public boolean isEmpty() {
        return lo > hi;
    }

    /** IDs of values in [lo, hi] (inclusive bounds). */
    public static IdRange between(LongDictionary dictionary, long lo, long hi) {
        return of(dictionary.ceilingId(lo), dictionary.floorId(hi));
    }

    public static IdRange between(DoubleDictionary dictionary, double lo, double hi) {
        return of(dictionary.ceilingId(lo), dictionary.floorId(hi));
    }

    public static IdRange between(StringDictionary dictionary, String lo, String hi) {
        return of(dictionary.ceilingId(lo), dictionary.floorId(hi));
    }

    /** Every non-null value. */
    public static IdRange allValues(int dictionarySize) {
        return of(1, dictionarySize);
    }

    private static IdRange of(int lo, int hi) {
        return lo > hi ? EMPTY : new IdRange(Math.max(lo, 1), hi);
    }
}
