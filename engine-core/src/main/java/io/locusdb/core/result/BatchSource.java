package io.locusdb.core.result;

/** Where a result's batches come from: a running query's output queue, or batches already computed. */
public interface BatchSource extends AutoCloseable {
    /** The next batch, waiting for it if the query is still producing; null at the end. */
    ResultBatch next();

    /** Stops producing (cancels the query if it still runs). */
    @Override
    void close();

    /** A source of one batch computed already (none when it has no rows). */
    static BatchSource of(ResultBatch batch) {
        return new BatchSource() {
            private boolean sent = batch.rows() == 0;

            @Override
            public ResultBatch next() {
                if (sent) {
                    return null;
                }
                sent = true;
                return batch;
            }

            @Override
            public void close() {
                sent = true;
            }
        };
    }
}
