package io.locusdb.jdbc;

import io.locusdb.protocol.BatchEncoder;
import io.locusdb.protocol.ColumnDescription;
import io.locusdb.protocol.FrameReader;
import io.locusdb.protocol.Message;
import io.locusdb.protocol.MessageCodec;
import io.locusdb.protocol.Protocol;
import io.locusdb.protocol.WireType;
import io.locusdb.protocol.WireWriter;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A scripted LocusDB server for driver tests: a ServerSocket on 127.0.0.1 that speaks protocol v1 through the
 * shared codec and answers with canned results. It honours flow control like the real server (never more BATCH
 * frames than the credit granted) and records every client message, the batches it sent and the credit granted.
 */
final class FakeServer implements AutoCloseable {
    static final long SESSION_ID = 42;
    static final long CANCEL_KEY = 4242;

    /** What the server does when a statement runs: QUERY (params empty) or EXECUTE of a prepared statement. */
    interface Answer {
        void answer(Session session, Run run) throws IOException;
    }

    record Run(String sql, List<Object> parameters, int maxRows, int fetchBatches, int timeoutMillis) {
    }

    record Prepared(int parameterCount, List<ColumnDescription> columns, Answer answer) {
    }

    final List<Message> received = new CopyOnWriteArrayList<>();
    final List<Message.CancelRequest> cancelRequests = new CopyOnWriteArrayList<>();
    final AtomicInteger batchesSent = new AtomicInteger();
    final AtomicInteger creditGranted = new AtomicInteger();
    final AtomicInteger connections = new AtomicInteger();
    final Map<String, Answer> queries = new ConcurrentHashMap<>();
    final Map<String, Prepared> preparable = new ConcurrentHashMap<>();
    volatile Function<Message.Startup, Message> onStartup = s -> new Message.Ready(SESSION_ID, CANCEL_KEY,
            "0.1.0-fake", Protocol.DEFAULT_MAX_FRAME_BYTES, 1024);
    volatile List<Object[]> tables = List.of();
    volatile List<Object[]> columnsOfTables = List.of();
    /** Called with every session's cancel request (the real server cancels the running statement). */
    final List<Session> sessions = new CopyOnWriteArrayList<>();

    private final ServerSocket server;
    private final Thread acceptor;
    private volatile boolean closed;

    FakeServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofPlatform().daemon().name("fake-locus-accept").start(this::acceptLoop);
    }

    int port() {
        return server.getLocalPort();
    }

    String url() {
        return "jdbc:locusdb://127.0.0.1:" + port() + "/";
    }

    <T extends Message> List<T> received(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (Message m : received) {
            if (type.isInstance(m)) {
                out.add(type.cast(m));
            }
        }
        return out;
    }

    /** Waits (up to 5 s) until {@code count} messages of {@code type} arrived: the server reads asynchronously. */
    <T extends Message> List<T> await(Class<T> type, int count) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (received(type).size() < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return received(type);
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
                connections.incrementAndGet();
                Thread.ofPlatform().daemon().name("fake-locus-session").start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            Session session = new Session(socket);
            sessions.add(session);
            session.run();
        } catch (IOException e) {
            // the client went away
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Session s : sessions) {
            s.socket.close();
        }
    }

    /** One client connection. */
    final class Session {
        final Socket socket;
        private final DataInputStream in;
        private final OutputStream out;
        private final FrameReader reader;
        private final WireWriter writer = new WireWriter();
        private final Map<Integer, Prepared> statements = new ConcurrentHashMap<>();
        private final Map<Integer, String> statementSql = new ConcurrentHashMap<>();
        private int nextId = 1;
        /** Set when a CANCEL_REQUEST for this session arrives on another connection. */
        volatile boolean cancelled;

        Session(Socket socket) throws IOException {
            this.socket = socket;
            socket.setTcpNoDelay(true); // as the real server: without it, Nagle + delayed ACKs stall small frames
            this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            this.out = new BufferedOutputStream(socket.getOutputStream());
            this.reader = new FrameReader(in, Protocol.DEFAULT_MAX_FRAME_BYTES);
        }

        void run() throws IOException {
            byte[] preamble = new byte[Protocol.PREAMBLE_BYTES];
            in.readFully(preamble);
            Protocol.checkPreamble(preamble);
            Message first = read();
            if (first instanceof Message.CancelRequest c) {
                cancelRequests.add(c);
                for (Session s : sessions) {
                    if (c.sessionId() == SESSION_ID && c.cancelKey() == CANCEL_KEY) {
                        s.cancelled = true;
                    }
                }
                return; // closed without a reply
            }
            Message answer = onStartup.apply((Message.Startup) first);
            send(answer);
            if (!(answer instanceof Message.Ready)) {
                return;
            }
            while (true) {
                Message m = read();
                switch (m) {
                    case Message.Terminate t -> {
                        return;
                    }
                    case Message.Ping p -> send(new Message.Pong());
                    case Message.Query q -> {
                        Answer a = queries.get(q.sql());
                        if (a == null) {
                            send(new Message.Error("42000", "fake server: no answer for " + q.sql(), 0, 0));
                        } else {
                            a.answer(this, new Run(q.sql(), List.of(), q.maxRows(), q.fetchBatches(),
                                    q.timeoutMillis()));
                        }
                    }
                    case Message.Prepare p -> {
                        Prepared spec = preparable.get(p.sql());
                        if (spec == null) {
                            send(new Message.Error("42P01", "table \"nowhere\" does not exist", 1, 15));
                        } else {
                            int id = nextId++;
                            statements.put(id, spec);
                            statementSql.put(id, p.sql());
                            send(new Message.Prepared(id, spec.parameterCount(), spec.columns()));
                        }
                    }
                    case Message.Execute e -> {
                        Prepared spec = statements.get(e.statementId());
                        if (spec == null) {
                            send(new Message.Error("26000", "no statement " + e.statementId(), 0, 0));
                        } else {
                            spec.answer().answer(this, new Run(statementSql.get(e.statementId()), e.parameters(),
                                    e.maxRows(), e.fetchBatches(), e.timeoutMillis()));
                        }
                    }
                    case Message.CloseStatement c -> {
                        statements.remove(c.statementId());
                        send(new Message.Closed(c.statementId()));
                    }
                    case Message.Metadata md -> {
                        if (md.what() == Message.Metadata.TABLES) {
                            stream(List.of(varchar("table_name"), varchar("table_type"), varchar("remarks")),
                                    tables, 100, 2);
                        } else {
                            stream(List.of(varchar("table_name"), varchar("column_name"), integer("ordinal"),
                                    varchar("type_name"), integer("type_tag"), integer("precision"),
                                    integer("scale"), integer("length"), bool("nullable")),
                                    columnsOfTables, 100, 2);
                        }
                    }
                    default -> {
                        // FETCH, CANCEL, CLOSE_RESULT with no result open: nothing to do
                    }
                }
            }
        }

        Message read() throws IOException {
            int type = reader.next();
            Message m = MessageCodec.read(type, reader.reader(), null);
            received.add(m);
            return m;
        }

        void send(Message m) throws IOException {
            writer.clear();
            MessageCodec.write(writer, m);
            out.write(writer.array(), 0, writer.size());
            out.flush();
        }

        /** Raw bytes, for protocol-violation tests. */
        void sendRaw(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        void sendBatch(List<ColumnDescription> columns, List<Object[]> rows) throws IOException {
            writer.clear();
            encodeBatch(writer, columns, rows);
            out.write(writer.array(), 0, writer.size());
            out.flush();
            batchesSent.incrementAndGet();
        }

        /**
         * A row result as the real server sends it: RESULT_HEADER, then BATCH frames of {@code rowsPerBatch} rows
         * within the credit, waiting for FETCH when it is used up; CLOSE_RESULT ends it early (truncated), CANCEL
         * or a cancel request with an ERROR 57014.
         */
        void stream(List<ColumnDescription> columns, List<Object[]> rows, int rowsPerBatch, int credit)
                throws IOException {
            creditGranted.addAndGet(credit);
            send(new Message.ResultHeader(true, columns));
            int sent = 0;
            while (sent < rows.size()) {
                while (credit == 0) {
                    Message m = read();
                    switch (m) {
                        case Message.Fetch f -> {
                            credit += f.batches();
                            creditGranted.addAndGet(f.batches());
                        }
                        case Message.CloseResult c -> {
                            send(new Message.ResultEnd(-1, sent, true));
                            return;
                        }
                        case Message.Cancel c -> {
                            send(new Message.Error("57014", "canceling statement due to user request", 0, 0));
                            return;
                        }
                        case Message.Ping p -> send(new Message.Pong());
                        default -> send(new Message.Error("55000", "a result is open", 0, 0));
                    }
                }
                int n = Math.min(rowsPerBatch, rows.size() - sent);
                sendBatch(columns, rows.subList(sent, sent + n));
                sent += n;
                credit--;
            }
            send(new Message.ResultEnd(-1, sent, false));
        }

        void updateCount(long count) throws IOException {
            send(new Message.ResultHeader(false, List.of()));
            send(new Message.ResultEnd(count, 0, false));
        }
    }

    static ColumnDescription varchar(String name) {
        return new ColumnDescription(name, WireType.varchar(0), true);
    }

    static ColumnDescription integer(String name) {
        return new ColumnDescription(name, WireType.of(WireType.INTEGER), true);
    }

    static ColumnDescription bool(String name) {
        return new ColumnDescription(name, WireType.of(WireType.BOOLEAN), true);
    }

    static Object[] row(Object... values) {
        return values;
    }

    /** A BATCH frame of Java values (Boolean, Integer/Long, Double, BigDecimal, LocalDate, String, null). */
    static void encodeBatch(WireWriter w, List<ColumnDescription> columns, List<Object[]> rows) {
        int n = rows.size();
        BatchEncoder.begin(w, n);
        for (int c = 0; c < columns.size(); c++) {
            WireType type = columns.get(c).type();
            boolean[] nulls = new boolean[n];
            for (int r = 0; r < n; r++) {
                nulls[r] = rows.get(r)[c] == null;
            }
            BatchEncoder.nulls(w, nulls, 0, n);
            final int col = c;
            switch (type.tag()) {
                case WireType.DOUBLE -> {
                    double[] v = new double[n];
                    for (int r = 0; r < n; r++) {
                        v[r] = nulls[r] ? 0 : ((Number) rows.get(r)[c]).doubleValue();
                    }
                    BatchEncoder.doubles(w, v, nulls, 0, n);
                }
                case WireType.VARCHAR, WireType.CHAR ->
                        BatchEncoder.strings(w, r -> (String) rows.get(r)[col], nulls, 0, n);
                default -> {
                    long[] v = new long[n];
                    for (int r = 0; r < n; r++) {
                        Object o = rows.get(r)[c];
                        v[r] = switch (o) {
                            case null -> 0;
                            case Boolean b -> b ? 1 : 0;
                            case BigDecimal d -> d.setScale(type.scale(), RoundingMode.UNNECESSARY).unscaledValue()
                                    .longValueExact();
                            case LocalDate d -> d.toEpochDay();
                            default -> ((Number) o).longValue();
                        };
                    }
                    BatchEncoder.longs(w, type, v, nulls, 0, n);
                }
            }
        }
        w.endFrame();
    }
}
