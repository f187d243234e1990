package io.locusdb.core.storage.column;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Finds the distinct values of a string column with an open-addressing hash map, for columns with few of them
 * (flags, modes, names): one probe per row is cheaper than sorting every row. Gives up past a cap on distinct
 * values, where sorting all rows ({@link StringSort}) beats a map that no longer fits in cache.
 */
final class DistinctStrings {
    /** The cap for small columns: below it a map is always cheap. */
    private static final int MIN_CAP = 1 << 16;
    /** Rows after which a column whose values are still mostly new gives up early. */
    private static final int SAMPLE = 1 << 14;

    private final StringRows rows;
    /** Per slot: the hash (high 32 bits) and the 1-based distinct ID (low 32 bits); 0 is empty. */
    private final long[] slots;
    /** Per distinct ID - 1: the entry that first held the value. */
    private final int[] representatives;
    /** Per distinct ID - 1: the first eight bytes, so values of at most eight bytes compare as one long. */
    private final long[] firstWords;
    /** Per entry: its distinct ID. */
    private final int[] ids;
    private int size;

    private DistinctStrings(StringRows rows, int cap) {
        this.rows = rows;
        this.slots = new long[Integer.highestOneBit(Math.max(16, cap) * 2 - 1) << 1];
        this.representatives = new int[cap];
        this.firstWords = new long[cap];
        this.ids = new int[rows.size()];
    }

    /** The distinct values of {@code rows}, or null when there are more than the cap for their number. */
    static DistinctStrings find(StringRows rows) {
        int cap = Math.min(rows.size(), Math.max(MIN_CAP, rows.size() >>> 5));
        DistinctStrings distinct = new DistinctStrings(rows, cap);
        for (int e = 0; e < rows.size(); e++) {
            int id = distinct.idOf(e);
            if (id < 0 || (e == SAMPLE && distinct.size > SAMPLE / 2 && rows.size() > cap)) {
                // Over the cap, or mostly distinct so far in a column that could exceed it: comments, names.
                return null;
            }
            distinct.ids[e] = id;
        }
        return distinct;
    }

    int size() {
        return size;
    }

    /** The entry holding each distinct value, by distinct ID - 1. */
    int[] representatives() {
        return Arrays.copyOf(representatives, size);
    }

    /** The representative entry of an entry's value. */
    int representativeOf(int entry) {
        return representatives[ids[entry] - 1];
    }

    private int idOf(int entry) {
        int length = rows.length(entry);
        long first = rows.word(entry, 0);
        int h = length <= Long.BYTES ? mix(first ^ length) : hash(entry, length);
        int mask = slots.length - 1;
        int i = (h * 0x9E3779B1) & mask;
        while (true) {
            long slot = slots[i];
            if (slot == 0) {
                return insert(entry, first, h, i);
            }
            int id = (int) slot;
            if ((int) (slot >>> 32) == h && firstWords[id - 1] == first
                    && (length <= Long.BYTES ? rows.length(representatives[id - 1]) == length
                    : rows.same(entry, representatives[id - 1]))) {
                return id;
            }
            i = (i + 1) & mask;
        }
    }

    private int insert(int entry, long first, int hash, int slot) {
        if (size == representatives.length) {
            return -1;
        }
        representatives[size] = entry;
        firstWords[size] = first;
        int id = ++size;
        slots[slot] = ((long) hash << 32) | id;
        return id;
    }

    private static int mix(long key) {
        long mixed = key * 0x9E3779B97F4A7C15L;
        return (int) (mixed ^ (mixed >>> 32));
    }

    private int hash(int entry, int n) {
        MemorySegment chunk = rows.chunk(entry);
        long offset = rows.offset(entry);
        long h = 0x9E3779B97F4A7C15L ^ n;
        long i = 0;
        for (; i + 8 <= n; i += 8) {
            h = Long.rotateLeft(h ^ chunk.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + i) * 0xC2B2AE3D27D4EB4FL, 31)
                    * 0x9E3779B97F4A7C15L;
        }
        long tail = 0;
        for (; i < n; i++) {
            tail = (tail << 8) | (chunk.get(ValueLayout.JAVA_BYTE, offset + i) & 0xFF);
        }
        h ^= tail * 0x165667B19E3779F9L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) (h ^ (h >>> 32));
    }
}
