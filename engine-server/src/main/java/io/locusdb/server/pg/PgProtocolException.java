package io.locusdb.server.pg;

/** The peer broke the protocol (or a limit of it); the connection ends with this SQLSTATE. */
public final class PgProtocolException extends RuntimeException {
    /** protocol_violation. */
    public static final String PROTOCOL_VIOLATION = "08P01";
    /** program_limit_exceeded. */
    public static final String LIMIT_EXCEEDED = "54000";
    /** feature_not_supported. */
    public static final String NOT_SUPPORTED = "0A000";

    private final String sqlState;

    public PgProtocolException(String sqlState, String message) {
        super(message);
        this.sqlState = sqlState;
    }

    public String sqlState() {
        return sqlState;
    }
}
