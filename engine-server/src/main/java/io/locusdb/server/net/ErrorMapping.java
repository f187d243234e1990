package io.locusdb.server.net;

import io.locusdb.core.exec.MemoryBudgetExceededException;
import io.locusdb.core.exec.QueryCancelledException;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.protocol.Message;
import io.locusdb.protocol.ProtocolException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Turns what a statement threw into the ERROR a client gets: the engine's SQLSTATE and position, 53200 for a blown
 * memory budget, and for anything unexpected XX000 with a generic text and a short incident id; the exception,
 * its stack trace and that id are logged here, and nothing of it goes to the client.
 */
final class ErrorMapping {
    private static final System.Logger LOG = System.getLogger(ErrorMapping.class.getName());
    private static final SecureRandom INCIDENTS = new SecureRandom();

    private ErrorMapping() {
    }

    static Message.Error toError(Throwable thrown) {
        for (Throwable e = thrown; e != null; e = e.getCause() == e ? null : e.getCause()) {
            switch (e) {
                case LocusSqlException sql -> {
                    return new Message.Error(sql.sqlState(), text(sql), Math.max(0, sql.line()),
                            Math.max(0, sql.column()));
                }
                case MemoryBudgetExceededException budget -> {
                    return new Message.Error("53200", text(budget), 0, 0);
                }
                case QueryCancelledException cancelled -> {
                    return new Message.Error("57014", text(cancelled), 0, 0);
                }
                case RequestException request -> {
                    return new Message.Error(request.sqlState(), text(request), 0, 0);
                }
                case ProtocolException protocol -> {
                    return new Message.Error(protocol.sqlState(), text(protocol), 0, 0);
                }
                default -> {
                }
            }
        }
        return new Message.Error("XX000", internalError("statement failed with an internal error", thrown), 0, 0);
    }

    /** Logs {@code thrown} under a new incident id and returns the text a client gets instead of its message. */
    static String internalError(String what, Throwable thrown) {
        String incident = HexFormat.of().toHexDigits(INCIDENTS.nextInt());
        LOG.log(System.Logger.Level.ERROR, what + " (incident " + incident + ")", thrown);
        return "internal error (incident " + incident + "); the server log has the details";
    }

    private static String text(Throwable e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
