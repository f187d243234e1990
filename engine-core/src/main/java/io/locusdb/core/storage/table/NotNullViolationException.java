package io.locusdb.core.storage.table;

/** A row would hold NULL in a column declared NOT NULL; nothing of the write was applied. */
public final class NotNullViolationException extends IllegalArgumentException {
    private final String column;

    /** A violation found where the table is not known (a row checked against a schema). */
    public NotNullViolationException(String column) {
        super("null value in column \"" + column + "\" violates not-null constraint");
        this.column = column;
    }

    /** As PostgreSQL says it, naming the table. */
    public NotNullViolationException(String column, String table) {
        super("null value in column \"" + column + "\" of relation \"" + table + "\" violates not-null constraint");
        this.column = column;
    }

    /** The NOT NULL column. */
    public String column() {
        return column;
    }
}
