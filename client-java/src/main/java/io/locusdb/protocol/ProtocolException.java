package io.locusdb.protocol;

/**
 * Bytes that break the protocol, or a limit the peer exceeded: carries the SQLSTATE the server answers with
 * ({@code 08P01} for malformed input, {@code 54000} for an exceeded limit).
 */
public final class ProtocolException extends RuntimeException {
    public static final String PROTOCOL_VIOLATION = "08P01";
    public static final String LIMIT_EXCEEDED = "54000";

    private final String sqlState;

    public ProtocolException(String sqlState, String message) {
        super(message);
        this.sqlState = sqlState;
    }

    public static ProtocolException malformed(String message) {
        return new ProtocolException(PROTOCOL_VIOLATION, message);
    }

    public String sqlState() {
        return sqlState;
    }
}
