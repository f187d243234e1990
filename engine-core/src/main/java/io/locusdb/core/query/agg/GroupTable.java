package io.locusdb.core.query.agg;

import io.locusdb.core.exec.MemoryBudget;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import java.util.Arrays;
import java.util.List;

/**
 * A hash table from group keys to group numbers, with the aggregates' states beside it. Each key column is held as
 * a long: the value for integers, decimals and dates, the bits for doubles, a {@link StringIds} ID for strings (an
 * encoded column maps its part's codes through the global dictionary: no String per row); a bit per key marks
 * NULL. Open addressing with linear probing; one table belongs to one task.
 */
public final class GroupTable {
    private final List<ColumnType> keyTypes;
    private final int keyCount;
    private final StringIds strings;
    private final Accumulator[] accumulators;
    /** Charged as the table's arrays grow, so a query with runaway groups fails instead of exhausting the heap. */
    private final MemoryBudget budget;
    private final long bytesPerGroup;
    private long charged;
    private long[] keys = new long[0];
    private long[] nullMasks = new long[0];
    private long[] hashes = new long[0];
    /** Rows per group, counted once here for every aggregate (COUNT(*) is this; others subtract their NULLs). */
    private long[] rowCounts = new long[0];
    private int[] slots;
    private int mask;
    private int size;
    /** False for a table whose rows are its groups ({@link #rowsAsGroups}): no index, a row count of one each. */
    private final boolean indexed;
    // Per-batch scratch, reused.
    private long[] rowKeys = new long[0];
    private long[] rowNulls = new long[0];
    private int[] groups = new int[0];
    private long[] countLanes = new long[0];
    private int[] combinations = new int[0];

    public GroupTable(List<ColumnType> keyTypes, List<AggregateCall> calls, StringIds strings) {
        this(keyTypes, calls, strings, null);
    }

    /** A table whose growth is charged to {@code budget} (null: not accounted). */
    public GroupTable(List<ColumnType> keyTypes, List<AggregateCall> calls, StringIds strings, MemoryBudget budget) {
        this(keyTypes, calls, strings, budget, 0);
    }

    /**
     * As above, with room for {@code expectedGroups} groups from the start: a table known to grow large is not
     * copied and rehashed on its way there.
     */
    public GroupTable(List<ColumnType> keyTypes, List<AggregateCall> calls, StringIds strings, MemoryBudget budget,
                      int expectedGroups) {
        this(keyTypes, calls, strings, budget, expectedGroups, true);
    }

    /**
     * As above, finding groups in {@code spareSlots} (from {@link #detachSlots} of a table done with them) where it
     * has the size this table's index starts at: a task that fills table after table of the same size reuses one
     * index, which at tens of thousands of groups is an array the collector allocates outside its young space.
     */
    public GroupTable(List<ColumnType> keyTypes, List<AggregateCall> calls, StringIds strings, MemoryBudget budget,
                      int expectedGroups, int[] spareSlots) {
        this(keyTypes, calls, strings, budget, expectedGroups, true, spareSlots);
    }

    /**
     * This table's hash index, taken away for another table: the table must not look groups up or take rows after
     * this (a table handed to a merge is only read). Null when it has none.
     */
    public int[] detachSlots() {
        int[] detached = slots;
        slots = null;
        return detached;
    }

    /**
     * A table without a hash index, filled by {@link #addRowsAsGroups}: every row it takes is a group of its own,
     * hashed and stored but not looked up. Where a task's rows hardly repeat a key (a grouping by a near-unique
     * key), looking each row up locally only to find it new costs a probe per row and saves the merge nothing; these
     * rows go to the merge, sorted into buckets like any handed table's groups, and meet their equals there.
     */
    public static GroupTable rowsAsGroups(List<ColumnType> keyTypes, List<AggregateCall> calls, StringIds strings,
                                          MemoryBudget budget, int expectedRows) {
        if (keyTypes.isEmpty()) {
            throw new IllegalArgumentException("the grand total has one group, not one per row");
        }
        return new GroupTable(keyTypes, calls, strings, budget, expectedRows, false);
    }

    private GroupTable(List<ColumnType> keyTypes, List<AggregateCall> calls, StringIds strings, MemoryBudget budget,
                       int expectedGroups, boolean indexed) {
        this(keyTypes, calls, strings, budget, expectedGroups, indexed, null);
    }

