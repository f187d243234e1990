package io.locusdb.core.storage.column;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Sorts string entries in unsigned byte order and marks the repeats (entries equal to their predecessor), so a
 * dictionary is the sort without a hash map. An MSD radix sort over 8-byte big-endian words: the entries are first
 * distributed by their first two bytes, values and all, into a {@link ContiguousStrings} (one sequential pass over
 * the staged bytes); the buckets are then sorted as independent tasks (in groups of about equal size, on the
 * caller's fork-join pool), each within its own small stretch of memory. Inside a bucket an LSD pass orders a word
 * and runs that tie recurse on the next word, down to short runs that are sorted by direct comparison.
 */
final class StringSort {
    private static final int SMALL_RUN = 32;
    /** Below this many entries one task sorts faster than a split and hand-offs. */
    private static final int PARALLEL_MIN = 1 << 16;
    /** Past this many shared bytes, compare directly: bounds the recursion for long common prefixes. */
    private static final int MAX_RADIX_DEPTH = 256;
    private static final int BUCKETS = 1 << 16;

    private final StringRows rows;
    /** The values by bucket; the sort permutes positions in it. */
    private ContiguousStrings strings;
    /** Per position: the entry of {@link #rows} it was copied from. */
    private final int[] entryAt;
    private final int[] order;
    private final byte[] repeat;
    private final long[] keys;
    private final long[] keyScratch;
    private final int[] orderScratch;

    private StringSort(StringRows rows, int size) {
        this.rows = rows;
        this.entryAt = new int[size];
        this.order = new int[size];
        this.repeat = new byte[size];
        this.keys = new long[size];
        this.keyScratch = new long[size];
        this.orderScratch = new int[size];
    }

    /** Sorts {@code entries} of {@code rows} (all of them when null). */
    static SortedStrings sort(StringRows rows, int[] entries) {
        int size = entries == null ? rows.size() : entries.length;
        StringSort sort = new StringSort(rows, size);
        try {
            return sort.sortBuckets(sort.distribute(entries));
        } catch (RuntimeException | Error e) {
            if (sort.strings != null) {
                sort.strings.close();
            }
            throw e;
        }
    }

    /** Sorts the buckets in groups, one task each, counting each group's distinct values and their bytes. */
    private SortedStrings sortBuckets(int[] bucketStart) {
        List<int[]> groups = groups(bucketStart, order.length);
        int[] distinct = new int[groups.size()];
        long[] bytes = new long[groups.size()];
        List<Runnable> tasks = new ArrayList<>();
        for (int g : biggestFirst(groups, bucketStart)) {
            int[] buckets = groups.get(g);
            tasks.add(() -> {
                for (int b = buckets[0]; b < buckets[1]; b++) {
                    sortRange(bucketStart[b], bucketStart[b + 1], 0, true);
                }
                int count = 0;
                long length = 0;
                for (int k = bucketStart[buckets[0]]; k < bucketStart[buckets[1]]; k++) {
                    if (repeat[k] == 0) {
                        count++;
                        length += strings.length(order[k]);
                    }
                }
                distinct[g] = count;
                bytes[g] = length;
            });
        }
        AllTasks.run(tasks);
        int[] groupStart = new int[groups.size() + 1];
        for (int g = 0; g < groups.size(); g++) {
            groupStart[g] = bucketStart[groups.get(g)[0]];
        }
        groupStart[groups.size()] = order.length;
        return new SortedStrings(strings, entryAt, order, repeat, groupStart, distinct, bytes);
    }

    /**
     * Counting-sorts the entries by their first two bytes: their values into {@link #strings}, their first words
     * into {@link #keys}; returns the bucket bounds. Slices of the entries are counted and then scattered as
     * parallel tasks, each slice into its own stretch of every bucket: each reads its staged values once, in
     * staging order, and writes each bucket's values one after the other.
     */
    private int[] distribute(int[] entries) {
        int size = order.length;
        int slices = size < PARALLEL_MIN ? 1 : 2 * AllTasks.parallelism();
        int[][] next = new int[slices][BUCKETS];
        long[][] nextByte = new long[slices][BUCKETS];
        long[][] byteLimit = new long[slices][];
        List<Runnable> counting = new ArrayList<>();
        for (int s = 0; s < slices; s++) {
            int slice = s;
            counting.add(() -> {
                int[] count = next[slice];
                long[] bytes = nextByte[slice];
                for (int i = sliceStart(slice, slices, size); i < sliceStart(slice + 1, slices, size); i++) {
                    int entry = entries == null ? i : entries[i];
                    long key = rows.word(entry, 0);
                    keyScratch[i] = key;
                    int bucket = (int) (key >>> 48);
                    count[bucket]++;
                    bytes[bucket] += rows.length(entry);
                }
            });
        }
        AllTasks.run(counting);
        // Bucket by bucket, slice by slice: where each slice's entries and bytes of each bucket start and end.
        int[] bucketStart = new int[BUCKETS + 1];
        int position = 0;
        long at = 0;
        for (int s = 0; s < slices; s++) {
            byteLimit[s] = new long[BUCKETS];
        }
        for (int b = 0; b < BUCKETS; b++) {
            bucketStart[b] = position;
            for (int s = 0; s < slices; s++) {
                int count = next[s][b];
                next[s][b] = position;
                position += count;
                long bytes = nextByte[s][b];
                nextByte[s][b] = at;
                at += bytes;
                byteLimit[s][b] = at;
            }
        }
        bucketStart[BUCKETS] = position;
        strings = new ContiguousStrings(size, at);
        List<Runnable> scattering = new ArrayList<>();
        for (int s = 0; s < slices; s++) {
            int slice = s;
            scattering.add(() -> {
                int[] nextPosition = next[slice];
                long[] nextAt = nextByte[slice];
                long[] limit = byteLimit[slice];
                for (int i = sliceStart(slice, slices, size); i < sliceStart(slice + 1, slices, size); i++) {
                    int entry = entries == null ? i : entries[i];
                    long key = keyScratch[i];
                    int bucket = (int) (key >>> 48);
                    int p = nextPosition[bucket]++;
                    strings.put(p, rows, entry, nextAt[bucket], limit[bucket]);
                    nextAt[bucket] += strings.length(p);
                    entryAt[p] = entry;
                    order[p] = p;
                    keys[p] = key;
                }
            });
        }
        AllTasks.run(scattering);
        return bucketStart;
    }

    private static int sliceStart(int slice, int slices, int size) {
        return (int) ((long) size * slice / slices);
    }

    /** Consecutive buckets in groups of about equal entries, a few per worker so that they end close together. */
    private static List<int[]> groups(int[] bucketStart, int size) {
        List<int[]> groups = new ArrayList<>();
        if (size < PARALLEL_MIN) {
            groups.add(new int[] {0, BUCKETS});
            return groups;
        }
        long target = Math.max(PARALLEL_MIN / 4, size / (8L * AllTasks.parallelism()));
        int first = 0;
        for (int b = 0; b < BUCKETS; b++) {
            if (bucketStart[b + 1] - bucketStart[first] >= target || b == BUCKETS - 1) {
                groups.add(new int[] {first, b + 1});
                first = b + 1;
            }
        }
        return groups;
    }

    /** Group indices, biggest first: so the workers end close together even with skewed first bytes. */
    private static List<Integer> biggestFirst(List<int[]> groups, int[] bucketStart) {
        List<Integer> indices = new ArrayList<>();
        for (int g = 0; g < groups.size(); g++) {
            indices.add(g);
        }
        indices.sort((x, y) -> Integer.compare(entries(groups.get(y), bucketStart), entries(groups.get(x),
                bucketStart)));
        return indices;
    }

    private static int entries(int[] group, int[] bucketStart) {
        return bucketStart[group[1]] - bucketStart[group[0]];
    }

    /** Sorts {@code [from, to)}, whose entries agree on their first {@code depth} bytes, and marks its repeats. */
    private void sortRange(int from, int to, int depth, boolean keysReady) {
        if (to - from < 2) {
            return;
        }
        if (to - from <= SMALL_RUN || depth >= MAX_RADIX_DEPTH) {
            sortByComparison(from, to, depth);
            return;
        }
        if (!keysReady) {
            for (int k = from; k < to; k++) {
                keys[k] = strings.word(order[k], depth);
            }
        }
        RadixSort.sort(keys, order, from, to, keyScratch, orderScratch);
        int runStart = from;
        for (int k = from + 1; k <= to; k++) {
            if (k == to || keys[k] != keys[runStart]) {
                if (k - runStart > 1) {
                    if (anyLongerThan(runStart, k, depth + 8)) {
                        sortRange(runStart, k, depth + 8, false);
                    } else {
                        sortByLength(runStart, k);
                    }
                }
                runStart = k;
            }
        }
    }

    private boolean anyLongerThan(int from, int to, int length) {
        for (int k = from; k < to; k++) {
            if (strings.length(order[k]) > length) {
                return true;
            }
        }
        return false;
    }

    /**
     * A run that agrees on every byte any of its values has (zero-padded): each value is a prefix of the longer
     * ones, so length alone orders it, and equal lengths are equal values. Columns of few values end here with
     * long runs, so this must not compare bytes.
     */
    private void sortByLength(int from, int to) {
        boolean sameLength = true;
        int first = strings.length(order[from]);
        for (int k = from; k < to; k++) {
            keys[k] = strings.length(order[k]);
            sameLength &= keys[k] == first;
        }
        if (!sameLength) {
            RadixSort.sort(keys, order, from, to, keyScratch, orderScratch);
        }
        for (int k = from + 1; k < to; k++) {
            if (keys[k] == keys[k - 1]) {
                repeat[k] = 1;
            }
        }
    }

    private void sortByComparison(int from, int to, int depth) {
        if (to - from <= SMALL_RUN) {
            for (int i = from + 1; i < to; i++) {
                int entry = order[i];
                int j = i - 1;
                while (j >= from && strings.compare(order[j], entry, depth) > 0) {
                    order[j + 1] = order[j];
                    j--;
                }
                order[j + 1] = entry;
            }
        } else {
            Integer[] run = new Integer[to - from];
            for (int k = from; k < to; k++) {
                run[k - from] = order[k];
            }
            Arrays.sort(run, (a, b) -> strings.compare(a, b, depth));
            for (int k = from; k < to; k++) {
                order[k] = run[k - from];
            }
        }
        for (int k = from + 1; k < to; k++) {
            if (strings.compare(order[k - 1], order[k], depth) == 0) {
                repeat[k] = 1;
            }
        }
    }
}
