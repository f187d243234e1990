package io.locusdb.core.query.pipeline;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.result.ResultBatch;
import java.util.ArrayList;
import java.util.List;

/** Copies of row ranges of result batches. */
final class Slices {
    private Slices() {
    }

    static ResultBatch slice(ResultBatch batch, int from, int count) {
        List<ColumnVector> vectors = new ArrayList<>(batch.vectors().size());
        for (ColumnVector source : batch.vectors()) {
            ColumnVector v = new ColumnVector(source.type(), Math.max(1, count));
            for (int i = 0; i < count; i++) {
                v.copyRow(source, from + i, i);
            }
            v.setSize(count);
            vectors.add(v);
        }
        return new ResultBatch(batch.columns(), vectors, count);
    }
}
