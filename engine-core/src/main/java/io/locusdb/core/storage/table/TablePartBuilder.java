package io.locusdb.core.storage.table;

import io.locusdb.core.storage.column.AllTasks;
import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.ColumnBuilder;
import io.locusdb.natives.memory.NodeMemory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Collects the rows of one table part column by column, then encodes them onto the part's node. */
public final class TablePartBuilder {
    private static final boolean DEBUG_TIMING = Boolean.getBoolean("locus.debug.load");
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

    /** Frees what was staged without building (a load that failed or was abandoned). */
    public void discard() {
        for (ColumnBuilder c : columns) {
            if (c != null) {
                c.release();
            }
        }
    }

    /** Appends one row of boxed values (schema order); for INSERT and tests. */
    public void appendRow(Object... values) {
        if (values.length != columns.length) {
            throw new IllegalArgumentException("row has " + values.length + " values for " + columns.length
                    + " columns");
        }
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null && !schema.column(i).nullable()) {
                throw new NotNullViolationException(schema.column(i).name());
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
        return buildConcatenated(List.of(this), index, memory, placement);
    }

    /**
     * Encodes the rows of several builders (in order) as one part, columns in parallel. The builders must not be
     * used afterwards. On failure nothing stays allocated.
     */
    public static TablePart buildConcatenated(List<TablePartBuilder> pieces, int index, NodeMemory memory,
                                              PartPlacement placement) {
        TablePartBuilder first = pieces.getFirst();
        int columnCount = first.columns.length;
        long rows = 0;
        for (TablePartBuilder piece : pieces) {
            if (piece.columns.length != columnCount) {
                throw new IllegalArgumentException("pieces of a part must share a schema");
            }
            long pieceRows = piece.rows();
            for (ColumnBuilder c : piece.columns) {
                if (c.rows() != pieceRows) {
                    throw new IllegalStateException("column " + c.type() + " has " + c.rows() + " rows, expected "
                            + pieceRows);
                }
            }
            rows += pieceRows;
        }
        PartMemory partMemory = new PartMemory(memory, placement);
        try {
            Column[] built = new Column[columnCount];
            List<List<ColumnBuilder>> columnPieces = new ArrayList<>(columnCount);
            for (int c = 0; c < columnCount; c++) {
                List<ColumnBuilder> list = new ArrayList<>(pieces.size());
                for (TablePartBuilder piece : pieces) {
                    list.add(piece.columns[c]);
                }
                columnPieces.add(list);
            }
            // Columns encode as tasks of the caller's fork-join pool (the load's threads; the common pool
            // otherwise), the costliest first: a big string column splits its sort into further tasks, which the
            // workers done with the small columns pick up. AllTasks returns only after every column ended, so
            // nothing is freed below while another column still writes into the part's memory.
            List<Integer> costliestFirst = new ArrayList<>();
            for (int c = 0; c < columnCount; c++) {
                costliestFirst.add(c);
            }
            costliestFirst.sort(Comparator.comparingLong(
                    (Integer c) -> ColumnBuilder.encodeCost(columnPieces.get(c))).reversed());
            List<Runnable> tasks = new ArrayList<>();
            for (int c : costliestFirst) {
                tasks.add(() -> {
                    long t0 = System.nanoTime();
                    built[c] = ColumnBuilder.buildConcatenated(columnPieces.get(c), partMemory);
                    if (DEBUG_TIMING) {
                        System.err.printf("  column %d (%s): %.2f s%n", c, first.schema.column(c).name(),
                                (System.nanoTime() - t0) / 1e9);
                    }
                    for (TablePartBuilder piece : pieces) {
                        piece.columns[c] = null; // let the heap copy go as soon as it is encoded
                    }
                });
            }
            AllTasks.run(tasks);
            return new TablePart(index, List.of(built), rows, partMemory);
        } catch (RuntimeException | Error e) {
            partMemory.close();
            pieces.forEach(TablePartBuilder::discard);
            throw e;
        }
    }
}
