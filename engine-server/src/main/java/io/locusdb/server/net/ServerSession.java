package io.locusdb.server.net;

import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.protocol.ColumnDescription;
import io.locusdb.protocol.Message;
import io.locusdb.protocol.WireType;
import io.locusdb.protocol.WireWriter;
import io.micrometer.core.instrument.Timer;
import io.netty.channel.ChannelFuture;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One authenticated connection's session: its prepared statements and the result it streams. Requests run in
 * arrival order on the session's {@link StatementQueue}; "a result is open" is decided in arrival order too (set by
 * the event loop when EXECUTE, QUERY or METADATA arrives, cleared before the result's last frame is written), so a
 * pipelining client sees the same answers as a waiting one.
 */
final class ServerSession implements ClientSession {
    private static final System.Logger LOG = System.getLogger(ServerSession.class.getName());
    /** Requests waiting in the queue before the connection stops reading (pipelining backpressure). */
    private static final int MAX_QUEUED = 32;
    /** A batch buffer grown beyond this by a wide result is dropped afterwards rather than kept for the session. */
    private static final int KEPT_WRITER_BYTES = 1 << 20;
    /** The initial credit of a METADATA answer, which has no fetch field. */
    static final int METADATA_CREDIT = 2;

    private final long id;
    private final long cancelKey;
    private final String user;
    private final ServerContext ctx;
    private final Outbound out;
    private final Session engine;
    private final StatementQueue queue;
    /** Asks the connection to decide again whether it reads (on its event loop); see {@link #backlogged}. */
    private final Runnable readingChanged;
    /** Too many requests wait: the connection does not read. Written on the event loop only. */
    private volatile boolean backlogged;
    private final Map<Integer, PreparedQuery> statements = new HashMap<>();
    private int nextStatementId = 1;
    private WireWriter batchWriter = new WireWriter(8192);
    private volatile ResultStream open;
    private volatile long lastActivityNanos = System.nanoTime();
    private volatile boolean closed;

