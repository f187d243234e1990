package io.locusdb.core.query.pipeline;

import io.locusdb.core.storage.column.LongDictionary;

/**
 * A top-N task's cut-off as the codes of its scan's sort column that may still be among the first rows: a bitmap the
 * scan's materialize task tests each row's code against before decoding the row (the part's dictionary is sorted, so
 * the codes allowed are one range, plus NULL's code 0 where NULLs sort first). Each better cut-off clears the codes
 * it rules out; the bitmap only ever loses codes, so the task's scan and sink, on one thread, need no lock.
 */
final class CodeCutoff {
    private final LongDictionary dictionary;
    private final long[] allowed;
    private final boolean descending;
    private final boolean nullsFirst;
    /** Codes below this (descending) or above it (ascending) are cleared already. */
    private int clearedTo;

    CodeCutoff(LongDictionary dictionary, boolean descending, boolean nullsFirst) {
        this.dictionary = dictionary;
        int codes = dictionary.size() + 1;
        this.allowed = new long[(codes + 63) >>> 6];
        for (int c = 0; c < codes; c++) {
            allowed[c >>> 6] |= 1L << c;
        }
        this.descending = descending;
        this.nullsFirst = nullsFirst;
        this.clearedTo = descending ? 1 : dictionary.size();
    }

    /** The bitmap the scan tests codes against (bit c: code c may still be among the first rows). */
    long[] allowed() {
        return allowed;
    }

    /** The first rows' last row has {@code value} (not NULL) as its first key: rows past it can go. */
    void tighten(long value) {
        if (!nullsFirst) {
            // NULLs sort after every value, so after the cut-off too.
            allowed[0] &= ~1L;
        }
        if (descending) {
            // Rows from the cut-off's value up may still be among the first (ties included).
            int first = dictionary.ceilingId(value);
            for (int c = clearedTo; c < first; c++) {
                allowed[c >>> 6] &= ~(1L << c);
            }
            clearedTo = Math.max(clearedTo, first);
        } else {
            int last = dictionary.floorId(value);
            for (int c = clearedTo; c > last && c > 0; c--) {
                allowed[c >>> 6] &= ~(1L << c);
            }
            clearedTo = Math.min(clearedTo, Math.max(last, 0));
        }
    }
}
