package io.locusdb.jdbc;

import io.locusdb.protocol.Message;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientException;

/** SQLSTATE constants and the mapping of the server's ERROR frames to the JDBC exception hierarchy. */
final class Errors {
    static final String CONNECTION_FAILURE = "08006";
    static final String CONNECTION_NOT_OPEN = "08003";
    static final String CANNOT_CONNECT = "08001";
    static final String PROTOCOL_VIOLATION = "08P01";
    static final String NOT_SUPPORTED = "0A000";
    static final String INVALID_CURSOR_STATE = "24000";
    static final String INVALID_DESCRIPTOR_INDEX = "07009";
    static final String INVALID_PARAMETER = "22023";
    static final String INVALID_CONVERSION = "22018";
    static final String OUT_OF_RANGE = "22003";
    static final String QUERY_CANCELED = "57014";
    static final String UNSET_PARAMETER = "07002";
    static final String WRONG_STATE = "55000";
    static final String GENERAL = "HY000";
    static final String OBJECT_CLOSED = "HY010";

    private Errors() {
    }

    /** The exception for an ERROR frame; {@code timeoutSet}: the statement ran with a query timeout. */
    static SQLException fromServer(Message.Error e) {
        String state = e.sqlState();
        String text = e.message() + (e.line() > 0 ? " (line " + e.line() + ", column " + e.column() + ")" : "");
        if (state.startsWith("42")) {
            return new SQLSyntaxErrorException(text, state);
        }
        if (state.startsWith("0A")) {
            return new SQLFeatureNotSupportedException(text, state);
        }
        if (state.startsWith("28")) {
            return new SQLInvalidAuthorizationSpecException(text, state);
        }
        if (state.startsWith("08")) {
            return new SQLNonTransientConnectionException(text, state);
        }
        if (state.equals(QUERY_CANCELED) && isTimeout(e.message())) {
            return new SQLTimeoutException(text, state);
        }
        if (state.equals("53300") || state.equals("53200")) {
            return new SQLTransientException(text, state);
        }
        return new SQLException(text, state);
    }

    /** The server says "query timed out after N ms" for a timeout and something else for a cancel. */
    static boolean isTimeout(String message) {
        String m = message.toLowerCase(java.util.Locale.ROOT);
        return m.contains("timed out") || m.contains("timeout");
    }

    /** Errors after which the server closes the connection (docs/protocol.md). */
    static boolean closesConnection(String sqlState) {
        return sqlState.startsWith("08") || sqlState.startsWith("28") || sqlState.equals("53300")
                || sqlState.equals("57P01") || sqlState.equals("57P05");
    }

    static SQLFeatureNotSupportedException unsupported(String what) {
        return new SQLFeatureNotSupportedException(what + " is not supported by LocusDB", NOT_SUPPORTED);
    }

    static SQLException conversion(String from, String to) {
        return new SQLException("cannot convert " + from + " to " + to, INVALID_CONVERSION);
    }

    static SQLNonTransientConnectionException connectionLost(String what, Throwable cause) {
        return new SQLNonTransientConnectionException(what, CONNECTION_FAILURE, cause);
    }

    /** Wrapper.unwrap for a class that wraps nothing: itself, or an error naming the interface. */
    static <T> T unwrap(Object self, Class<T> iface) throws SQLException {
        if (iface.isInstance(self)) {
            return iface.cast(self);
        }
        throw new SQLException("not a wrapper for " + iface.getName(), GENERAL);
    }
}
