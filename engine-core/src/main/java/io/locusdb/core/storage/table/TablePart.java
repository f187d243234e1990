package io.locusdb.core.storage.table;

import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.PackedLayout;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.index.MainKeyIndex;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An immutable horizontal slice of a table whose columns all live on one node. Reference counted: the table
 * version that lists it holds one reference, every query snapshot holds one more, and the memory is freed when the
 * last is released — so a part replaced by a move or repartition stays readable for the queries that had it.
 */
public final class TablePart {
    private final int index;
    private final List<Column> columns;
    private final long rows;
    private final PartMemory memory;
    private final PartDelta delta;
    private final AtomicInteger references = new AtomicInteger(1);
    /** Per indexed column, the index of the main rows: built on first use, freed with the part. */
    private final Map<Integer, MainKeyIndex> keyIndexes = new ConcurrentHashMap<>();
    /** Null once every column is in memory: the common case costs one volatile read per column access. */
    private volatile ColumnLoader loader;

    public TablePart(int index, List<Column> columns, long rows, PartMemory memory) {
        this(index, columns, rows, memory, new PartDelta());
    }

    /** A part that takes over an existing delta (a moved copy of a part keeps its inserts and deletions). */
    public TablePart(int index, List<Column> columns, long rows, PartMemory memory, PartDelta delta) {
        this(index, columns, rows, memory, delta, null);
    }

    /**
     * A part whose columns' memory is allocated but filled by {@code loader} on first use (a restart from a data
     * directory); null for a part whose columns are in memory already.
     */
    public TablePart(int index, List<Column> columns, long rows, PartMemory memory, PartDelta delta,
                     ColumnLoader loader) {
        for (Column c : columns) {
            if (c.rows() != rows) {
                throw new IllegalArgumentException("column of " + c.rows() + " rows in a part of " + rows);
            }
        }
        this.index = index;
        this.columns = List.copyOf(columns);
        this.rows = rows;
        this.memory = memory;
        this.delta = delta;
        this.loader = loader;
    }

    /** The index of the main rows on column {@code i} (a key column), built the first time it is asked for. */
    /** Off-heap bytes of the columns' codes, known without reading a column into memory. */
    public long codeBytes() {
        long bytes = 0;
        for (Column column : columns) {
            bytes += column.codes().byteSize();
        }
        return bytes;
    }

    /** Off-heap bytes of the columns' dictionaries, known without reading a column into memory. */
    public long dictionaryBytes() {
        long bytes = 0;
        for (Column column : columns) {
            bytes += column.dictionary().byteSize();
        }
        return bytes;
    }

    /** Heap bytes of the values the columns' string dictionaries keep decoded (an estimate; reads no column). */
    public long decodedValueBytes() {
        long bytes = 0;
        for (Column column : columns) {
            if (column.dictionary() instanceof StringDictionary strings) {
                bytes += strings.cachedHeapBytes();
            }
        }
        return bytes;
    }

    /** Heap bytes of the key indexes built so far over the part's main rows. */
    public long keyIndexBytes() {
        long bytes = 0;
        for (MainKeyIndex index : keyIndexes.values()) {
            bytes += index.byteSize();
        }
        return bytes;
    }

    public MainKeyIndex keyIndex(int i) {
        MainKeyIndex index = keyIndexes.get(i);
        return index != null ? index : keyIndexes.computeIfAbsent(i, c -> MainKeyIndex.build(column(c)));
    }

    /** Whether the index on column {@code i} is built already (EXPLAIN says so). */
    public boolean hasKeyIndex(int i) {
        return keyIndexes.containsKey(i);
    }

    /** Inserted rows and deletions not yet merged into the main columns. */
    public PartDelta delta() {
        return delta;
    }

    public int index() {
        return index;
    }

    public long rows() {
        return rows;
    }

    /** Column {@code i}, loaded first if the part came from a data directory and it was not read yet. */
    public Column column(int i) {
        ColumnLoader pending = loader;
        if (pending != null) {
            load(pending, i);
        }
        return columns.get(i);
    }

    /**
     * Column {@code i}'s code layout, known from its description: unlike {@link #column}, this does not read the
     * column into memory (planning a scan of a restarted part needs no values).
     */
    public PackedLayout codeLayout(int i) {
        return columns.get(i).codes().layout();
    }

    /** Every column, loaded first where needed. */
    public List<Column> columns() {
        ColumnLoader pending = loader;
        if (pending != null) {
            for (int i = 0; i < columns.size(); i++) {
                load(pending, i);
            }
        }
        return columns;
    }

    /**
     * Loads about {@code maxBytes} more of column {@code i} if it is not in memory yet (see
     * {@link ColumnLoader#loadSome}); true once it is.
     */
    public boolean loadSome(int i, long maxBytes) {
        ColumnLoader pending = loader;
        if (pending == null) {
            return true;
        }
        boolean done = pending.loadSome(i, maxBytes);
        if (pending.complete()) {
            loader = null;
        }
        return done;
    }

    /** True when every column is in memory. */
    public boolean isLoaded() {
        return loader == null;
    }

    private void load(ColumnLoader pending, int i) {
        pending.load(i);
        if (pending.complete()) {
            loader = null;
        }
    }

    /** The node whose workers run this part's tasks. */
    public int homeNode() {
        return memory.placement().homeNode();
    }

    public PartPlacement placement() {
        return memory.placement();
    }

    public PartMemory memory() {
        return memory;
    }

    /** Encoded bytes (dictionaries and packed codes) of all columns. */
    public long byteSize() {
        // A string dictionary's size is in its own bytes: read the columns first.
        return columns().stream().mapToLong(Column::byteSize).sum();
    }


    /** Takes a reference if the part is still alive; false once it has been freed. */
    public boolean tryAcquire() {
        while (true) {
            int n = references.get();
            if (n == 0) {
                return false;
            }
            if (references.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    public void release() {
        int n = references.decrementAndGet();
        if (n == 0) {
            ColumnLoader pending = loader;
            if (pending != null) {
                pending.close();
            }
            memory.close();
        } else if (n < 0) {
            throw new IllegalStateException("table part released more often than acquired");
        }
    }

    public boolean isFreed() {
        return references.get() == 0;
    }

    @Override
    public String toString() {
        return "TablePart[" + index + ", " + rows + " rows, node " + homeNode() + "]";
    }
}
