package io.locusdb.server.pg;

/** A value a client sent cannot be read as its type; the statement fails with this SQLSTATE, the session goes on. */
public final class PgDataException extends RuntimeException {
    private final String sqlState;

    public PgDataException(String sqlState, String message) {
        super(message);
        this.sqlState = sqlState;
    }

    public String sqlState() {
        return sqlState;
    }
}