    private GroupTable(List<ColumnType> keyTypes, List<AggregateCall> calls, StringIds strings, MemoryBudget budget,
                       int expectedGroups, boolean indexed, int[] spareSlots) {
        if (keyTypes.size() > 64) {
            throw new IllegalArgumentException("at most 64 grouping columns, got " + keyTypes.size());
        }
        this.indexed = indexed;
        this.keyTypes = List.copyOf(keyTypes);
        this.keyCount = keyTypes.size();
        this.strings = strings;
        this.accumulators = Accumulator.createAll(calls);
        this.budget = budget;
        // keys, null mask, hash, row count, two hash slots, and an estimate of 16 bytes of state per aggregate.
        this.bytesPerGroup = 8L * (keyCount + 3) + 8 + 16L * accumulators.length;
        if (indexed) {
            int slotCount = Math.max(16, Integer.highestOneBit(Math.max(1, expectedGroups)) << 2);
            this.slots = spareSlots != null && spareSlots.length == slotCount ? spareSlots : new int[slotCount];
            Arrays.fill(slots, -1);
            this.mask = slotCount - 1;
        }
        if (expectedGroups > 0 && keyCount > 0) {
            charge((long) expectedGroups * bytesPerGroup);
            keys = new long[expectedGroups * keyCount];
            nullMasks = new long[expectedGroups];
            hashes = new long[expectedGroups];
            rowCounts = new long[expectedGroups];
            for (Accumulator a : accumulators) {
                a.reserve(expectedGroups);
            }
        }
        if (keyCount == 0) {
            // The grand total always has its one group, even over no rows.
            insert(new long[0], 0, 0, 0);
        }
    }

    public int size() {
        return size;
    }

    public long hash(int group) {
        return hashes[group];
    }

    /**
     * Reorders the groups by radix bucket of their hash's top {@code bits} bits and fills {@code offsets}: groups
     * {@code offsets[b]..offsets[b+1]-1} are bucket b's, in their former order. A counting sort and one permutation
     * of each array, done while the table is still in the cache of the task that built it, so that a merge later
     * reads each bucket's groups as one contiguous run. The table is only read after this (its slots are dropped):
     * {@link #mergeGroup} from it, {@link #finish}.
     * <p>
     * The buckets are independent of the slots a table finds groups in (its low bits), so a table built from one
     * bucket's groups does not crowd.
     */
    public void sortIntoBuckets(int bits, int[] offsets) {
        sortIntoBuckets(bits, offsets, null);
    }

    /**
     * As above, bucketed by a hash of only the keys at {@code bucketKeys} (positions among the keys; null: all):
     * every group that agrees on those keys lands in one bucket, so an aggregation over a subset of the keys can
     * finish each bucket on its own.
     */
    public void sortIntoBuckets(int bits, int[] offsets, int[] bucketKeys) {
        int buckets = 1 << bits;
        if (offsets.length != buckets + 1) {
            throw new IllegalArgumentException("offsets must have " + (buckets + 1) + " entries");
        }
        Arrays.fill(offsets, 0);
        if (bits == 0) {
            offsets[1] = size;
            return;
        }
        int shift = 64 - bits;
        long[] bucketHashes = bucketKeys == null ? hashes : subsetHashes(bucketKeys);
        int[] bucketOf = new int[size];
        for (int g = 0; g < size; g++) {
            int b = (int) (bucketHashes[g] >>> shift);
            bucketOf[g] = b;
            offsets[b + 1]++;
        }
        for (int b = 0; b < buckets; b++) {
            offsets[b + 1] += offsets[b];
        }
        int[] next = Arrays.copyOf(offsets, buckets);
        int[] order = new int[size];
        for (int g = 0; g < size; g++) {
            order[next[bucketOf[g]]++] = g;
        }
        keys = permutedKeys(order);
        // Arrays of one value throughout (no NULL keys; a row per group) read the same in any order.
        if (!Accumulator.allZero(nullMasks, size)) {
            nullMasks = Accumulator.permuted(nullMasks, order, size);
        }
        hashes = Accumulator.permuted(hashes, order, size);
        if (indexed) {
            rowCounts = Accumulator.permuted(rowCounts, order, size);
        }
        for (Accumulator a : accumulators) {
            a.permute(order, size);
        }
        slots = null;
        directGroups = null;
        directDictionaries = null;
    }

