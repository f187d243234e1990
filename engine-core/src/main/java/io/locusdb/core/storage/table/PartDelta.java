package io.locusdb.core.storage.table;

import io.locusdb.core.storage.index.DeltaKeyIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The write-optimized side of a table part (HANA's delta): rows inserted after the part was built, kept as rows in
 * append order with the commit number that made each visible, plus the deletions of main and delta rows made by
 * upserts. Readers never lock: a snapshot reads the table's commit number and sees exactly the rows and deletions
 * of commits up to it. A merge folds everything into a new main part.
 *
 * <p>Writers are serialized by the table's write lock.
 */
public final class PartDelta {
    private static final int CHUNK = 1 << 12;
    private final List<Object[][]> rowChunks = new ArrayList<>();
    private final List<long[]> commitChunks = new ArrayList<>();
    private volatile Chunks published = new Chunks(new Object[0][][], new long[0][], 0);
    private int committedRows;
    private int appendedRows;
    /** Row number (main rows first, then delta rows after them) → commit number that deleted it. */
    private final Map<Long, Long> deletions = new ConcurrentHashMap<>();

    /** What readers see, published as one object so rows, commit stamps and count always agree. */
    private record Chunks(Object[][][] rows, long[][] commits, int count) {
    }

    /**
     * Per indexed column: value → delta rows holding it, for key lookups by readers and uniqueness checks by the
     * writer. Built on first use, then kept up to date by {@link #append}; guarded by {@code this} for changes.
     */
    private final Map<Integer, DeltaKeyIndex> keyIndexes = new HashMap<>();
    private volatile Map<Integer, DeltaKeyIndex> publishedIndexes = Map.of();

    /**
     * A delta as a checkpoint recorded it: its rows and deletions visible to every snapshot of the restored table
     * (stamped with commit 0, which no snapshot precedes).
     */
    public static PartDelta restored(List<Object[]> rows, List<Long> deletedRows) {
        PartDelta delta = new PartDelta();
        for (Object[] row : rows) {
            delta.append(row);
        }
        delta.commit(0);
        for (long row : deletedRows) {
            delta.delete(row, 0);
        }
        return delta;
    }

    /** Rows (main rows first, then delta rows) deleted by commits up to {@code commit}, ascending. */
    public List<Long> deletedRows(long commit) {
        List<Long> rows = new ArrayList<>();
        for (Map.Entry<Long, Long> e : deletions.entrySet()) {
            if (e.getValue() <= commit) {
                rows.add(e.getKey());
            }
        }
        rows.sort(null);
        return rows;
    }

    /** Appends a row; invisible until {@link #commit}. */
    synchronized void append(Object[] row) {
        for (Map.Entry<Integer, DeltaKeyIndex> index : keyIndexes.entrySet()) {
            index.getValue().add(row[index.getKey()], appendedRows);
        }
        if (appendedRows % CHUNK == 0) {
            rowChunks.add(new Object[CHUNK][]);
            commitChunks.add(new long[CHUNK]);
        }
        rowChunks.get(appendedRows / CHUNK)[appendedRows % CHUNK] = row.clone();
        commitChunks.get(appendedRows / CHUNK)[appendedRows % CHUNK] = Long.MAX_VALUE;
        appendedRows++;
    }

    /** Stamps the appended rows with {@code commit} and publishes them. */
    void commit(long commit) {
        for (int i = committedRows; i < appendedRows; i++) {
            commitChunks.get(i / CHUNK)[i % CHUNK] = commit;
        }
        committedRows = appendedRows;
        published = new Chunks(rowChunks.toArray(Object[][][]::new), commitChunks.toArray(long[][]::new),
                committedRows);
    }

    /** Discards rows appended since the last commit (a failed statement). */
    synchronized void rollback() {
        for (Map.Entry<Integer, DeltaKeyIndex> index : keyIndexes.entrySet()) {
            List<Object> values = new ArrayList<>();
            for (int i = committedRows; i < appendedRows; i++) {
                values.add(rowChunks.get(i / CHUNK)[i % CHUNK][index.getKey()]);
            }
            index.getValue().removeFrom(committedRows, values);
        }
        appendedRows = committedRows;
        while (rowChunks.size() > (committedRows + CHUNK - 1) / CHUNK) {
            rowChunks.removeLast();
            commitChunks.removeLast();
        }
    }

    void delete(long row, long commit) {
        deletions.putIfAbsent(row, commit);
    }

    void undelete(long row, long commit) {
        deletions.remove(row, commit);
    }

    /** Number of delta rows a reader at {@code commit} sees (a prefix: commits only grow). */
    public int visibleRows(long commit) {
        Chunks chunks = published;
        int n = chunks.count();
        while (n > 0 && chunks.commits()[(n - 1) / CHUNK][(n - 1) % CHUNK] > commit) {
            n--;
        }
        return n;
    }

    /** Delta row {@code i} (schema order; never modify), for {@code i < visibleRows(..)}. */
    public Object[] row(int i) {
        return published.rows()[i / CHUNK][i % CHUNK];
    }

    /** True when {@code row} (main rows first, then delta rows) was deleted by a commit ≤ {@code commit}. */
    public boolean isDeleted(long row, long commit) {
        if (deletions.isEmpty()) {
            return false;
        }
        Long deletedAt = deletions.get(row);
        return deletedAt != null && deletedAt <= commit;
    }

    public boolean hasDeletions() {
        return !deletions.isEmpty();
    }

    public int deletionCount() {
        return deletions.size();
    }

    /**
     * About how much heap the delta holds: its rows as boxed values in object arrays, the deletion map and the key
     * indexes' entries. An estimate (object sizes of a 64-bit JVM with compressed references, a value taken as a
     * 24-byte box), for the memory account; exact sizes would need a walk of every value.
     */
    public long estimatedHeapBytes() {
        Chunks chunks = published;
        long rows = chunks.count();
        int width = rows == 0 ? 0 : chunks.rows()[0][0].length;
        long rowBytes = rows * (16 + 4L * width + 24L * width + 8);
        long indexEntries = 0;
        for (DeltaKeyIndex index : publishedIndexes.values()) {
            indexEntries += index.size();
        }
        return rowBytes + deletions.size() * 64L + indexEntries * 80L;
    }

    /** Rows appended (committed or not); the merger's and writer's view. */
    int appendedRows() {
        return appendedRows;
    }

    /**
     * The index of the delta rows on {@code column}, built on first use. It lists committed and pending rows:
     * readers keep those their snapshot sees ({@code row < visibleRows(commit)}, not deleted).
     */
    public DeltaKeyIndex keyIndex(int column) {
        DeltaKeyIndex index = publishedIndexes.get(column);
        if (index != null) {
            return index;
        }
        synchronized (this) {
            index = keyIndexes.get(column);
            if (index == null) {
                index = new DeltaKeyIndex();
                for (int i = 0; i < appendedRows; i++) {
                    index.add(rowChunks.get(i / CHUNK)[i % CHUNK][column], i);
                }
                keyIndexes.put(column, index);
                publishedIndexes = Map.copyOf(keyIndexes);
            }
            return index;
        }
    }

    /**
     * Delta row {@code i}: a committed one for readers, and for the writer (under the table's write lock) also one
     * appended by the statement it is running.
     */
    Object[] pendingOrVisibleRow(int i) {
        Chunks chunks = published;
        return i < chunks.count() ? chunks.rows()[i / CHUNK][i % CHUNK] : rowChunks.get(i / CHUNK)[i % CHUNK];
    }
}
