package io.locusdb.server.pg;

import java.util.List;
import java.util.Map;

/**
 * A message a PostgreSQL client sends (protocol 3.0, "Frontend" in the PostgreSQL documentation's chapter 55). The
 * first group has no type byte and may only open a connection; the rest are typed.
 */
public sealed interface PgFrontendMessage {

    /** StartupMessage: the protocol version asked for and the parameters (user, database, options...). */
    record Startup(int majorVersion, int minorVersion, Map<String, String> parameters) implements PgFrontendMessage {
    }

    /** SSLRequest: the client asks for TLS before the startup message. */
    record SslRequest() implements PgFrontendMessage {
    }

    /** GSSENCRequest: the client asks for GSSAPI encryption, which this server does not offer. */
    record GssEncRequest() implements PgFrontendMessage {
    }

    /** CancelRequest: sent on a fresh connection, carrying another session's process id and secret key. */
    record CancelRequest(int processId, int secretKey) implements PgFrontendMessage {
    }

    /**
     * 'p': a password, a SASLInitialResponse or a SASLResponse. Which one depends on what the server asked for, so
     * the body stays raw until then.
     */
    record Password(byte[] body) implements PgFrontendMessage {
    }

    /** 'Q': simple query; the text may hold several statements. */
    record Query(String sql) implements PgFrontendMessage {
    }

    /** 'P': parse {@code sql} into the named (or, when empty, unnamed) prepared statement. 0 = type not given. */
    record Parse(String statement, String sql, int[] parameterTypes) implements PgFrontendMessage {
    }

    /** 'B': bind parameter values (null = SQL NULL) to a statement, making a portal. Formats: 0 text, 1 binary. */
    record Bind(String portal, String statement, short[] parameterFormats, List<byte[]> values,
                short[] resultFormats) implements PgFrontendMessage {
    }

    /** 'D': describe a statement ('S') or a portal ('P'). */
    record Describe(char kind, String name) implements PgFrontendMessage {
    }

    /** 'E': run a portal, returning at most {@code maxRows} rows (0 = all). */
    record Execute(String portal, int maxRows) implements PgFrontendMessage {
    }

    /** 'C': close a statement ('S') or a portal ('P'). */
    record Close(char kind, String name) implements PgFrontendMessage {
    }

    /** 'S'. */
    record Sync() implements PgFrontendMessage {
    }

    /** 'H'. */
    record Flush() implements PgFrontendMessage {
    }

    /** 'X'. */
    record Terminate() implements PgFrontendMessage {
    }

    /** 'd': COPY FROM STDIN data. */
    record CopyData(byte[] data) implements PgFrontendMessage {
    }

    /** 'c'. */
    record CopyDone() implements PgFrontendMessage {
    }

    /** 'f': the client gives up a COPY FROM STDIN. */
    record CopyFail(String reason) implements PgFrontendMessage {
    }

    /** 'F': the legacy fast-path function call, which this server refuses. */
    record FunctionCall() implements PgFrontendMessage {
    }
}