    /** The keys in {@code order}: one and two keys (most groupings) copied in loops of their own. */
    private long[] permutedKeys(int[] order) {
        long[] sorted = new long[keys.length];
        switch (keyCount) {
            case 1 -> {
                for (int i = 0; i < size; i++) {
                    sorted[i] = keys[order[i]];
                }
            }
            case 2 -> {
                for (int i = 0; i < size; i++) {
                    int from = order[i] << 1;
                    sorted[2 * i] = keys[from];
                    sorted[2 * i + 1] = keys[from + 1];
                }
            }
            default -> {
                for (int i = 0; i < size; i++) {
                    System.arraycopy(keys, order[i] * keyCount, sorted, i * keyCount, keyCount);
                }
            }
        }
        return sorted;
    }

    /** Per group, the hash of the keys at {@code positions} alone, mixed as the full hash is. */
    private long[] subsetHashes(int[] positions) {
        long[] out = new long[size];
        for (int g = 0; g < size; g++) {
            long nulls = 0;
            long h = 0;
            for (int i = 0; i < positions.length; i++) {
                int k = positions[i];
                nulls |= (nullMasks[g] >>> k & 1) << i;
                h = (h ^ keys[g * keyCount + k]) * 0xBF58476D1CE4E5B9L;
                h ^= h >>> 31;
            }
            h ^= nulls * 0x9E3779B97F4A7C15L;
            out[g] = h ^ (h >>> 29);
        }
        return out;
    }

    /** Adds a batch: key columns and aggregate arguments (null entries for COUNT(*)) of {@code rows} rows. */
    public void add(ColumnVector[] keyColumns, ColumnVector[] arguments, int rows) {
        if (groups.length < rows) {
            groups = new int[rows];
            rowKeys = new long[rows * Math.max(1, keyCount)];
            rowNulls = new long[rows];
        }
        if (keyCount == 0) {
            Arrays.fill(groups, 0, rows, 0);
        } else if (smallDictionaries(keyColumns)) {
            groupByCodes(keyColumns, rows);
        } else if (keyCount == 1 && keyColumns[0].physical() == TypeKind.Physical.LONG) {
            groupByOneLong(keyColumns[0], rows);
        } else {
            encode(keyColumns, rows);
            for (int i = 0; i < rows; i++) {
                // Rows in key order (a table loaded by its key, a join's repeated build row) repeat the row before.
                groups[i] = i > 0 && rowNulls[i] == rowNulls[i - 1] && sameAsRowBefore(i)
                        ? groups[i - 1] : findOrInsert(rowKeys, i * keyCount, rowNulls[i]);
            }
        }
        countLanes = GroupedSums.count(rowCounts, size, groups, rows, countLanes);
        for (int a = 0; a < accumulators.length; a++) {
            accumulators[a].grow(size);
            accumulators[a].update(groups, arguments[a], rows);
        }
    }

    /**
     * Adds a batch to a table made by {@link #rowsAsGroups}: each row becomes a new group with its key, its hash
     * (the one {@link #hashOf} gives, so a merge finds it among any table's groups) and a row count of one.
     */
    public void addRowsAsGroups(ColumnVector[] keyColumns, ColumnVector[] arguments, int rows) {
        if (slots != null) {
            throw new IllegalStateException("a table with a hash index finds its groups; use add");
        }
        if (groups.length < rows) {
            groups = new int[rows];
            rowKeys = new long[rows * keyCount];
            rowNulls = new long[rows];
        }
        encode(keyColumns, rows);
        int first = size;
        ensureCapacity(first + rows);
        System.arraycopy(rowKeys, 0, keys, first * keyCount, rows * keyCount);
        System.arraycopy(rowNulls, 0, nullMasks, first, rows);
        Arrays.fill(rowCounts, first, first + rows, 1L);
        if (keyCount == 1) {
            for (int i = 0; i < rows; i++) {
                long h = (rowNulls[i] * 0x9E3779B97F4A7C15L ^ rowKeys[i]) * 0xBF58476D1CE4E5B9L;
                h ^= h >>> 31;
                hashes[first + i] = h ^ (h >>> 29);
            }
        } else {
            for (int i = 0; i < rows; i++) {
                hashes[first + i] = hashOf(rowKeys, i * keyCount, rowNulls[i]);
            }
        }
        for (int i = 0; i < rows; i++) {
            groups[i] = first + i;
        }
        size = first + rows;
        for (int a = 0; a < accumulators.length; a++) {
            accumulators[a].grow(size);
            accumulators[a].update(groups, arguments[a], rows);
        }
    }

