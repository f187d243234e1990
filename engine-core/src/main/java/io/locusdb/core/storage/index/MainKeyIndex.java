package io.locusdb.core.storage.index;

import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.scan.IdRange;

/**
 * The order-preserving index of a table part's main rows on one column. The column's sorted dictionary already
 * orders the values (ID i is the i-th smallest, so a key or a key range is one or two binary searches away from its
 * IDs); what the index adds is the way back from an ID to the rows that hold it, in CSR form: the rows of ID i are
 * {@code rows[start[i]] .. rows[start[i+1]-1]}. A part stored in key order (a TPC-H load, a load of a sorted file,
 * a merge of keys appended in order) has the identity there, and no {@code rows} array is kept: then the index is
 * 4 bytes per distinct value and nothing per row.
 *
 * <p>Immutable once built, like the part it indexes: readers share it without synchronization.
 */
public final class MainKeyIndex {
    /** Per value ID (0 = NULL), the position of its first row in {@link #rows}; one more entry at the end. */
    private final int[] start;
    /** Rows ordered by value ID (stable within an ID); null when that is the identity. */
    private final int[] rows;
    private final int maxRowsPerId;

    private MainKeyIndex(int[] start, int[] rows, int maxRowsPerId) {
        this.start = start;
        this.rows = rows;
        this.maxRowsPerId = maxRowsPerId;
    }

    /** Reads the column's codes once (twice when the rows are not in value order). */
    public static MainKeyIndex build(Column column) {
        PackedCodes codes = column.codes();
        long count = codes.count();
        if (count >= Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a part of " + count + " rows is too large to index");
        }
        int n = (int) count;
        int ids = column.dictionary().size();
        int[] start = new int[ids + 2];
        boolean ordered = true;
        int previous = 0;
        for (int r = 0; r < n; r++) {
            int id = codes.get(r);
            start[id + 1]++;
            ordered &= id >= previous;
            previous = id;
        }
        int most = 0;
        for (int id = 0; id <= ids; id++) {
            if (id > 0) {
                most = Math.max(most, start[id + 1]);
            }
            start[id + 1] += start[id];
        }
        if (ordered) {
            return new MainKeyIndex(start, null, most);
        }
        int[] rows = new int[n];
        int[] next = new int[ids + 1];
        System.arraycopy(start, 0, next, 0, ids + 1);
        for (int r = 0; r < n; r++) {
            rows[next[codes.get(r)]++] = r;
        }
        return new MainKeyIndex(start, rows, most);
    }

    /** Rows whose value ID is in {@code ids}. */
    public long count(IdRange ids) {
        return ids.isEmpty() ? 0 : start[ids.hi() + 1] - start[ids.lo()];
    }

    /** Position of the first row of {@code id} in index order (see {@link #rowAt}). */
    public int from(int id) {
        return start[id];
    }

    /** Position after the last row of {@code id} in index order. */
    public int to(int id) {
        return start[id + 1];
    }

    /** The row at a position in index order: ascending by value, then by row. */
    public int rowAt(int position) {
        return rows == null ? position : rows[position];
    }

    /** True when no non-null value occurs in more than one row. */
    public boolean unique() {
        return maxRowsPerId <= 1;
    }

    /** The most rows any one non-null value has. */
    public int maxRowsPerValue() {
        return maxRowsPerId;
    }

    /** Heap bytes held. */
    public long byteSize() {
        return 4L * start.length + (rows == null ? 0 : 4L * rows.length);
    }
}
