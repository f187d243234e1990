package io.locusdb.core.exec;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** A submitted graph: wait for it (through the executor, so a waiting worker is replaced), or cancel it. */
public interface GraphHandle {
    /**
     * Waits until every task of the graph finished. Rethrows the first task failure (unchecked exceptions as they
     * were, checked ones wrapped in {@link TaskFailedException}); a cancelled query gives
     * {@link QueryCancelledException}.
     */
    void await();

    /** As {@link #await()}, but gives up after {@code timeout}; returns whether the graph finished. */
    boolean await(Duration timeout);

    boolean isDone();

    /** Cancels the query the graph belongs to: tasks not started are skipped, running ones see it on their checks. */
    void cancel(String reason);

    QueryContext query();

    /** Completes when the graph finished, for callers that must not block (e.g. network threads). */
    CompletableFuture<Void> completion();
}