    /** Largest product of (dictionary size + 1) over the keys for which groups are found by array lookup. */
    private static final int DIRECT_LIMIT = 1 << 16;
    private StringDictionary[] directDictionaries;
    private int[] directStrides;
    private int[] directGroups;

    /**
     * Whether every key is a dictionary-encoded string column of one part with small dictionaries: then a row's
     * codes index an array of group numbers (the paper's grouping on value IDs), and hashing happens once per
     * distinct code combination, not per row.
     */
    private boolean smallDictionaries(ColumnVector[] keyColumns) {
        long product = 1;
        for (int k = 0; k < keyCount; k++) {
            if (!keyColumns[k].isEncoded()) {
                return false;
            }
            product *= keyColumns[k].dictionary().size() + 1L;
            if (product > DIRECT_LIMIT) {
                return false;
            }
        }
        boolean same = directDictionaries != null;
        for (int k = 0; same && k < keyCount; k++) {
            same = directDictionaries[k] == keyColumns[k].dictionary();
        }
        if (!same) {
            directDictionaries = new StringDictionary[keyCount];
            directStrides = new int[keyCount];
            int stride = 1;
            for (int k = 0; k < keyCount; k++) {
                directDictionaries[k] = keyColumns[k].dictionary();
                directStrides[k] = stride;
                stride *= directDictionaries[k].size() + 1;
            }
            directGroups = new int[stride];
            Arrays.fill(directGroups, -1);
        }
        return true;
    }

    private void groupByCodes(ColumnVector[] keyColumns, int rows) {
        int[] combinations = this.combinations;
        if (combinations.length < rows) {
            combinations = new int[rows];
            this.combinations = combinations;
        }
        Arrays.fill(combinations, 0, rows, 0);
        for (int k = 0; k < keyCount; k++) {
            int[] codes = keyColumns[k].codes();
            boolean[] nulls = keyColumns[k].nulls();
            int stride = directStrides[k];
            if (keyColumns[k].anyNull()) {
                for (int i = 0; i < rows; i++) {
                    combinations[i] += (nulls[i] ? 0 : codes[i]) * stride;
                }
            } else {
                // Without NULLs the loop has no select and vectorizes.
                for (int i = 0; i < rows; i++) {
                    combinations[i] += codes[i] * stride;
                }
            }
        }
        // A tight lookup first (combinations seen before, nearly every row), then the rare new ones: a loop
        // with the insertion inside ran several times slower.
        int[] direct = directGroups;
        int unseen = 0;
        for (int i = 0; i < rows; i++) {
            int g = direct[combinations[i]];
            groups[i] = g;
            unseen |= g;
        }
        if (unseen >= 0) {
            return;
        }
        long[] probe = new long[keyCount];
        for (int i = 0; i < rows; i++) {
            if (groups[i] >= 0) {
                continue;
            }
            int combination = combinations[i];
            int g = directGroups[combination];
            if (g < 0) {
                long nullMask = 0;
                for (int k = 0; k < keyCount; k++) {
                    int code = combination / directStrides[k] % (directDictionaries[k].size() + 1);
                    if (code == 0) {
                        nullMask |= 1L << k;
                        probe[k] = 0;
                    } else {
                        probe[k] = strings.mapping(directDictionaries[k])[code];
                    }
                }
                g = findOrInsert(probe, nullMask);
                directGroups[combination] = g;
            }
            groups[i] = g;
        }
    }

