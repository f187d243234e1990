package io.locusdb.jdbc;

import io.locusdb.protocol.ColumnDescription;
import io.locusdb.protocol.FrameReader;
import io.locusdb.protocol.Message;
import io.locusdb.protocol.MessageCodec;
import io.locusdb.protocol.Protocol;
import io.locusdb.protocol.ProtocolException;
import io.locusdb.protocol.WireWriter;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * One session on a LocusDB server over a blocking socket. The protocol is synchronous per session and runs one
 * statement at a time: a streaming result holds the session until it is read to its end or closed, so running
 * another statement first closes the open result (CLOSE_RESULT, then the rest is drained to RESULT_END).
 *
 * <p>Like most JDBC connections it is meant for one thread at a time; from other threads only
 * {@link Statement#cancel()} (which uses a second connection), {@link #abort} and {@link #close} are safe.
 */
public final class LocusConnection implements Connection {
    /** Initial and follow-up credit when no fetch size is set: small, so results stream. */
    static final int DEFAULT_FETCH_BATCHES = 2;

    private final ConnectionConfig config;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final WireWriter writer = new WireWriter(1024);
    private FrameReader reader;
    private Message.Ready ready;
    private volatile boolean closed;
    private volatile String broken;
    private volatile boolean busy;
    private LocusResultSet openResult;
    private final WarningChain warnings = new WarningChain();
    private final Properties clientInfo = new Properties();
    private LocusDatabaseMetaData metaData;

    private LocusConnection(ConnectionConfig config, Socket socket) throws IOException {
        this.config = config;
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        this.out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
        this.reader = new FrameReader(in, Protocol.DEFAULT_MAX_FRAME_BYTES);
    }

    static LocusConnection open(ConnectionConfig config) throws SQLException {
        Socket socket = connect(config);
        LocusConnection c;
        try {
            c = new LocusConnection(config, socket);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new SQLNonTransientConnectionException("could not open the connection to " + where(config)
                    + ": " + e.getMessage(), Errors.CANNOT_CONNECT, e);
        }
        c.handshake();
        return c;
    }

    private static String where(ConnectionConfig c) {
        return c.host() + ":" + c.port();
    }

    /** A TCP (and with ssl=true, TLS) socket to the server, with the handshake under the connect timeout. */
    static Socket connect(ConnectionConfig config) throws SQLException {
        int timeoutMillis = config.connectTimeoutSeconds() * 1000;
        Socket plain = new Socket();
        try {
            plain.connect(new InetSocketAddress(config.host(), config.port()), timeoutMillis);
            plain.setTcpNoDelay(true);
            plain.setSoTimeout(timeoutMillis);
            if (!config.ssl()) {
                return plain;
            }
            SSLSocket tls = (SSLSocket) sslContext(config).getSocketFactory()
                    .createSocket(plain, config.host(), config.port(), true);
            if (config.sslVerify()) {
                SSLParameters p = tls.getSSLParameters();
                p.setEndpointIdentificationAlgorithm("HTTPS");
                tls.setSSLParameters(p);
            }
            tls.startHandshake();
            return tls;
        } catch (SSLException e) {
            closeQuietly(plain);
            throw new SQLNonTransientConnectionException("TLS handshake with " + where(config) + " failed: "
                    + e.getMessage(), Errors.CANNOT_CONNECT, e);
        } catch (IOException e) {
            closeQuietly(plain);
            throw new SQLNonTransientConnectionException("could not connect to " + where(config) + ": " + e,
                    Errors.CANNOT_CONNECT, e);
        } catch (GeneralSecurityException e) {
            closeQuietly(plain);
            throw new SQLNonTransientConnectionException("TLS setup for " + where(config) + " failed: " + e,
                    Errors.CANNOT_CONNECT, e);
        }
    }

    private static SSLContext sslContext(ConnectionConfig config) throws GeneralSecurityException, IOException {
        if (!config.sslVerify()) {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {new TrustAll()}, null);
            return ctx;
        }
        if (config.sslTrustStore() == null) {
            return SSLContext.getDefault();
        }
        char[] password = config.sslTrustStorePassword() == null ? null
                : config.sslTrustStorePassword().toCharArray();
        KeyStore store = KeyStore.getInstance(new File(config.sslTrustStore()), password);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }

    /** sslVerify=false: every certificate is accepted (and no host name is checked). */
    private static final class TrustAll implements X509TrustManager {
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    private void handshake() throws SQLException {
        try {
            out.write(Protocol.preamble());
            send(new Message.Startup(config.user(), config.password(), config.token(), config.database(),
                    "LocusDB JDBC " + LocusDriver.VERSION));
            Message m = receive(null);
            switch (m) {
                case Message.Ready r -> {
                    ready = r;
                    reader = new FrameReader(in, Math.max(Protocol.DEFAULT_MAX_FRAME_BYTES, r.maxFrameBytes()));
                }
                case Message.Error e -> throw Errors.fromServer(e);
                default -> throw protocolViolation("expected READY, got " + Protocol.messageName(m.type()));
            }
            socket.setSoTimeout(config.socketTimeoutSeconds() * 1000);
        } catch (SQLException e) {
            closed = true;
            closeQuietly(socket);
            throw e;
        } catch (IOException e) {
            closed = true;
            closeQuietly(socket);
            throw Errors.connectionLost("handshake with " + where(config) + " failed: " + e.getMessage(), e);
        }
    }

    // ---- the wire

    ConnectionConfig config() {
        return config;
    }

    Message.Ready ready() {
        return ready;
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLNonTransientConnectionException("the connection is closed", Errors.CONNECTION_NOT_OPEN);
        }
        if (broken != null) {
            throw new SQLNonTransientConnectionException("the connection is broken: " + broken,
                    Errors.CONNECTION_FAILURE);
        }
    }

    /** Writes and flushes one frame; a frame over the server's limit is refused here, before anything is sent. */
    void send(Message message) throws SQLException {
        checkOpen();
        writer.clear();
        try {
            MessageCodec.write(writer, message);
        } catch (IllegalArgumentException e) {
            writer.clear();
            throw new SQLException(e.getMessage(), Errors.INVALID_PARAMETER, e);
        }
        int limit = ready == null ? Protocol.DEFAULT_MAX_FRAME_BYTES : ready.maxFrameBytes();
        if (writer.size() - 4 > limit) {
            int size = writer.size() - 4;
            writer.clear();
            throw new SQLException("the " + Protocol.messageName(message.type()) + " message of " + size
                    + " bytes exceeds the server's frame limit of " + limit + " bytes", "54000");
        }
        try {
            out.write(writer.array(), 0, writer.size());
            out.flush();
        } catch (IOException e) {
            throw lost(e);
        }
    }

    /**
     * The next server message; NOTICEs become warnings on the connection. {@code columns}: the running result's
     * columns, to decode BATCH frames (null when no result is open).
     */
    Message receive(List<ColumnDescription> columns) throws SQLException {
        return receive(columns, false);
    }

    /** As {@link #receive(List)}; with {@code returnAfterNotice}, null right after a NOTICE was taken as a warning. */
    Message receive(List<ColumnDescription> columns, boolean returnAfterNotice) throws SQLException {
        checkOpen();
        busy = true;
        try {
            while (true) {
                int type = reader.next();
                Message m = MessageCodec.read(type, reader.reader(), columns);
                if (m instanceof Message.Notice n) {
                    addWarning(new SQLWarning(n.message(), n.sqlState()));
                    if (returnAfterNotice) {
                        return null;
                    }
                    continue;
                }
                if (m instanceof Message.Error e && Errors.closesConnection(e.sqlState())) {
                    markBroken("the server ended the session: [" + e.sqlState() + "] " + e.message());
                }
                return m;
            }
        } catch (ProtocolException e) {
            markBroken("protocol violation by the server: " + e.getMessage());
            closeQuietly(socket);
            throw new SQLNonTransientConnectionException("protocol violation by the server: " + e.getMessage(),
                    Errors.PROTOCOL_VIOLATION, e);
        } catch (SocketTimeoutException e) {
            markBroken("no answer within the socket timeout");
            closeQuietly(socket);
            throw new SQLNonTransientConnectionException("no answer from the server within the socket timeout of "
                    + socketTimeoutText() + "; the connection is closed", Errors.CONNECTION_FAILURE, e);
        } catch (IOException e) {
            throw lost(e);
        } finally {
            busy = false;
        }
    }

    /**
     * Whether bytes of a server frame are already here. A result whose credit is used up may still be followed by
     * RESULT_END without more credit; reading what has arrived before sending FETCH or CLOSE_RESULT keeps those
     * messages from crossing a RESULT_END (the server ignores such strays, but there is no need to send them).
     */
    boolean inputAvailable() {
        try {
            return in.available() > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private String socketTimeoutText() {
        try {
            return socket.getSoTimeout() + " ms";
        } catch (IOException e) {
            return "?";
        }
    }

    private SQLException lost(IOException e) {
        String why = closed ? "the connection was closed" : e.getMessage() == null ? e.toString() : e.getMessage();
        markBroken(why);
        closeQuietly(socket);
        return Errors.connectionLost("connection to " + where(config) + " lost: " + why, e);
    }

    SQLException protocolViolation(String problem) {
        markBroken("protocol violation by the server: " + problem);
        closeQuietly(socket);
        return new SQLNonTransientConnectionException("protocol violation by the server: " + problem,
                Errors.PROTOCOL_VIOLATION);
    }

    private void markBroken(String reason) {
        if (broken == null) {
            broken = reason;
        }
    }

    boolean isBroken() {
        return broken != null;
    }

    // ---- statements

    /** Closes the result that holds the session, if any (any statement's: the protocol runs one at a time). */
    void closeOpenResult() throws SQLException {
        LocusResultSet rs = openResult;
        if (rs != null) {
            rs.close();
            openResult = null;
        }
    }

    void resultFinished(LocusResultSet rs) {
        if (openResult == rs) {
            openResult = null;
        }
    }

    LocusResultSet openResult() {
        return openResult;
    }

    /**
     * Sends QUERY, EXECUTE or METADATA and reads the answer's start: a streaming result set (which then holds the
     * session), or the update count.
     */
    Outcome run(LocusStatement statement, Message request, int fetchBatches) throws SQLException {
        closeOpenResult();
        send(request);
        Message m = receive(null);
        switch (m) {
            case Message.ResultHeader h when h.rows() -> {
                LocusResultSet rs = new LocusResultSet(statement, this, h.columns(), fetchBatches);
                openResult = rs;
                return new Outcome(rs, -1);
            }
            case Message.ResultHeader h -> {
                Message end = receive(null);
                return switch (end) {
                    case Message.ResultEnd e -> new Outcome(null, e.updateCount());
                    case Message.Error e -> throw Errors.fromServer(e);
                    default -> throw protocolViolation("expected RESULT_END, got "
                            + Protocol.messageName(end.type()));
                };
            }
            case Message.Error e -> throw Errors.fromServer(e);
            default -> throw protocolViolation("expected RESULT_HEADER or ERROR, got "
                    + Protocol.messageName(m.type()));
        }
    }

    record Outcome(LocusResultSet resultSet, long updateCount) {
    }

    /** Sends CANCEL_REQUEST for this session on a second connection (the first may be blocked reading). */
    void cancelRequest() throws SQLException {
        if (ready == null || closed) {
            return;
        }
        try (Socket s = connect(config)) {
            WireWriter w = new WireWriter(64);
            MessageCodec.write(w, new Message.CancelRequest(ready.sessionId(), ready.cancelKey()));
            OutputStream o = s.getOutputStream();
            byte[] preamble = Protocol.preamble();
            byte[] all = new byte[preamble.length + w.size()];
            System.arraycopy(preamble, 0, all, 0, preamble.length);
            System.arraycopy(w.array(), 0, all, preamble.length, w.size());
            o.write(all);
            o.flush();
            s.shutdownOutput();
            // The server closes the connection without a reply; wait briefly for that so the request is delivered.
            s.setSoTimeout(2000);
            try {
                while (s.getInputStream().read() >= 0) {
                    // nothing expected
                }
            } catch (IOException ignored) {
                // closed or timed out: the request went out either way
            }
        } catch (IOException e) {
            throw Errors.connectionLost("could not send the cancel request: " + e.getMessage(), e);
        }
    }

    // ---- Connection

    @Override
    public Statement createStatement() throws SQLException {
        checkOpen();
        return new LocusStatement(this);
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw new SQLException("sql is null", Errors.INVALID_PARAMETER);
        }
        closeOpenResult();
        send(new Message.Prepare(sql));
        Message m = receive(null);
        return switch (m) {
            case Message.Prepared p -> new LocusPreparedStatement(this, sql, p);
            case Message.Error e -> throw Errors.fromServer(e);
            default -> throw protocolViolation("expected PREPARED, got " + Protocol.messageName(m.type()));
        };
    }

    /** Sends CLOSE_STATEMENT and waits for CLOSED. */
    void closeStatement(int statementId) throws SQLException {
        if (closed || broken != null) {
            return;
        }
        closeOpenResult();
        send(new Message.CloseStatement(statementId));
        Message m = receive(null);
        switch (m) {
            case Message.Closed c -> {
            }
            case Message.Error e -> throw Errors.fromServer(e);
            default -> throw protocolViolation("expected CLOSED, got " + Protocol.messageName(m.type()));
        }
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        throw Errors.unsupported("CallableStatement (stored procedures)");
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkOpen();
        return sql;
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        if (!autoCommit) {
            throw Errors.unsupported("Transactions (auto-commit off)");
        }
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return true;
    }

    @Override
    public void commit() throws SQLException {
        checkOpen();
        throw Errors.unsupported("commit (there are no transactions; every statement commits itself)");
    }

    @Override
    public void rollback() throws SQLException {
        checkOpen();
        throw Errors.unsupported("rollback (there are no transactions)");
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        if (busy) {
            // another thread is blocked reading: closing the socket is the only way to stop it
            closed = true;
            closeQuietly(socket);
            return;
        }
        try {
            if (broken == null) {
                try {
                    closeOpenResult();
                } catch (SQLException ignored) {
                    // closing anyway
                }
                if (broken == null) {
                    send(new Message.Terminate());
                }
            }
        } catch (SQLException ignored) {
            // the goodbye is a courtesy
        } finally {
            closed = true;
            openResult = null;
            closeQuietly(socket);
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        if (metaData == null) {
            metaData = new LocusDatabaseMetaData(this);
        }
        return metaData;
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        if (readOnly) {
            throw Errors.unsupported("Read-only connections");
        }
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen(); // LocusDB has no catalogs: ignored, as the JDBC specification asks
    }

    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        if (level != TRANSACTION_NONE) {
            throw Errors.unsupported("Transaction isolation level " + level);
        }
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        return TRANSACTION_NONE;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings.first();
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        warnings.clear();
    }

    void addWarning(SQLWarning w) {
        warnings.add(w);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency, ResultSet.HOLD_CURSORS_OVER_COMMIT);
        return createStatement();
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency, ResultSet.HOLD_CURSORS_OVER_COMMIT);
        return prepareStatement(sql);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        throw Errors.unsupported("CallableStatement (stored procedures)");
    }

    static void checkResultSetKind(int type, int concurrency, int holdability) throws SQLException {
        if (type != ResultSet.TYPE_FORWARD_ONLY) {
            throw Errors.unsupported("Scrollable result sets");
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY) {
            throw Errors.unsupported("Updatable result sets");
        }
        if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT && holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT) {
            throw new SQLException("invalid holdability " + holdability, Errors.INVALID_PARAMETER);
        }
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkOpen();
        return new java.util.HashMap<>();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        checkOpen();
        if (map != null && !map.isEmpty()) {
            throw Errors.unsupported("Type maps (user-defined types)");
        }
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT) {
            throw Errors.unsupported("Holdability " + holdability + " (there are no transactions to commit)");
        }
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        throw Errors.unsupported("Savepoints");
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        throw Errors.unsupported("Savepoints");
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        throw Errors.unsupported("Savepoints");
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        throw Errors.unsupported("Savepoints");
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency, resultSetHoldability);
        return createStatement();
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
                                              int resultSetHoldability) throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency, resultSetHoldability);
        return prepareStatement(sql);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
                                         int resultSetHoldability) throws SQLException {
        throw Errors.unsupported("CallableStatement (stored procedures)");
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        if (autoGeneratedKeys != Statement.NO_GENERATED_KEYS) {
            throw Errors.unsupported("Generated keys");
        }
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        throw Errors.unsupported("Generated keys");
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        throw Errors.unsupported("Generated keys");
    }

    @Override
    public Clob createClob() throws SQLException {
        throw Errors.unsupported("CLOB");
    }

    @Override
    public Blob createBlob() throws SQLException {
        throw Errors.unsupported("BLOB");
    }

    @Override
    public NClob createNClob() throws SQLException {
        throw Errors.unsupported("NCLOB");
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        throw Errors.unsupported("SQLXML");
    }

    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (timeout < 0) {
            throw new SQLException("timeout " + timeout + " is negative", Errors.INVALID_PARAMETER);
        }
        if (closed || broken != null) {
            return false;
        }
        if (openResult != null) {
            // batches of the open result are in flight; a PONG would queue behind them
            return true;
        }
        try {
            int previous = socket.getSoTimeout();
            socket.setSoTimeout(timeout * 1000);
            try {
                send(new Message.Ping());
                Message m = receive(null);
                return m instanceof Message.Pong;
            } finally {
                if (broken == null) {
                    socket.setSoTimeout(previous);
                }
            }
        } catch (SQLException | IOException e) {
            markBroken("no answer to PING: " + e.getMessage());
            return false;
        }
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        if (closed) {
            throw new SQLClientInfoException("the connection is closed", Errors.CONNECTION_NOT_OPEN, null);
        }
        if (value == null) {
            clientInfo.remove(name);
        } else {
            clientInfo.setProperty(name, value);
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        if (closed) {
            throw new SQLClientInfoException("the connection is closed", Errors.CONNECTION_NOT_OPEN, null);
        }
        clientInfo.clear();
        if (properties != null) {
            clientInfo.putAll(properties);
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        return clientInfo.getProperty(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        Properties copy = new Properties();
        copy.putAll(clientInfo);
        return copy;
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        throw Errors.unsupported("ARRAY");
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        throw Errors.unsupported("STRUCT");
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen(); // LocusDB has no schemas: ignored, as the JDBC specification asks
    }

    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        if (executor == null) {
            throw new SQLException("executor is null", Errors.INVALID_PARAMETER);
        }
        if (closed) {
            return;
        }
        closed = true;
        executor.execute(() -> closeQuietly(socket));
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        checkOpen();
        if (milliseconds < 0) {
            throw new SQLException("network timeout " + milliseconds + " is negative", Errors.INVALID_PARAMETER);
        }
        try {
            socket.setSoTimeout(milliseconds);
        } catch (IOException e) {
            throw lost(e);
        }
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        checkOpen();
        try {
            return socket.getSoTimeout();
        } catch (IOException e) {
            throw lost(e);
        }
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Errors.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    /** The server's version from READY. */
    public String serverVersion() {
        return ready == null ? null : ready.serverVersion();
    }

    static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }
}
