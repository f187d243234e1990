package io.locusdb.core.vector;

import java.util.Arrays;
import java.util.List;

/**
 * Rows of some columns, one {@link ColumnVector} per column: the one form in which data moves between LocusDB's
 * operators and out to the client (a scan's decoded batch, an operator's output, a collected relation, a batch of a
 * result). A chunk holds its vectors without copying them. Whoever fills a chunk owns its vectors and may reuse them
 * for the next one, so a consumer copies what it keeps beyond the call that handed the chunk over.
 */
public final class Chunk {
    private final ColumnVector[] vectors;
    private int rows;

    /** A chunk over {@code vectors} (the array itself, not a copy) holding {@code rows} rows. */
    public Chunk(ColumnVector[] vectors, int rows) {
        this.vectors = vectors;
        this.rows = rows;
    }

    public static Chunk of(List<ColumnVector> vectors, int rows) {
        return new Chunk(vectors.toArray(ColumnVector[]::new), rows);
    }

    public int rows() {
        return rows;
    }

    /** Sets the row count (the vectors' sizes are their filler's business). */
    public void rows(int count) {
        this.rows = count;
    }

    public int width() {
        return vectors.length;
    }

    public ColumnVector column(int i) {
        return vectors[i];
    }

    /** The vectors themselves, not a copy: what expression kernels take as their inputs. */
    public ColumnVector[] vectors() {
        return vectors;
    }

    /** The vectors as a list (a view of the same array). */
    public List<ColumnVector> columns() {
        return Arrays.asList(vectors);
    }
}
