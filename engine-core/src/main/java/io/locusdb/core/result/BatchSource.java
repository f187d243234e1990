package io.locusdb.core.result;

/** Where a result's batches come from: a running query's output queue, or batches already computed. */
public interface BatchSource extends AutoCloseable {
    /** The next batch, waiting for it if the query is still producing; null at the end. */
    ResultBatch next();

    /** Stops producing (cancels the query if it still runs). */
    @Override
    void close();
}