    ServerSession(long id, long cancelKey, String user, ServerContext ctx, Outbound out, Runnable readingChanged) {
        this.readingChanged = readingChanged;
        this.id = id;
        this.cancelKey = cancelKey;
        this.user = user;
        this.ctx = ctx;
        this.out = out;
        this.engine = ctx.db().connect();
        this.queue = new StatementQueue("locus-session-" + id, this::taskDone);
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public long cancelKey() {
        return cancelKey;
    }

    @Override
    public void shutdownNotice(String message) {
        out.send(new Message.Notice("57P01", message));
    }

    String user() {
        return user;
    }

    Outbound out() {
        return out;
    }

    long lastActivityNanos() {
        return lastActivityNanos;
    }

    /** A statement runs, a result is open or requests wait: the session is not idle. */
    @Override
    public boolean busy() {
        return open != null || !queue.idle();
    }

    // ---- event loop side

    /** PREPARE, EXECUTE, QUERY, CLOSE_STATEMENT or METADATA. */
    void request(Message m) {
        if (open != null) {
            out.error("55000", "a result is open: only FETCH, CANCEL, CLOSE_RESULT, PING and TERMINATE are"
                    + " accepted until it ends");
            return;
        }
        Runnable task = switch (m) {
            case Message.Prepare p -> () -> prepare(p);
            case Message.CloseStatement c -> () -> closeStatement(c);
            case Message.Execute e -> openResult(e.fetchBatches(), e.maxRows(), e.timeoutMillis(), () -> execute(e));
            case Message.Query q -> openResult(q.fetchBatches(), q.maxRows(), q.timeoutMillis(),
                    () -> engine.execute(q.sql(), ctx.executionOptions()));
            // METADATA carries no credit of its own (docs/protocol.md).
            case Message.Metadata md -> openResult(METADATA_CREDIT, 0, 0,
                    () -> MetadataResults.answer(ctx.db().catalog(), md));
            default -> throw new IllegalArgumentException("not a session request: " + m);
        };
        queue.submit(task);
        readingChanged.run();
    }

    /**
     * Event loop: whether so many requests wait that the connection should stop reading. Set when {@link #MAX_QUEUED}
     * wait, cleared when half of them ran. The flag is set before the queue is looked at again, and the statement
     * thread looks at the flag after the queue shrank ({@link #taskDone}), so one of the two always sees the queue
     * drained: reading is never left off with an empty queue.
     */
    boolean backlogged() {
        if (!backlogged) {
            if (queue.pending() < MAX_QUEUED) {
                return false;
            }
            backlogged = true;
        }
        if (queue.pending() <= MAX_QUEUED / 2) {
            backlogged = false;
        }
        return backlogged;
    }

    private Runnable openResult(int fetchBatches, int maxRows, int timeoutMillis, Supplier<QueryResult> start) {
        ResultStream stream = new ResultStream(fetchBatches, maxRows, timeoutMillis);
        open = stream;
        return () -> runResult(stream, start);
    }

    void addCredit(int batches) {
        ResultStream r = open;
        if (r != null) {
            r.addCredit(batches);
        }
    }

    /** CANCEL, CLOSE_RESULT, a CANCEL_REQUEST or shutdown; does nothing when no result is open. */
    @Override
    public void stopResult(ResultStream.Stop reason) {
        ResultStream r = open;
        if (r != null) {
            r.stop(reason);
        }
    }

    void wake() {
        ResultStream r = open;
        if (r != null) {
            r.wake();
        }
    }

    /** The connection is gone: the open result is cancelled, waiting requests dropped, the slot given back. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        queue.close();
        stopResult(ResultStream.Stop.DISCONNECT);
        ctx.sessions().remove(this);
        ctx.sessions().release();
        ctx.metrics().sessionClosed();
        engine.close();
    }

    private void taskDone() {
        lastActivityNanos = System.nanoTime();
        if (backlogged && !closed && queue.pending() <= MAX_QUEUED / 2) {
            readingChanged.run();
        }
    }

    // ---- statement thread side

    private void prepare(Message.Prepare p) {
        if (closed) {
            return;
        }
        try {
            refuseWhileDraining();
            if (statements.size() >= ctx.config().maxStatementsPerSession()) {
                throw new RequestException("54000", "statement limit reached: this session has "
                        + statements.size() + " prepared statements (max-statements); close some first");
            }
            PreparedQuery prepared = engine.prepare(p.sql());
            int statementId = nextStatementId();
            statements.put(statementId, prepared);
            out.send(new Message.Prepared(statementId, prepared.parameterCount(),
                    WireTypes.describe(prepared.columns())));
        } catch (RuntimeException | Error e) {
            // Every failure is answered (an Error too: otherwise the client waits for ever). A disconnect closes
            // the engine session under a running PREPARE: nobody is left to answer.
            if (!closed) {
                out.send(ErrorMapping.toError(e));
            }
        }
    }

    private int nextStatementId() {
        while (statements.containsKey(nextStatementId) || nextStatementId <= 0) {
            nextStatementId = nextStatementId <= 0 ? 1 : nextStatementId + 1;
        }
        return nextStatementId++;
    }

    private void closeStatement(Message.CloseStatement c) {
        if (!closed) {
            statements.remove(c.statementId());
            out.send(new Message.Closed(c.statementId()));
        }
    }

    private QueryResult execute(Message.Execute e) {
        PreparedQuery prepared = statements.get(e.statementId());
        if (prepared == null) {
            throw new RequestException("26000", "no prepared statement " + e.statementId() + " in this session");
        }
        if (e.parameters().size() != prepared.parameterCount()) {
            throw new RequestException("22023", "the statement has " + prepared.parameterCount()
                    + " parameter(s), " + e.parameters().size() + " given");
        }
        prepared.clearParameters();
        for (int i = 0; i < e.parameters().size(); i++) {
            prepared.set(i + 1, e.parameters().get(i));
        }
        return prepared.execute(ctx.executionOptions());
    }

    private void refuseWhileDraining() {
        if (ctx.isDraining()) {
            throw new RequestException("57P01", "the server is shutting down");
        }
    }

    private void runResult(ResultStream r, Supplier<QueryResult> start) {
        if (closed) {
            open = null;
            return;
        }
        Timer.Sample sample = ctx.metrics().queryStarted();
        r.attach(Thread.currentThread());
        ScheduledFuture<?> timer = r.timeoutMillis <= 0 ? null : out.channel().eventLoop()
                .schedule(() -> r.stop(ResultStream.Stop.TIMEOUT), r.timeoutMillis, TimeUnit.MILLISECONDS);
        Streamed streamed = new Streamed();
        Message last = null;
        QueryResult result = null;
        try {
            refuseWhileDraining();
            if (r.initialCreditMissing()) {
                throw new RequestException("22023", "fetch batches must be at least 1");
            }
            result = start.get();
            if (!result.hasRows()) {
                out.send(new Message.ResultHeader(false, List.of()));
                streamed.headerSent = true;
                last = new Message.ResultEnd(result.updateCount(), 0, false);
            } else {
                List<ColumnDescription> columns = WireTypes.describe(result.columns());
                out.send(new Message.ResultHeader(true, columns));
                streamed.headerSent = true;
                last = stream(r, result, columns, streamed);
            }
        } catch (Throwable e) {
            if (r.stopReason() == null && !closed) {
                last = ErrorMapping.toError(e);
            } else if (!(e instanceof InterruptedException) && !(e instanceof RuntimeException)) {
                LOG.log(System.Logger.Level.WARNING, "session " + id + ": statement stopped with", e);
            }
        } finally {
            if (timer != null) {
                timer.cancel(false);
            }
            r.finish();
            settlePendingWrite(streamed.pending);
            if (result != null) {
                try {
                    result.close();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "closing a result failed", e);
                }
            }
        }
        if (last == null) {
            last = stopped(r, streamed);
        }
        lastActivityNanos = System.nanoTime();
        open = null;
        if (last != null) {
            out.send(last);
        }
        ctx.metrics().queryFinished(sample);
    }

    /** Encoded batches up to this size are sent as copies, without waiting for the write. */
    private static final int COPIED_BATCH_BYTES = 16 * 1024;

    /** Rows sent so far and the batch write in flight, for the cleanup after a stop. */
    private static final class Streamed {
        long rows;
        boolean headerSent;
        ChannelFuture pending;
    }

    private Message stream(ResultStream r, QueryResult result, List<ColumnDescription> columns, Streamed streamed)
            throws InterruptedException {
        List<WireType> types = columns.stream().map(ColumnDescription::type).toList();
        int maxFrame = ctx.config().maxFrameBytes();
        // The next batch is pulled as soon as the last one is sent, so the end of a result is seen (and RESULT_END
        // sent) without waiting for credit; with no credit left, that one unencoded batch waits.
        ResultBatch batch = result.nextBatch();
        int offset = 0;
        while (batch != null) {
            if (!r.awaitSendable(out.channel()::isWritable)) {
                return null;
            }
            int wanted = batch.rows() - offset;
            if (r.maxRows > 0) {
                wanted = (int) Math.min(wanted, r.maxRows - streamed.rows);
            }
            int written = BatchFrames.encode(batchWriter, batch, types, offset, wanted, maxFrame);
            if (batchWriter.size() <= COPIED_BATCH_BYTES) {
                // A small batch (a lookup's row, an aggregate) is copied and not waited for: waking this thread
                // when the event loop has written it would cost more than the copy. A failed write closes the
                // channel, which the next batch or the end of the result finds.
                out.sendCopy(batchWriter);
            } else {
                ChannelFuture write = out.sendFrames(batchWriter);
                streamed.pending = write;
                write.await();
                streamed.pending = null;
                if (!write.isSuccess()) {
                    r.stop(ResultStream.Stop.DISCONNECT);
                    return null;
                }
            }
            offset += written;
            streamed.rows += written;
            if (r.maxRows > 0 && streamed.rows >= r.maxRows) {
                boolean more = offset < batch.rows() || result.nextBatch() != null;
                return new Message.ResultEnd(-1, streamed.rows, more);
            }
            if (offset >= batch.rows()) {
                batch = result.nextBatch();
                offset = 0;
            }
        }
        return new Message.ResultEnd(-1, streamed.rows, false);
    }

    /** The batch buffer is still Netty's until its write completes; if that takes too long, it is left to Netty. */
    private void settlePendingWrite(ChannelFuture pending) {
        if (pending != null && !pending.awaitUninterruptibly(2000)) {
            batchWriter = new WireWriter(8192);
        } else if (batchWriter.array().length > KEPT_WRITER_BYTES) {
            batchWriter = new WireWriter(8192);
        }
    }

    private Message stopped(ResultStream r, Streamed streamed) {
        ResultStream.Stop stop = r.stopReason();
        if (stop == null) {
            return null;
        }
        return switch (stop) {
            // A RESULT_END needs a RESULT_HEADER before it; a result closed before it had one was cancelled.
            case CLOSE_RESULT -> streamed.headerSent ? new Message.ResultEnd(-1, streamed.rows, true)
                    : new Message.Error("57014", "statement cancelled: its result was closed before it started", 0,
                    0);
            case CANCEL -> new Message.Error("57014", "statement cancelled", 0, 0);
            case TIMEOUT -> new Message.Error("57014", "query timed out after " + r.timeoutMillis + " ms", 0, 0);
            case SHUTDOWN -> new Message.Error("57P01", "statement cancelled: the server is shutting down", 0, 0);
            case DISCONNECT -> null;
        };
    }
}
