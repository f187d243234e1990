package io.locusdb.server.pg;

/** Authentication failed or was attempted wrongly; the connection ends with this SQLSTATE (FATAL). */
public final class PgAuthenticationException extends RuntimeException {
    private final String sqlState;

    public PgAuthenticationException(String sqlState, String message) {
        super(message);
        this.sqlState = sqlState;
    }

    public String sqlState() {
        return sqlState;
    }
}
