package io.locusdb.core.query.scan;

import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.vector.ColumnVector;

/**
 * Decodes one column of a part for rows chosen earlier by their positions (as a scan with
 * {@link MaterializeJob.Columns#positions()} gave them): late materialization, where a query decided which few rows it
 * wants from a few columns and only then reads the rest of those rows. The part must be held by the same snapshot
 * the positions came from.
 */
public final class RowFetch {
    private RowFetch() {
    }

    /**
     * Column {@code column} of {@code part} for main rows {@code rows[0..count-1]} (ascending row numbers) into
     * {@code target} slots {@code 0..count-1}. Returns the bytes read.
     */
    public static long mainRows(TablePart part, int column, int[] rows, int count, ColumnVector target) {
        if (count == 0) {
            return 0;
        }
        if (rows[count - 1] >= part.rows() || rows[0] < 0) {
            throw new IndexOutOfBoundsException("rows " + rows[0] + ".." + rows[count - 1] + " of a part of "
                    + part.rows());
        }
        Column source = part.column(column);
        target.ensureCapacity(count);
        long bytes = MaterializeJob.decode(source, rows, count, target);
        target.setSize(count);
        return bytes;
    }

    /**
     * Column {@code column} of {@code part} for its delta rows {@code deltaRows[0..count-1]} into {@code target}
     * slots {@code from..from+count-1}.
     */
    public static void deltaRows(TablePart part, int column, int[] deltaRows, int count, ColumnVector target,
                                 int from) {
        target.ensureCapacity(from + count);
        for (int i = 0; i < count; i++) {
            MaterializeJob.setBoxed(target, from + i, part.delta().row(deltaRows[i])[column]);
        }
        target.setSize(Math.max(target.size(), from + count));
    }
}
