package io.locusdb.server.net;

/** A request the server refuses with a SQLSTATE of its own (unknown statement id, a session limit, ...). */
final class RequestException extends RuntimeException {
    private final String sqlState;

    RequestException(String sqlState, String message) {
        super(message, null, false, false);
        this.sqlState = sqlState;
    }

    String sqlState() {
        return sqlState;
    }
}
