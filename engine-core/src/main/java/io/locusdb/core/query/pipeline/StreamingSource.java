package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.QueryCancelledException;
import io.locusdb.core.result.BatchSource;
import io.locusdb.core.result.ResultBatch;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Batches handed from a running scan to the reader through a bounded queue: producers (materialize tasks) wait
 * while the reader is behind, through the executor's blocking accounting, so a large result is never held whole.
 * OFFSET and LIMIT are applied here; reaching the limit, or closing, cancels the query.
 */
final class StreamingSource implements BatchSource {
    /**
     * Queued when the scan's graph completes, so that a reader waiting on an empty queue wakes at once instead of
     * at its next poll timeout (every streamed query used to end up to 5 ms late).
     */
    private static final ResultBatch END = new ResultBatch(List.of(), List.of(), 0);

    private final BlockingQueue<ResultBatch> queue;
    private final long offset;
    private final long fetch;
    private GraphHandle handle;
    private long skipped;
    private long delivered;
    private boolean finished;

    StreamingSource(int capacity, long offset, long fetch) {
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.offset = offset;
        this.fetch = fetch;
    }

    void start(GraphHandle handle) {
        this.handle = handle;
        // A full queue refuses the marker; the reader then drains it and finds the graph done without waiting.
        handle.completion().whenComplete((ignored, error) -> queue.offer(END));
    }

    BlockingQueue<ResultBatch> queue() {
        return queue;
    }

    @Override
    public ResultBatch next() {
        while (!finished) {
            if (fetch >= 0 && delivered >= fetch) {
                close();
                return null;
            }
            ResultBatch batch = queue.poll();
            if (batch == null && !handle.isDone()) {
                try {
                    batch = queue.poll(5, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    close();
                    throw new QueryCancelledException(handle.query(), "interrupted while reading the result");
                }
            }
            if (batch == null || batch == END) {
                // The marker comes after every batch the producers queued, since they all finished before it.
                if (handle.isDone() && queue.isEmpty()) {
                    finished = true;
                    handle.await();
                    return null;
                }
                continue;
            }
            ResultBatch cut = cut(batch);
            if (cut != null) {
                return cut;
            }
        }
        return null;
    }

    /** Drops the rows OFFSET skips and those past LIMIT; null when nothing of the batch remains. */
    private ResultBatch cut(ResultBatch batch) {
        int from = 0;
        int rows = batch.rows();
        if (skipped < offset) {
            int skip = (int) Math.min(rows, offset - skipped);
            skipped += skip;
            from = skip;
        }
        int to = rows;
        if (fetch >= 0) {
            to = (int) Math.min(rows, from + Math.min(rows, fetch - delivered));
        }
        if (to <= from) {
            return null;
        }
        delivered += to - from;
        if (from == 0 && to == rows) {
            return batch;
        }
        return Slices.slice(batch, from, to - from);
    }

    @Override
    public void close() {
        if (finished) {
            return;
        }
        finished = true;
        if (handle == null) {
            return;
        }
        handle.cancel("result closed");
        // Producers may be waiting on a full queue: keep draining until the graph has wound down.
        while (!handle.isDone()) {
            queue.clear();
            try {
                handle.await(Duration.ofMillis(10));
            } catch (RuntimeException ignored) {
                // Cancelled, or failed after we stopped reading: the reader no longer cares.
            }
        }
        queue.clear();
    }
}
