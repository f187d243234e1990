package io.locusdb.core.storage.table;

/**
 * A row that a statement meant to remove is no longer there: a concurrent statement removed or replaced it first.
 * Nothing of the statement was applied.
 */
public final class RowsChangedException extends RuntimeException {
    public RowsChangedException(String message) {
        super(message);
    }
}
