package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.MemoryBudget;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A computed intermediate result held whole, as one growing {@link Chunk} with column names: what aggregation
 * produces, what the operators above it (HAVING, projections, ORDER BY, LIMIT) work on, and a join's collected
 * build side.
 */
public final class Relation {
    private final List<ColumnVector> columns;
    private final Chunk chunk;
    private final List<String> names;
    private int rows;
    /** Charged per appended row (null: not accounted): collected scans hold their rows whole until sorted. */
    private MemoryBudget budget;

    public Relation(List<ColumnVector> columns, List<String> names, int rows) {
        this.columns = List.copyOf(columns);
        this.chunk = new Chunk(this.columns.toArray(ColumnVector[]::new), rows);
        this.names = List.copyOf(names);
        this.rows = rows;
        for (ColumnVector c : columns) {
            c.setSize(rows);
        }
    }

    public static Relation empty(List<ColumnType> types, List<String> names) {
        List<ColumnVector> columns = new ArrayList<>();
        for (ColumnType t : types) {
            columns.add(new ColumnVector(t, 16));
        }
        return new Relation(columns, names, 0);
    }

    /**
     * An empty relation shaped for rows like {@code sample}'s: a column that arrives as codes of a dictionary (one
     * table part's strings) keeps codes of that dictionary, so appending copies codes instead of decoding a string
     * per row, except the columns in {@code plain} (sort keys, compared row against row). A later batch of other
     * codes turns its column plain.
     */
    public static Relation emptyLike(Chunk sample, List<String> names, Set<Integer> plain) {
        List<ColumnVector> columns = new ArrayList<>();
        ColumnVector[] vectors = sample.vectors();
        for (int c = 0; c < vectors.length; c++) {
            ColumnVector v = vectors[c];
            columns.add(v.isEncoded() && !plain.contains(c) ? ColumnVector.encoded(v.type(), v.dictionary(), 16)
                    : new ColumnVector(v.type(), 16));
        }
        return new Relation(columns, names, 0);
    }

    /**
     * The rows of {@code pieces} one after another, each column allocated once at its final size: a relation made
     * of many small results (an aggregation's buckets) is not grown by doubling, which copies it again and again.
     */
    public static Relation concat(List<Relation> pieces, List<ColumnType> types, List<String> names) {
        long total = 0;
        for (Relation piece : pieces) {
            total += piece.rows();
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a relation holds at most " + (Integer.MAX_VALUE - 8) + " rows, not "
                    + total);
        }
        int rows = (int) total;
        List<ColumnVector> columns = new ArrayList<>(types.size());
        for (int c = 0; c < types.size(); c++) {
            ColumnVector column = new ColumnVector(types.get(c), Math.max(16, rows));
            int at = 0;
            for (Relation piece : pieces) {
                column.copyRows(piece.columns().get(c), 0, at, piece.rows());
                at += piece.rows();
            }
            columns.add(column);
        }
        return new Relation(columns, names, rows);
    }

    /** Charges every later append to {@code memory}. */
    public Relation chargedTo(MemoryBudget memory) {
        this.budget = memory;
        return this;
    }

    public List<ColumnVector> columns() {
        return columns;
    }

    /** Every row, as a chunk over the relation's own vectors (valid until the next append). */
    public Chunk chunk() {
        return chunk;
    }

    public List<String> names() {
        return names;
    }

    public List<ColumnType> types() {
        return columns.stream().map(ColumnVector::type).toList();
    }

    public int rows() {
        return rows;
    }

    /** Appends the rows of {@code batch} (same column types), decoding encoded strings. */
    public void append(Chunk batch) {
        append(batch.columns(), batch.rows());
    }

    /** Appends the first {@code count} rows of {@code batch} (same column types), decoding encoded strings. */
    public void append(List<ColumnVector> batch, int count) {
        if (budget != null) {
            budget.reserve(count * estimatedRowBytes());
        }
        int base = rows;
        for (int c = 0; c < columns.size(); c++) {
            ColumnVector target = columns.get(c);
            target.ensureCapacity(base + count);
            target.copyRows(batch.get(c), 0, base, count);
            target.setSize(base + count);
        }
        rows = base + count;
        chunk.rows(rows);
    }

    /** Eight bytes a value and a null flag; strings are counted at an average of 48 bytes (reference + object). */
    long estimatedRowBytes() {
        long bytes = 0;
        for (ColumnVector c : columns) {
            bytes += 1 + (c.type().physical() == TypeKind.Physical.STRING ? 48 : 8);
        }
        return bytes;
    }

    /** Rows {@code from..from+count-1} as a result batch with fresh vectors. */
    public ResultBatch slice(List<ResultColumn> resultColumns, int from, int count) {
        List<ColumnVector> vectors = new ArrayList<>(columns.size());
        for (ColumnVector source : columns) {
            ColumnVector v = new ColumnVector(source.type(), Math.max(1, count));
            v.copyRows(source, from, 0, count);
            v.setSize(count);
            vectors.add(v);
        }
        return new ResultBatch(resultColumns, vectors, count);
    }
}
