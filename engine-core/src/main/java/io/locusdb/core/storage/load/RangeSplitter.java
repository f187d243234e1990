package io.locusdb.core.storage.load;

import io.locusdb.core.storage.column.ColumnBuilder;
import io.locusdb.core.storage.column.LongColumnBuilder;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.TablePartBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits staged rows into {@code parts} RANGE parts of (nearly) equal size on a long-typed key: the bounds are
 * quantiles of the key. NULL keys go to part 0.
 */
final class RangeSplitter {
    final List<TablePartBuilder> builders = new ArrayList<>();
    final List<Long> bounds = new ArrayList<>();

    RangeSplitter(List<TablePartBuilder> pieces, int keyColumn, int parts) {
        Schema schema = pieces.getFirst().schema();
        if (!(pieces.getFirst().column(keyColumn) instanceof LongColumnBuilder)) {
            throw new IllegalArgumentException("RANGE partitioning needs an integer, decimal or date column; "
                    + schema.column(keyColumn).name() + " is " + schema.column(keyColumn).type());
        }
        long nonNull = 0;
        for (TablePartBuilder piece : pieces) {
            nonNull += piece.rows() - countNulls(piece.column(keyColumn), piece.rows());
        }
        long[] sorted = new long[(int) nonNull];
        int k = 0;
        for (TablePartBuilder piece : pieces) {
            LongColumnBuilder keys = (LongColumnBuilder) piece.column(keyColumn);
            for (long r = 0; r < piece.rows(); r++) {
                if (!keys.isNull(r)) {
                    sorted[k++] = keys.valueAt(r);
                }
            }
        }
        Arrays.sort(sorted);
        for (int p = 1; p < parts; p++) {
            long bound = sorted.length == 0 ? Long.MAX_VALUE : sorted[(int) ((long) sorted.length * p / parts)];
            if (!bounds.isEmpty() && bound < bounds.getLast()) {
                bound = bounds.getLast();
            }
            bounds.add(bound);
        }
        for (int p = 0; p < parts; p++) {
            builders.add(new TablePartBuilder(schema));
        }
        try {
            for (TablePartBuilder piece : pieces) {
                split(piece, (LongColumnBuilder) piece.column(keyColumn), piece.rows(), schema);
            }
        } catch (RuntimeException | Error e) {
            builders.forEach(TablePartBuilder::discard);
            throw e;
        }
    }

    private void split(TablePartBuilder staged, LongColumnBuilder keys, long rows, Schema schema) {
        for (long r = 0; r < rows; r++) {
            int part = keys.isNull(r) ? 0 : partOf(keys.valueAt(r), bounds);
            TablePartBuilder target = builders.get(part);
            for (int c = 0; c < schema.size(); c++) {
                ColumnBuilder column = staged.column(c);
                column.copyRowTo(r, target.column(c));
            }
        }
    }

    /** Number of bounds ≤ key: part 0 below the first bound. */
    static int partOf(long key, List<Long> bounds) {
        int lo = 0;
        int hi = bounds.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (bounds.get(mid) <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static long countNulls(ColumnBuilder column, long rows) {
        long n = 0;
        for (long r = 0; r < rows; r++) {
            if (column.isNull(r)) {
                n++;
            }
        }
        return n;
    }
}
