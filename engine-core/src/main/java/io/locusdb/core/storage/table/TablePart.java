package io.locusdb.core.storage.table;

import io.locusdb.core.storage.column.Column;
import java.util.List;
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

    public TablePart(int index, List<Column> columns, long rows, PartMemory memory) {
        this(index, columns, rows, memory, new PartDelta());
    }

    /** A part that takes over an existing delta (a moved copy of a part keeps its inserts and deletions). */
    public TablePart(int index, List<Column> columns, long rows, PartMemory memory, PartDelta delta) {
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

    public Column column(int i) {
        return columns.get(i);
    }

    public List<Column> columns() {
        return columns;
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
        return columns.stream().mapToLong(Column::byteSize).sum();
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
