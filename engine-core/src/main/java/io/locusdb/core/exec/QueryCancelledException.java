package io.locusdb.core.exec;

/** Thrown inside the tasks of a cancelled query, and to whoever waits for its graphs. */
public final class QueryCancelledException extends RuntimeException {
    public QueryCancelledException(QueryContext query, String reason) {
        super(query + " was cancelled: " + reason);
    }
}
