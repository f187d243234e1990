package io.locusdb.server.net;

import io.locusdb.protocol.ColumnDescription;
import io.locusdb.protocol.DecodedBatch;
import io.locusdb.protocol.FrameReader;
import io.locusdb.protocol.Message;
import io.locusdb.protocol.MessageCodec;
import io.locusdb.protocol.Protocol;
import io.locusdb.protocol.WireType;
import io.locusdb.protocol.WireWriter;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/** A blocking test client speaking protocol v1 frame by frame over a plain (or TLS) socket, with the shared codec. */
final class RawClient implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final FrameReader reader;
    private List<ColumnDescription> columns;

    private RawClient(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
        this.reader = new FrameReader(in, Integer.MAX_VALUE);
    }

    static RawClient connect(int port) throws IOException {
        return connect(port, 0);
    }

    /** With a small receive buffer ({@code receiveBufferBytes} > 0), so that a client that does not read stalls soon. */
    static RawClient connect(int port, int receiveBufferBytes) throws IOException {
        Socket s = new Socket();
        if (receiveBufferBytes > 0) {
            s.setReceiveBufferSize(receiveBufferBytes);
        }
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(15_000);
        s.setTcpNoDelay(true);
        return new RawClient(s);
    }

    static RawClient connectTls(int port, SSLContext context) throws IOException {
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
        s.setSoTimeout(15_000);
        s.startHandshake();
        return new RawClient(s);
    }

    Socket socket() {
        return socket;
    }

    InputStream in() {
        return in;
    }

    RawClient preamble() throws IOException {
        return sendBytes(Protocol.preamble());
    }

    RawClient send(Message m) throws IOException {
        WireWriter w = new WireWriter();
        MessageCodec.write(w, m);
        return sendBytes(w.toByteArray());
    }

    RawClient sendBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Preamble + STARTUP (trust mode or the given credentials), expecting READY. */
    Message.Ready startup() throws IOException {
        return startup("tester", "", "");
    }

    Message.Ready startup(String user, String password, String token) throws IOException {
        preamble().send(new Message.Startup(user, password, token, "", "raw-test"));
        return expect(Message.Ready.class);
    }

    Message read() throws IOException {
        int type = reader.next();
        Message m = MessageCodec.read(type, reader.reader(), columns);
        if (m instanceof Message.ResultHeader h) {
            columns = h.columns();
        } else if (m instanceof Message.ResultEnd
                || m instanceof Message.Error e && !e.sqlState().equals("55000")) {
            // 55000 refuses a request sent while a result is open; that result goes on.
            columns = null;
        }
        return m;
    }

    /** The next message that is not a PONG or NOTICE, which must be of {@code type}. */
    <T extends Message> T expect(Class<T> type) throws IOException {
        Message m = read();
        if (!type.isInstance(m)) {
            throw new AssertionError("expected " + type.getSimpleName() + " but got " + m);
        }
        return type.cast(m);
    }

    Message.Error expectError(String sqlState) throws IOException {
        Message.Error e = expect(Message.Error.class);
        if (!e.sqlState().equals(sqlState)) {
            throw new AssertionError("expected ERROR " + sqlState + " but got " + e);
        }
        return e;
    }

    Result query(String sql) throws IOException {
        return send(new Message.Query(sql, 0, 1_000_000, 0)).result();
    }

    Message.Prepared prepare(String sql) throws IOException {
        return send(new Message.Prepare(sql)).expect(Message.Prepared.class);
    }

    Result execute(int statementId, Object... parameters) throws IOException {
        return send(new Message.Execute(statementId, Arrays.asList(parameters), 0, 1_000_000, 0)).result();
    }

    /** Reads one whole answer: RESULT_HEADER, BATCHes, then RESULT_END or ERROR (or just an ERROR). */
    Result result() throws IOException {
        Message.ResultHeader header = null;
        List<DecodedBatch> batches = new ArrayList<>();
        while (true) {
            Message m = read();
            switch (m) {
                case Message.ResultHeader h -> header = h;
                case Message.Batch b -> batches.add(b.batch());
                case Message.ResultEnd e -> {
                    return new Result(header, batches, e, null);
                }
                case Message.Error e -> {
                    return new Result(header, batches, null, e);
                }
                case Message.Pong p -> {
                }
                case Message.Notice n -> {
                }
                default -> throw new AssertionError("unexpected " + m);
            }
        }
    }

    /** Reads and drops frames until the server closes the connection; false if it is still open after {@code wait}. */
    boolean closedByServer(Duration wait) throws IOException {
        long end = System.nanoTime() + wait.toNanos();
        socket.setSoTimeout((int) Math.max(1, wait.toMillis()));
        byte[] sink = new byte[8192];
        try {
            while (System.nanoTime() < end) {
                if (in.read(sink) < 0) {
                    return true;
                }
            }
            return false;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException | EOFException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** A received answer; values are Java values (Long, BigDecimal, Double, String, LocalDate, Boolean, null). */
    record Result(Message.ResultHeader header, List<DecodedBatch> batches, Message.ResultEnd end,
                  Message.Error error) {
        List<List<Object>> rows() {
            if (error != null) {
                throw new AssertionError("the statement failed: " + error);
            }
            List<List<Object>> rows = new ArrayList<>();
            for (DecodedBatch b : batches) {
                for (int r = 0; r < b.rows(); r++) {
                    List<Object> row = new ArrayList<>();
                    for (DecodedBatch.Column c : b.columns()) {
                        row.add(value(c, r));
                    }
                    rows.add(row);
                }
            }
            return rows;
        }

        Object single() {
            List<List<Object>> rows = rows();
            if (rows.size() != 1 || rows.getFirst().size() != 1) {
                throw new AssertionError("expected one value, got " + rows);
            }
            return rows.getFirst().getFirst();
        }

        static Object value(DecodedBatch.Column c, int r) {
            if (c.isNull(r)) {
                return null;
            }
            return switch (c.type().tag()) {
                case WireType.BOOLEAN -> c.longs()[r] != 0;
                case WireType.INTEGER, WireType.BIGINT -> c.longs()[r];
                case WireType.DECIMAL -> BigDecimal.valueOf(c.longs()[r], c.type().scale());
                case WireType.DATE -> LocalDate.ofEpochDay(c.longs()[r]);
                case WireType.DOUBLE -> c.doubles()[r];
                default -> c.strings()[r];
            };
        }
    }
}
