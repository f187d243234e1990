package io.locusdb.core.query.pipeline;

import io.locusdb.core.vector.ColumnVector;

/** Turning a BOOLEAN vector into the positions of its true rows (NULL counts as not true). */
final class Selection {
    private Selection() {
    }

    static int trueRows(ColumnVector condition, int rows, int[] out) {
        long[] values = condition.longs();
        boolean[] nulls = condition.nulls();
        int n = 0;
        if (condition.anyNull()) {
            for (int i = 0; i < rows; i++) {
                if (!nulls[i] && values[i] != 0) {
                    out[n++] = i;
                }
            }
        } else {
            for (int i = 0; i < rows; i++) {
                out[n] = i;
                n += (int) (values[i] & 1);
            }
        }
        return n;
    }
}
