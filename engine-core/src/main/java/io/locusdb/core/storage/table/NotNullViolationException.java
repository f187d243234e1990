package io.locusdb.core.storage.table;

/** A row would hold NULL in a column declared NOT NULL; nothing of the write was applied. */
public final class NotNullViolationException extends IllegalArgumentException {
    private final String column;

    public NotNullViolationException(String column) {
        super("null value in column \"" + column + "\" violates not-null constraint");
        this.column = column;
    }

    /** The NOT NULL column. */
    public String column() {
        return column;
    }
}
