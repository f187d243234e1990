package io.locusdb.core.sql;

/**
 * An error in a statement: a SQLSTATE, a message saying what is wrong, and where in the SQL text (1-based line and
 * column; 0 when the error has no position).
 */
public final class LocusSqlException extends RuntimeException {
    private final SqlState state;
    private final int line;
    private final int column;

    public LocusSqlException(SqlState state, String message, int line, int column, Throwable cause) {
        super(message, cause);
        this.state = state;
        this.line = line;
        this.column = column;
    }

    public LocusSqlException(SqlState state, String message) {
        this(state, message, 0, 0, null);
    }

    public SqlState state() {
        return state;
    }

    public String sqlState() {
        return state.code();
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }

    public boolean hasPosition() {
        return line > 0;
    }

    @Override
    public String toString() {
        return "[" + state.code() + "] " + getMessage() + (hasPosition() ? " (line " + line + ", column " + column
                + ")" : "");
    }
}