    /**
     * One integer key (ids, dates: the common GROUP BY): hashed and found straight from the column, hashed exactly as
     * {@link #hashOf} hashes a one-key row, without copying keys into a row buffer first.
     */
    private void groupByOneLong(ColumnVector column, int rows) {
        long[] values = column.longs();
        boolean[] nulls = column.anyNull() ? column.nulls() : null;
        long[] key = rowKeys;
        long previousKey = 0;
        long previousNull = -1;
        int previousGroup = -1;
        for (int i = 0; i < rows; i++) {
            long nullMask = nulls != null && nulls[i] ? 1 : 0;
            long k = nullMask != 0 ? 0 : values[i];
            // A run of one key (rows in key order: orders' line items, a table loaded by date) is found once.
            if (k == previousKey && nullMask == previousNull) {
                groups[i] = previousGroup;
                continue;
            }
            long h = (nullMask * 0x9E3779B97F4A7C15L ^ k) * 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
            h ^= h >>> 29;
            int slot = (int) h & mask;
            int g;
            while (true) {
                g = slots[slot];
                if (g < 0) {
                    key[0] = k;
                    g = insert(key, 0, nullMask, h, slot);
                    break;
                }
                if (hashes[g] == h && keys[g] == k && nullMasks[g] == nullMask) {
                    break;
                }
                slot = (slot + 1) & mask;
            }
            groups[i] = g;
            previousKey = k;
            previousNull = nullMask;
            previousGroup = g;
        }
    }

    /** Whether row {@code i}'s encoded keys equal row {@code i-1}'s. */
    private boolean sameAsRowBefore(int i) {
        int at = i * keyCount;
        for (int k = 0; k < keyCount; k++) {
            if (rowKeys[at + k] != rowKeys[at - keyCount + k]) {
                return false;
            }
        }
        return true;
    }

    private void encode(ColumnVector[] keyColumns, int rows) {
        Arrays.fill(rowNulls, 0, rows, 0L);
        for (int k = 0; k < keyCount; k++) {
            ColumnVector v = keyColumns[k];
            boolean[] nulls = v.nulls();
            long bit = 1L << k;
            switch (v.physical()) {
                case LONG -> {
                    long[] values = v.longs();
                    for (int i = 0; i < rows; i++) {
                        rowKeys[i * keyCount + k] = nulls[i] ? 0 : values[i];
                    }
                }
                case DOUBLE -> {
                    double[] values = v.doubles();
                    for (int i = 0; i < rows; i++) {
                        double d = values[i];
                        rowKeys[i * keyCount + k] = nulls[i] ? 0 : Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
                    }
                }
                case STRING -> {
                    if (v.isEncoded()) {
                        int[] mapping = strings.mapping(v.dictionary());
                        int[] codes = v.codes();
                        for (int i = 0; i < rows; i++) {
                            rowKeys[i * keyCount + k] = nulls[i] ? 0 : mapping[codes[i]];
                        }
                    } else {
                        // A join repeats a build row's String objects in consecutive rows: one lookup serves them.
                        String[] values = v.strings();
                        String previous = null;
                        int previousId = 0;
                        for (int i = 0; i < rows; i++) {
                            if (nulls[i]) {
                                rowKeys[i * keyCount + k] = 0;
                                continue;
                            }
                            String value = values[i];
                            if (value != previous) {
                                previousId = strings.id(value);
                                previous = value;
                            }
                            rowKeys[i * keyCount + k] = previousId;
                        }
                    }
                }
            }
            if (v.anyNull()) {
                for (int i = 0; i < rows; i++) {
                    if (nulls[i]) {
                        rowNulls[i] |= bit;
                    }
                }
            }
        }
    }

