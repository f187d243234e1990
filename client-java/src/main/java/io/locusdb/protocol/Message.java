package io.locusdb.protocol;

import java.util.List;

/**
 * Every message of protocol version 1 (docs/protocol.md) as a value. {@link MessageCodec} turns them into frames
 * and back; BATCH frames are written by {@link BatchEncoder} and read by {@link BatchDecoder} because they need
 * the result's columns.
 */
public sealed interface Message {
    /** The frame's type byte. */
    int type();

    // ---- client -> server

    record Startup(String user, String password, String token, String database, String clientName)
            implements Message {
        public int type() {
            return Protocol.STARTUP;
        }

        /** Never print a password or token, not even in a debugger's toString. */
        @Override
        public String toString() {
            return "Startup[user=" + user + ", database=" + database + ", client=" + clientName + "]";
        }
    }

    record CancelRequest(long sessionId, long cancelKey) implements Message {
        public int type() {
            return Protocol.CANCEL_REQUEST;
        }
    }

    record Prepare(String sql) implements Message {
        public int type() {
            return Protocol.PREPARE;
        }
    }

    /** Parameters are null, Boolean, Integer, Long, Double, BigDecimal, LocalDate or String. */
    record Execute(int statementId, List<Object> parameters, int maxRows, int fetchBatches, int timeoutMillis)
            implements Message {
        public int type() {
            return Protocol.EXECUTE;
        }
    }

    record Query(String sql, int maxRows, int fetchBatches, int timeoutMillis) implements Message {
        public int type() {
            return Protocol.QUERY;
        }
    }

    record Fetch(int batches) implements Message {
        public int type() {
            return Protocol.FETCH;
        }
    }

    record Cancel() implements Message {
        public int type() {
            return Protocol.CANCEL;
        }
    }

    record CloseResult() implements Message {
        public int type() {
            return Protocol.CLOSE_RESULT;
        }
    }

    record CloseStatement(int statementId) implements Message {
        public int type() {
            return Protocol.CLOSE_STATEMENT;
        }
    }

    record Terminate() implements Message {
        public int type() {
            return Protocol.TERMINATE;
        }
    }

    record Ping() implements Message {
        public int type() {
            return Protocol.PING;
        }
    }

    /** {@code what}: {@link #TABLES} or {@link #COLUMNS}; patterns are SQL LIKE patterns, empty = all. */
    record Metadata(int what, String tablePattern, String columnPattern) implements Message {
        public static final int TABLES = 1;
        public static final int COLUMNS = 2;

        public int type() {
            return Protocol.METADATA;
        }
    }

    // ---- server -> client

    record Ready(long sessionId, long cancelKey, String serverVersion, int maxFrameBytes, int maxStatements)
            implements Message {
        public int type() {
            return Protocol.READY;
        }
    }

    record Prepared(int statementId, int parameterCount, List<ColumnDescription> columns) implements Message {
        public int type() {
            return Protocol.PREPARED;
        }
    }

    /** {@code rows} true for a row result, false for an update count. */
    record ResultHeader(boolean rows, List<ColumnDescription> columns) implements Message {
        public int type() {
            return Protocol.RESULT_HEADER;
        }
    }

    record Batch(DecodedBatch batch) implements Message {
        public int type() {
            return Protocol.BATCH;
        }
    }

    record ResultEnd(long updateCount, long rowsSent, boolean truncated) implements Message {
        public int type() {
            return Protocol.RESULT_END;
        }
    }

    record Error(String sqlState, String message, int line, int column) implements Message {
        public int type() {
            return Protocol.ERROR;
        }
    }

    record Closed(int statementId) implements Message {
        public int type() {
            return Protocol.CLOSED;
        }
    }

    record Pong() implements Message {
        public int type() {
            return Protocol.PONG;
        }
    }

    record Notice(String sqlState, String message) implements Message {
        public int type() {
            return Protocol.NOTICE;
        }
    }
}
