package io.locusdb.core.result;

import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.ColumnVector;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The outcome of a statement: a stream of columnar batches for a query, or an update count for DDL/DML. Read it
 * batch by batch ({@link #nextBatch}) or row by row ({@link #next} and the getters, columns counted from 0). Close
 * it to stop a query early.
 */
public final class QueryResult implements AutoCloseable {
    private final List<ResultColumn> columns;
    private final BatchSource source;
    private final long updateCount;
    private final List<TaskRecord> tasks;
    private ResultBatch current;
    private int row = -1;
    private boolean done;
    private long delivered;
    private Completion completion;

    /** Told once when a row result ends: read to the end, closed early, or failed while reading. */
    @FunctionalInterface
    public interface Completion {
        /** @param failure what stopped the result, or null */
        void completed(long rowsDelivered, Throwable failure);
    }

    private QueryResult(List<ResultColumn> columns, BatchSource source, long updateCount, List<TaskRecord> tasks) {
        this.columns = List.copyOf(columns);
        this.source = source;
        this.updateCount = updateCount;
        this.tasks = tasks;
    }

    public static QueryResult rows(List<ResultColumn> columns, BatchSource source) {
        return new QueryResult(columns, source, -1, List.of());
    }

    /** A row result whose {@code tasks} list fills as the query's tasks run. */
    public static QueryResult rows(List<ResultColumn> columns, BatchSource source, List<TaskRecord> tasks) {
        return new QueryResult(columns, source, -1, tasks);
    }

    /** A result of one VARCHAR column with these values, one per row (what SHOW answers). */
    public static QueryResult text(String column, List<String> values) {
        List<ResultColumn> columns = List.of(new ResultColumn(column, ColumnType.VARCHAR));
        ColumnVector v = new ColumnVector(ColumnType.VARCHAR, Math.max(1, values.size()));
        for (int i = 0; i < values.size(); i++) {
            v.setString(i, values.get(i));
        }
        v.setSize(values.size());
        return rows(columns, BatchSource.of(new ResultBatch(columns, List.of(v), values.size())));
    }

    public static QueryResult updateCount(long count) {
        return new QueryResult(List.of(), null, count, List.of());
    }

    /**
     * Where the query's scan, materialize and merge tasks ran (complete once the result has been read to the
     * end): what EXPLAIN promises, observed.
     */
    public List<TaskRecord> tasks() {
        return List.copyOf(tasks);
    }

    /**
     * Calls {@code listener} once when this row result ends (at once for an update count), after the listeners
     * added before it.
     */
    public QueryResult whenComplete(Completion listener) {
        if (source == null) {
            listener.completed(0, null);
        } else {
            Completion before = completion;
            completion = before == null ? listener : (rows, failure) -> {
                before.completed(rows, failure);
                listener.completed(rows, failure);
            };
        }
        return this;
    }

    private void complete(Throwable failure) {
        Completion listener = completion;
        completion = null;
        if (listener != null) {
            listener.completed(delivered, failure);
        }
    }

    /** Whether this is a row result (false for DDL/DML). */
    public boolean hasRows() {
        return source != null;
    }

    /** Rows changed by DML, 0 for DDL, -1 for a query. */
    public long updateCount() {
        return updateCount;
    }

    public List<ResultColumn> columns() {
        return columns;
    }

    /** The next batch, or null at the end. Mixing with {@link #next} skips the rest of the current batch. */
    public ResultBatch nextBatch() {
        if (done || source == null) {
            return null;
        }
        ResultBatch batch;
        try {
            do {
                batch = source.next();
            } while (batch != null && batch.rows() == 0);
        } catch (RuntimeException | Error e) {
            complete(e);
            throw e;
        }
        if (batch == null) {
            done = true;
            source.close();
            complete(null);
        } else {
            delivered += batch.rows();
        }
        current = batch;
        row = -1;
        return batch;
    }

    /** Moves to the next row; false at the end. */
    public boolean next() {
        if (current != null && row + 1 < current.rows()) {
            row++;
            return true;
        }
        if (nextBatch() == null) {
            return false;
        }
        row = 0;
        return true;
    }

    private ColumnVector vector(int column) {
        if (current == null || row < 0) {
            throw new IllegalStateException("no current row: call next() first");
        }
        return current.vector(column);
    }

    public boolean isNull(int column) {
        return vector(column).isNull(row);
    }

    public Object getObject(int column) {
        vector(column);
        return current.value(row, column);
    }

    public long getLong(int column) {
        Object v = getObject(column);
        return v == null ? 0 : ((Number) v).longValue();
    }

    public double getDouble(int column) {
        Object v = getObject(column);
        return v == null ? 0 : ((Number) v).doubleValue();
    }

    public BigDecimal getBigDecimal(int column) {
        Object v = getObject(column);
        return switch (v) {
            case null -> null;
            case BigDecimal d -> d;
            case Double d -> BigDecimal.valueOf(d);
            case Number n -> BigDecimal.valueOf(n.longValue());
            default -> new BigDecimal(v.toString());
        };
    }

    public String getString(int column) {
        Object v = getObject(column);
        return v == null ? null : v.toString();
    }

    /** Reads every remaining row as Java values; for small results and tests. */
    public List<List<Object>> toList() {
        List<List<Object>> rows = new ArrayList<>();
        while (next()) {
            Object[] values = new Object[columns.size()];
            for (int c = 0; c < values.length; c++) {
                values[c] = current.value(row, c);
            }
            rows.add(Arrays.asList(values));
        }
        return rows;
    }

    @Override
    public void close() {
        if (source != null && !done) {
            done = true;
            try {
                source.close();
            } finally {
                complete(null);
            }
        }
    }
}
