package io.locusdb.trino;

import io.locusdb.jdbc.LocusDriver;
import io.trino.spi.ErrorCode;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.ErrorType;
import io.trino.spi.TrinoException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The catalog's LocusDB servers, reached through the JDBC driver (LocusDB's own protocol). Idle connections are
 * kept per server for the next split or metadata call, so a query with many splits does not pay a handshake each.
 */
final class LocusServers implements AutoCloseable {
    private static final int IDLE_PER_SERVER = 8;
    private final CatalogSettings settings;
    private final LocusDriver driver = new LocusDriver();
    private final Map<String, Deque<Connection>> idle = new HashMap<>();

    LocusServers(CatalogSettings settings) {
        this.settings = settings;
    }

    List<String> servers() {
        return settings.servers();
    }

    /** Whether Trino is told how tables are partitioned over servers and parts. */
    boolean partitioning() {
        return settings.partitioning();
    }

    /** Whether filters, limits and column lists go to the servers. */
    boolean pushdown() {
        return settings.pushdown();
    }

    /** A connection to {@code server}, to be handed back with {@link #release} (or closed, after a failure). */
    Connection open(String server) {
        synchronized (idle) {
            Deque<Connection> free = idle.get(server);
            while (free != null && !free.isEmpty()) {
                Connection c = free.pop();
                try {
                    if (!c.isClosed()) {
                        return c;
                    }
                } catch (SQLException e) {
                    // Closed under us: take another.
                }
            }
        }
        try {
            Connection c = driver.connect("jdbc:locusdb://" + server + "/", settings.connection());
            if (c == null) {
                throw new SQLException("the driver did not accept the server address");
            }
            return c;
        } catch (SQLException e) {
            throw failure(server, e);
        }
    }

    /** Keeps a healthy connection for later, closes it otherwise. */
    void release(String server, Connection connection, boolean healthy) {
        if (healthy) {
            synchronized (idle) {
                Deque<Connection> free = idle.computeIfAbsent(server, s -> new ArrayDeque<>());
                if (free.size() < IDLE_PER_SERVER) {
                    free.push(connection);
                    return;
                }
            }
        }
        try {
            connection.close();
        } catch (SQLException e) {
            // Nothing to keep.
        }
    }

    /**
     * A failure that names the server, so that an operator knows which one to look at. After a connection failure
     * (SQLSTATE class 08, or none: the socket broke) the server's idle connections are dropped too: after a server
     * died they are all dead, and a restarted server must be met with new ones. A statement's own error (40001,
     * 42703, ...) leaves them.
     */
    TrinoException failure(String server, SQLException e) {
        String state = e.getSQLState();
        Deque<Connection> dropped = null;
        if (state == null || state.startsWith("08")) {
            synchronized (idle) {
                dropped = idle.remove(server);
            }
        }
        if (dropped != null) {
            for (Connection c : dropped) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // It is gone either way.
                }
            }
        }
        return new TrinoException(Error.LOCUSDB_SERVER_ERROR, "LocusDB server " + server + ": " + e.getMessage()
                + (e.getSQLState() == null ? "" : " (SQLSTATE " + e.getSQLState() + ")"), e);
    }

    @Override
    public void close() {
        synchronized (idle) {
            for (Deque<Connection> free : idle.values()) {
                for (Connection c : free) {
                    try {
                        c.close();
                    } catch (SQLException e) {
                        // Closing anyway.
                    }
                }
            }
            idle.clear();
        }
    }

    /** This connector's error codes, in the range Trino leaves to connectors. */
    enum Error implements ErrorCodeSupplier {
        LOCUSDB_SERVER_ERROR(0, ErrorType.EXTERNAL),
        LOCUSDB_CATALOG_MISMATCH(1, ErrorType.EXTERNAL);

        private final ErrorCode code;

        Error(int code, ErrorType type) {
            this.code = new ErrorCode(0x0516_0000 + code, name(), type);
        }

        @Override
        public ErrorCode toErrorCode() {
            return code;
        }
    }
}