    private long hashOf(long[] key, int offset, long nullMask) {
        long h = nullMask * 0x9E3779B97F4A7C15L;
        for (int k = 0; k < keyCount; k++) {
            h = (h ^ key[offset + k]) * 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        return h ^ (h >>> 29);
    }

    int findOrInsert(long[] key, long nullMask) {
        return findOrInsert(key, 0, nullMask);
    }

    /** The group of the key at {@code key[offset..offset+keyCount-1]}, inserted if new. */
    private int findOrInsert(long[] key, int offset, long nullMask) {
        long h = hashOf(key, offset, nullMask);
        return findOrInsert(key, offset, nullMask, h);
    }

    private int findOrInsert(long[] key, int offset, long nullMask, long h) {
        int slot = (int) h & mask;
        while (true) {
            int g = slots[slot];
            if (g < 0) {
                return insert(key, offset, nullMask, h, slot);
            }
            if (hashes[g] == h && nullMasks[g] == nullMask && sameKey(g, key, offset)) {
                return g;
            }
            slot = (slot + 1) & mask;
        }
    }

    private boolean sameKey(int g, long[] key, int offset) {
        int base = g * keyCount;
        for (int k = 0; k < keyCount; k++) {
            if (keys[base + k] != key[offset + k]) {
                return false;
            }
        }
        return true;
    }

    private int insert(long[] key, long nullMask, long h, int slot) {
        return insert(key, 0, nullMask, h, slot);
    }

    private int insert(long[] key, int offset, long nullMask, long h, int slot) {
        int g = size++;
        if (g >= hashes.length) {
            ensureCapacity(g + 1);
        }
        System.arraycopy(key, offset, keys, g * keyCount, keyCount);
        nullMasks[g] = nullMask;
        hashes[g] = h;
        if (keyCount > 0) {
            slots[slot] = g;
            if (size * 2 > slots.length) {
                rehash();
            }
        }
        for (Accumulator a : accumulators) {
            a.grow(size);
        }
        return g;
    }

    /** Grows the group arrays (by doubling) to hold at least {@code groups} groups. */
    private void ensureCapacity(int groups) {
        if (groups <= hashes.length) {
            return;
        }
        int capacity = Math.max(16, hashes.length * 2);
        while (capacity < groups) {
            capacity *= 2;
        }
        charge((capacity - hashes.length) * bytesPerGroup);
        keys = Arrays.copyOf(keys, capacity * keyCount);
        nullMasks = Arrays.copyOf(nullMasks, capacity);
        hashes = Arrays.copyOf(hashes, capacity);
        rowCounts = Arrays.copyOf(rowCounts, capacity);
    }

    private void charge(long bytes) {
        if (budget != null) {
            budget.reserve(bytes);
            charged += bytes;
        }
    }

    /** Gives the table's charge back to the budget once the table is dropped (e.g. merged into another). */
    public void releaseMemory() {
        if (budget != null && charged > 0) {
            budget.release(charged);
            charged = 0;
        }
    }

    private void rehash() {
        slots = new int[slots.length * 2];
        Arrays.fill(slots, -1);
        mask = slots.length - 1;
        for (int g = 0; g < size; g++) {
            int slot = (int) hashes[g] & mask;
            while (slots[slot] >= 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = g;
        }
    }

    /**
     * Folds groups {@code from..to-1} of {@code other} (same keys and aggregates) into this table: their groups here
     * found (or made) first, then each aggregate's states merged in one loop of its own, not one virtual call per
     * group and aggregate.
     */
    public void mergeGroups(GroupTable other, int from, int to) {
        int count = to - from;
        if (count <= 0) {
            return;
        }
        if (groups.length < count) {
            groups = new int[Math.max(count, groups.length * 2)];
        }
        int[] targets = groups;
        if (keyCount == 0) {
            Arrays.fill(targets, 0, count, 0);
        } else {
            long[] otherKeys = other.keys;
            long[] otherNulls = other.nullMasks;
            long[] otherHashes = other.hashes;
            for (int i = 0; i < count; i++) {
                int g = from + i;
                targets[i] = findOrInsert(otherKeys, g * keyCount, otherNulls[g], otherHashes[g]);
            }
        }
        long[] otherCounts = other.rowCounts;
        for (int i = 0; i < count; i++) {
            rowCounts[targets[i]] += otherCounts[from + i];
        }
        for (int a = 0; a < accumulators.length; a++) {
            accumulators[a].mergeAll(targets, other.accumulators[a], from, count);
        }
    }

    /** The groups as result columns: the keys (decoded), then one column per aggregate. */
    public void finish(ColumnVector[] keyOut, ColumnVector[] aggregateOut) {
        for (int k = 0; k < keyCount; k++) {
            ColumnVector out = keyOut[k];
            out.prepare(size);
            long bit = 1L << k;
            TypeKind.Physical physical = keyTypes.get(k).physical();
            for (int g = 0; g < size; g++) {
                if ((nullMasks[g] & bit) != 0) {
                    out.setNull(g);
                    continue;
                }
                long key = keys[g * keyCount + k];
                switch (physical) {
                    case LONG -> out.setLong(g, key);
                    case DOUBLE -> out.setDouble(g, Double.longBitsToDouble(key));
                    case STRING -> out.setString(g, strings.value((int) key));
                }
            }
        }
        for (int a = 0; a < accumulators.length; a++) {
            aggregateOut[a].prepare(size);
            accumulators[a].finish(size, aggregateOut[a], rowCounts);
        }
    }
}
