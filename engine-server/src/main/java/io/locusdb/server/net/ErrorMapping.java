package io.locusdb.server.net;

import io.locusdb.core.exec.MemoryBudgetExceededException;
import io.locusdb.core.exec.QueryCancelledException;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.protocol.Message;
import io.locusdb.protocol.ProtocolException;

/**
 * Turns what a statement threw into the ERROR a client gets: the engine's SQLSTATE and position, 53200 for a blown
 * memory budget, XX000 with the message for anything unexpected (logged here with its stack trace, which never
 * goes to the client).
 */
final class ErrorMapping {
    private static final System.Logger LOG = System.getLogger(ErrorMapping.class.getName());

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
        LOG.log(System.Logger.Level.ERROR, "statement failed with an internal error", thrown);
        return new Message.Error("XX000", "internal error: " + text(thrown), 0, 0);
    }

    private static String text(Throwable e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
