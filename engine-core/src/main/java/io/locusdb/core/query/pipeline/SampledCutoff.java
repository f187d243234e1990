package io.locusdb.core.query.pipeline;

import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.query.sort.LongSelection;
import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;

/**
 * A guess at a top-N's cut-off before its scan starts, from the first sort key's values in an evenly spaced sample
 * of the table's rows: the value that about {@value #MARGIN} times LIMIT rows (plus a few standard deviations of the
 * sample) reach. Where LIMIT is a large share of the rows, the tasks otherwise keep every row until each has seen
 * twice LIMIT, and each task's own cut-off, found among its share of the rows only, lets through many more than LIMIT
 * in all. The guess is only a guess ({@link TopNSink#startFrom}): the query checks that enough rows passed it.
 */
final class SampledCutoff {
    /** About this many rows are sampled, whatever the table's size. */
    static final int SAMPLE_ROWS = 1 << 16;
    /**
     * Rows are sampled in blocks of this many consecutive ones: about a cache line of codes, and short enough that
     * rows clustered by value (which make a block's rows alike) leave thousands of blocks for the sampling error
     * that the guess allows for.
     */
    private static final int BLOCK_ROWS = 16;
    /** The guess lets through about this many times LIMIT rows (before the sampling error's allowance). */
    private static final double MARGIN = 1.25;
    /** Fewer sampled rows than this expected past the cut-off make the guess too rough to try. */
    private static final double MIN_EXPECTED = 8;

    private SampledCutoff() {
    }

    /**
     * The guessed cut-off for the top {@code limit} rows by {@code key}, the table column {@code column} of every
     * part of {@code snapshot}; null when the column is not integers in a sorted dictionary in every part, or when
     * LIMIT is too small a share of the rows for the sample to say anything.
     */
    static Long guess(TableSnapshot snapshot, int column, PhysicalPlan.SortKey key, long limit) {
        long total = 0;
        for (TablePart part : snapshot.parts()) {
            if (!(part.column(column).dictionary() instanceof LongDictionary)) {
                return null;
            }
            total += part.rows();
        }
        if (total == 0) {
            return null;
        }
        // Evenly spaced blocks of consecutive rows: a block's codes share cache lines, where single rows a stride
        // apart each cost a miss. The blocks are spaced over all parts' rows as one sequence, so that a part shorter
        // than the spacing still gets its share.
        long step = Math.max(BLOCK_ROWS, total / SAMPLE_ROWS * BLOCK_ROWS);
        long[] sample = new long[(int) Math.min(Integer.MAX_VALUE - 8, (total / step + 1) * BLOCK_ROWS)];
        int n = 0;
        long block = (step - BLOCK_ROWS) / 2;
        long partStart = 0;
        for (TablePart part : snapshot.parts()) {
            Column values = part.column(column);
            LongDictionary dictionary = (LongDictionary) values.dictionary();
            for (; block < partStart + part.rows() && n < sample.length; block += step) {
                long end = Math.min(part.rows(), block - partStart + BLOCK_ROWS);
                for (long row = block - partStart; row < end && n < sample.length; row++) {
                    int code = values.codes().get(row);
                    // NULLs are not values a cut-off can be: where they sort first they pass it anyway.
                    if (code != 0) {
                        sample[n++] = dictionary.value(code);
                    }
                }
            }
            partStart += part.rows();
        }
        double expected = (double) limit * n / total;
        if (expected < MIN_EXPECTED) {
            return null;
        }
        long reach = (long) Math.ceil(expected * MARGIN + 4 * Math.sqrt(expected) + MIN_EXPECTED);
        if (reach >= n) {
            return null;
        }
        // The reach-th best sampled value: the reach-th largest when descending, the reach-th smallest otherwise.
        return LongSelection.kthSmallest(sample, n, key.descending() ? n - 1 - (int) reach : (int) reach);
    }
}
