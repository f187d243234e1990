package io.locusdb.core.storage.table;

import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.ColumnBuilder;
import io.locusdb.natives.memory.NodeMemory;
import java.util.ArrayList;
import java.util.List;

/** Collects the rows of one table part column by column, then encodes them onto the part's node. */
public final class TablePartBuilder {
    private final Schema schema;
    private final ColumnBuilder[] columns;

    public TablePartBuilder(Schema schema) {
        this.schema = schema;
        this.columns = new ColumnBuilder[schema.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = ColumnBuilder.forType(schema.column(i).type());
        }
    }

    public ColumnBuilder column(int i) {
        return columns[i];
    }

    public Schema schema() {
        return schema;
    }

    public long rows() {
        return columns[0].rows();
    }

    /** Appends one row of boxed values (schema order); for INSERT and tests. */
    public void appendRow(Object... values) {
        if (values.length != columns.length) {
            throw new IllegalArgumentException("row has " + values.length + " values for " + columns.length
                    + " columns");
        }
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null && !schema.column(i).nullable()) {
                throw new IllegalArgumentException("NULL in NOT NULL column " + schema.column(i).name());
            }
        }
        for (int i = 0; i < values.length; i++) {
            columns[i].appendBoxed(values[i]);
        }
    }

    /**
     * Encodes every column into segments placed per {@code placement}. On failure nothing stays allocated.
     */
    public TablePart build(int index, NodeMemory memory, PartPlacement placement) {
        long rows = rows();
        for (ColumnBuilder c : columns) {
            if (c.rows() != rows) {
                throw new IllegalStateException("column " + c.type() + " has " + c.rows() + " rows, expected " + rows);
            }
        }
        PartMemory partMemory = new PartMemory(memory, placement);
        try {
            List<Column> built = new ArrayList<>(columns.length);
            for (int i = 0; i < columns.length; i++) {
                built.add(columns[i].build(partMemory));
                columns[i] = null; // let the heap copy go as soon as it is encoded
            }
            return new TablePart(index, built, rows, partMemory);
        } catch (RuntimeException | Error e) {
            partMemory.close();
            throw e;
        }
    }
}
