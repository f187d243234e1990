package io.locusdb.server.net;

import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.protocol.Message;
import io.locusdb.server.pg.PgCommand;
import io.locusdb.server.pg.PgCommandTags;
import io.locusdb.server.pg.PgCopy;
import io.locusdb.server.pg.PgCopyIn;
import io.locusdb.server.pg.PgCopyOut;
import io.locusdb.server.pg.PgDataException;
import io.locusdb.server.pg.PgDialect;
import io.locusdb.server.pg.PgFrontendMessage;
import io.locusdb.server.pg.PgSettings;
import io.locusdb.server.pg.PgSqlText;
import io.locusdb.server.pg.PgType;
import io.locusdb.server.pg.PgValueWriter;
import io.locusdb.server.pg.PgWriter;
import io.micrometer.core.instrument.Timer;
import io.netty.channel.Channel;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One PostgreSQL-protocol session: the simple query protocol (several statements per message), the extended one
 * (named and unnamed statements and portals, row limits with PortalSuspended, errors skipping to Sync), session
 * commands (transaction control, SET/SHOW/RESET, pool clean-up) and COPY. Messages run one at a time in arrival
 * order on the session's {@link StatementQueue}; output collects in one buffer that is flushed at ReadyForQuery,
 * Flush, and whenever it grows past {@link #FLUSH_BYTES} while rows stream (waiting while the peer does not read).
 *
 * <p>LocusDB commits every statement when it runs. A transaction block is tracked for ReadyForQuery (idle, in a
 * block, failed block) and its rules (statements in a failed block are refused until ROLLBACK), and a ROLLBACK of a
 * block that changed data warns that the changes were already committed rather than pretend to undo them.
 */
final class PgServerSession implements ClientSession {
    private static final System.Logger LOG = System.getLogger(PgServerSession.class.getName());
    /** Output gathered before it is written while rows stream. */
    private static final int FLUSH_BYTES = 64 * 1024;
    /** Messages waiting before the connection stops reading (a pipelining client sends many small ones). */
    private static final int MAX_QUEUED = 512;

    private final int processId;
    private final int secretKey;
    private final String user;
    private final String database;
    private final ServerContext ctx;
    private final Channel channel;
    private final Session engine;
    private final StatementQueue queue;
    private final Runnable readingChanged;
    private final PgSettings settings;
    private final PgDialect functions;
    private final Map<String, PgPreparedStatement> statements = new HashMap<>();
    private final Map<String, PgPortal> portals = new HashMap<>();
    private volatile boolean backlogged;
    private volatile boolean closed;
    private volatile ResultStream running;
    private volatile long lastActivityNanos = System.nanoTime();
    private PgWriter out;
    private char transaction = 'I';
    private boolean changedInBlock;
    private boolean skipToSync;
    private PgCopyIn copyIn;

    PgServerSession(int processId, int secretKey, String user, String database, ServerContext ctx, Channel channel,
                    PgSettings settings, Runnable readingChanged) {
        this.processId = processId;
        this.secretKey = secretKey;
        this.user = user;
        this.database = database;
        this.ctx = ctx;
        this.channel = channel;
        this.settings = settings;
        this.readingChanged = readingChanged;
        this.engine = ctx.db().connect();
        settings.onTimeZone(engine::timeZone);
        this.functions = new PgDialect(user, database, processId, settings);
        this.queue = new StatementQueue("locus-pg-" + processId, this::taskDone);
        this.out = new PgWriter(channel.alloc().buffer(256));
    }

    @Override
    public long id() {
        return processId;
    }

    @Override
    public long cancelKey() {
        return secretKey;
    }

    String user() {
        return user;
    }

    long lastActivityNanos() {
        return lastActivityNanos;
    }

    @Override
    public boolean busy() {
        return running != null || !queue.idle();
    }

    @Override
    public void stopResult(ResultStream.Stop reason) {
        ResultStream r = running;
        if (r != null) {
            r.stop(reason);
        }
    }

    @Override
    public void shutdownNotice(String message) {
        PgWriter w = new PgWriter(channel.alloc().buffer(128));
        w.report('N', "WARNING", "57P01", message, Map.of());
        channel.writeAndFlush(w.buffer());
    }

    void wake() {
        ResultStream r = running;
        if (r != null) {
            r.wake();
        }
    }

    // ---- event loop side

    void submit(PgFrontendMessage m) {
        if (queue.submit(() -> handle(m)) > MAX_QUEUED) {
            backlogged = true;
        }
    }

    boolean backlogged() {
        if (backlogged && queue.pending() <= MAX_QUEUED / 2) {
            backlogged = false;
        }
        return backlogged;
    }

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopResult(ResultStream.Stop.DISCONNECT);
        queue.closeThen(this::releaseResources);
        ctx.sessions().remove(this);
        ctx.sessions().release();
        ctx.metrics().sessionClosed();
    }

    private void taskDone() {
        lastActivityNanos = System.nanoTime();
        if (backlogged && !closed && queue.pending() <= MAX_QUEUED / 2) {
            readingChanged.run();
        }
    }

    /** On the statement thread once the connection is gone: open results end, buffers go back to Netty. */
    private void releaseResources() {
        for (PgPortal p : portals.values()) {
            p.close();
        }
        portals.clear();
        statements.clear();
        out.buffer().release();
        engine.close();
    }

    // ---- statement thread side

    private void handle(PgFrontendMessage m) {
        if (closed) {
            return;
        }
        try {
            if (copyIn != null) {
                copyMessage(m);
                return;
            }
            switch (m) {
                case PgFrontendMessage.Query q -> {
                    simpleQuery(q.sql());
                    // A COPY FROM STDIN waits for its data: ReadyForQuery comes once it ends.
                    if (copyIn == null) {
                        ready();
                    }
                }
                case PgFrontendMessage.Sync s -> {
                    skipToSync = false;
                    if (transaction == 'I') {
                        closeAllPortals();
                    }
                    ready();
                }
                case PgFrontendMessage.Flush f -> flush();
                case PgFrontendMessage.Parse p -> extended(() -> parse(p));
                case PgFrontendMessage.Bind b -> extended(() -> bind(b));
                case PgFrontendMessage.Describe d -> extended(() -> describe(d));
                case PgFrontendMessage.Execute e -> extended(() -> execute(e));
                case PgFrontendMessage.Close c -> extended(() -> close(c));
                case PgFrontendMessage.FunctionCall f -> extended(() -> {
                    throw new PgDataException("0A000", "the fast-path function call interface is not supported");
                });
                case PgFrontendMessage.CopyData d -> {
                    // Data after a COPY ended (it failed) is dropped, as PostgreSQL does until the next Sync/Query.
                }
                case PgFrontendMessage.CopyDone d -> {
                }
                case PgFrontendMessage.CopyFail f -> {
                }
                default -> error(new PgDataException("08P01", "unexpected message " + m.getClass().getSimpleName()),
                        null, 0);
            }
        } catch (RuntimeException | Error e) {
            if (!closed) {
                LOG.log(System.Logger.Level.WARNING, "pg session " + processId + ": message failed", e);
                error(e, null, 0);
                flush();
            }
        }
    }

    /** Extended-protocol messages after an error are skipped until Sync. */
    private void extended(Runnable step) {
        if (skipToSync) {
            return;
        }
        try {
            step.run();
        } catch (RuntimeException | Error e) {
            error(e, null, 0);
            skipToSync = true;
        }
    }

    private void ready() {
        out.readyForQuery(transaction);
        flush();
    }

    private void flush() {
        if (out.size() > 0 && !closed) {
            channel.writeAndFlush(out.buffer());
            ctx.metrics().bytesSent(out.size());
            out = new PgWriter(channel.alloc().buffer(256));
        }
    }

    // ---- simple query

    private void simpleQuery(String text) {
        List<PgSqlText.Piece> pieces = PgSqlText.split(text);
        if (pieces.isEmpty()) {
            out.emptyQueryResponse();
            return;
        }
        for (PgSqlText.Piece piece : pieces) {
            try {
                PgCommand command = PgCommand.parse(piece.sql());
                refuseInFailedBlock(command);
                if (command != null) {
                    runCommand(command, true);
                } else if (PgCopy.isCopy(piece.sql())) {
                    copy(piece.sql());
                    if (copyIn != null) {
                        copyIn.rest(pieces.subList(pieces.indexOf(piece) + 1, pieces.size()));
                        return;
                    }
                } else {
                    PgPortal portal = new PgPortal(piece.sql(), null, null, new short[0]);
                    runStatement(portal, piece.sql(), 0, true);
                }
            } catch (RuntimeException | Error e) {
                error(e, text, piece.offset());
                return;
            }
        }
    }

    private void refuseInFailedBlock(PgCommand command) {
        if (transaction == 'E' && !(command instanceof PgCommand.Transaction t
                && (t.step() == PgCommand.TransactionStep.ROLLBACK || t.step() == PgCommand.TransactionStep.COMMIT
                || t.step() == PgCommand.TransactionStep.ROLLBACK_TO))) {
            throw new PgDataException("25P02", "current transaction is aborted, commands ignored until end of"
                    + " transaction block");
        }
    }

    // ---- extended protocol

    private void parse(PgFrontendMessage.Parse p) {
        if (!p.statement().isEmpty() && statements.containsKey(p.statement())) {
            throw new PgDataException("42P05", "prepared statement \"" + p.statement() + "\" already exists");
        }
        if (!p.statement().isEmpty() && statements.size() >= ctx.config().maxStatementsPerSession()) {
            throw new PgDataException("54000", "statement limit reached: this session has " + statements.size()
                    + " prepared statements (max-statements); close some first");
        }
        statements.put(p.statement(), prepare(p.sql(), p.parameterTypes()));
        out.parseComplete();
    }

    private PgPreparedStatement prepare(String sql, int[] declared) {
        List<PgSqlText.Piece> pieces = PgSqlText.split(sql);
        if (pieces.size() > 1) {
            throw new PgDataException("42601", "cannot insert multiple commands into a prepared statement");
        }
        if (pieces.isEmpty()) {
            return PgPreparedStatement.empty(sql, declared);
        }
        PgCommand command = PgCommand.parse(sql);
        if (command != null) {
            return PgPreparedStatement.command(sql, command, declared);
        }
        if (PgCopy.isCopy(sql)) {
            throw new PgDataException("0A000", "COPY is supported in simple queries only");
        }
        PgSqlText.Placeholders placeholders = PgSqlText.placeholders(sql);
        String engineSql = functions.rewrite(placeholders.sql());
        PreparedQuery prepared = engine.prepare(engineSql);
        return PgPreparedStatement.query(sql, placeholders, prepared, declared);
    }

    private void bind(PgFrontendMessage.Bind b) {
        PgPreparedStatement statement = statements.get(b.statement());
        if (statement == null) {
            throw new PgDataException("26000", "prepared statement \"" + b.statement() + "\" does not exist");
        }
        if (!b.portal().isEmpty() && portals.containsKey(b.portal())) {
            throw new PgDataException("42P03", "cursor \"" + b.portal() + "\" already exists");
        }
        int expected = statement.parameterOids().length;
        if (b.values().size() != expected) {
            throw new PgDataException("08P01", "bind message supplies " + b.values().size()
                    + " parameters, but prepared statement \"" + b.statement() + "\" requires " + expected);
        }
        Object[] values = new Object[expected];
        for (int i = 0; i < expected; i++) {
            boolean binary = PgValueWriter.format(b.parameterFormats(), i) == 1;
            values[i] = PgType.decodeParameter(b.values().get(i), binary, PgType.byOid(statement.parameterOids()[i]),
                    statement.inferredType(i), i + 1);
        }
        if (statement.columns().size() > 0 && b.resultFormats().length > 1
                && b.resultFormats().length != statement.columns().size()) {
            throw new PgDataException("08P01", "bind message has " + b.resultFormats().length
                    + " result formats but query has " + statement.columns().size() + " columns");
        }
        PgPortal old = portals.put(b.portal(), new PgPortal(statement.sql(), statement, values, b.resultFormats()));
        if (old != null) {
            old.close();
        }
        out.bindComplete();
    }

    private void describe(PgFrontendMessage.Describe d) {
        if (d.kind() == 'S') {
            PgPreparedStatement statement = statements.get(d.name());
            if (statement == null) {
                throw new PgDataException("26000", "prepared statement \"" + d.name() + "\" does not exist");
            }
            out.parameterDescription(statement.parameterOids());
            rowDescription(statement.describedColumns(settings), new short[0]);
        } else {
            PgPortal portal = portal(d.name());
            rowDescription(portal.statement().describedColumns(settings), portal.resultFormats());
            portal.described = true;
        }
    }

    private void execute(PgFrontendMessage.Execute e) {
        PgPortal portal = portal(e.portal());
        PgPreparedStatement statement = portal.statement();
        if (statement.isEmpty()) {
            out.emptyQueryResponse();
            return;
        }
        refuseInFailedBlock(statement.command());
        if (statement.command() != null) {
            if (portal.done) {
                out.commandComplete(statement.command().tag());
                return;
            }
            runCommand(statement.command(), false);
            portal.done = true;
            return;
        }
        if (portal.done) {
            out.commandComplete(portal.tag);
            return;
        }
        runStatement(portal, null, e.maxRows(), false);
    }

    private void close(PgFrontendMessage.Close c) {
        if (c.kind() == 'S') {
            statements.remove(c.name());
        } else {
            PgPortal portal = portals.remove(c.name());
            if (portal != null) {
                portal.close();
            }
        }
        out.closeComplete();
    }

    private PgPortal portal(String name) {
        PgPortal portal = portals.get(name);
        if (portal == null) {
            throw new PgDataException("34000", "portal \"" + name + "\" does not exist");
        }
        return portal;
    }

    private void closeAllPortals() {
        for (PgPortal p : portals.values()) {
            p.close();
        }
        portals.clear();
    }

    // ---- running statements

    /**
     * Runs (or, for a suspended portal, goes on with) a statement and streams its rows: all of them, or at most
     * {@code maxRows} followed by PortalSuspended. A simple query describes its rows itself.
     */
    private void runStatement(PgPortal portal, String simpleSql, int maxRows, boolean describe) {
        ResultStream r = new ResultStream(Integer.MAX_VALUE, 0, (int) Math.min(Integer.MAX_VALUE,
                settings.statementTimeoutMillis()));
        running = r;
        r.attach(Thread.currentThread());
        ScheduledFuture<?> timer = r.timeoutMillis <= 0 ? null : channel.eventLoop()
                .schedule(() -> r.stop(ResultStream.Stop.TIMEOUT), r.timeoutMillis, TimeUnit.MILLISECONDS);
        Timer.Sample sample = ctx.metrics().queryStarted();
        try {
            refuseWhileDraining();
            if (portal.result == null) {
                portal.result = simpleSql != null ? engine.execute(functions.rewrite(simpleSql),
                        ctx.executionOptions()) : portal.statement().execute(portal.values, ctx.executionOptions());
                if (!portal.result.hasRows()) {
                    long count = portal.result.updateCount();
                    portal.close();
                    portal.done = true;
                    portal.tag = PgCommandTags.forUpdate(portal.sql, count);
                    if (transaction != 'I' && PgCommandTags.changesData(portal.sql)) {
                        changedInBlock = true;
                    }
                    out.commandComplete(portal.tag);
                    return;
                }
                portal.writer = new PgValueWriter(portal.result.columns().stream().map(ResultColumn::type).toList(),
                        portal.resultFormats(), engine.timeZone());
                if (describe) {
                    rowDescription(portal.result.columns(), portal.resultFormats());
                }
            }
            if (!streamRows(r, portal, maxRows)) {
                return;
            }
        } catch (Throwable e) {
            ResultStream.Stop stop = r.stopReason();
            portal.close();
            portal.done = true;
            if (stop != null) {
                throw stopped(stop, r);
            }
            if (e instanceof RuntimeException re) {
                throw re;
            }
            if (e instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e);
        } finally {
            if (timer != null) {
                timer.cancel(false);
            }
            r.finish();
            running = null;
            ctx.metrics().queryFinished(sample);
        }
    }

    /** Writes rows until the result ends (true, CommandComplete sent) or {@code maxRows} were sent (false). */
    private boolean streamRows(ResultStream r, PgPortal portal, int maxRows) throws InterruptedException {
        long sentHere = 0;
        while (true) {
            if (portal.batch == null || portal.offset >= portal.batch.rows()) {
                portal.batch = portal.result.nextBatch();
                portal.offset = 0;
                if (portal.batch == null) {
                    String tag = PgCommandTags.forRows(portal.sql, portal.rowsSent);
                    if (transaction != 'I' && PgCommandTags.changesData(portal.sql)) {
                        // ... RETURNING answers with rows, and changed the data all the same.
                        changedInBlock = true;
                    }
                    portal.close();
                    portal.done = true;
                    portal.tag = tag;
                    out.commandComplete(tag);
                    return true;
                }
                continue;
            }
            if (maxRows > 0 && sentHere >= maxRows) {
                out.portalSuspended();
                return false;
            }
            portal.writer.row(out, portal.batch, portal.offset++);
            portal.rowsSent++;
            sentHere++;
            if (out.size() >= FLUSH_BYTES) {
                if (!r.awaitSendable(channel::isWritable)) {
                    throw stopped(r.stopReason(), r);
                }
                flush();
            }
        }
    }

    private RuntimeException stopped(ResultStream.Stop stop, ResultStream r) {
        return switch (stop) {
            case TIMEOUT -> new PgDataException("57014", "canceling statement due to statement timeout");
            case SHUTDOWN -> new PgDataException("57P01", "terminating connection due to administrator command");
            default -> new PgDataException("57014", "canceling statement due to user request");
        };
    }

    private void rowDescription(List<ResultColumn> columns, short[] formats) {
        if (columns.isEmpty()) {
            out.noData();
            return;
        }
        out.begin('T').int16(columns.size());
        for (int c = 0; c < columns.size(); c++) {
            ResultColumn column = columns.get(c);
            PgType type = PgType.of(column.type());
            out.cString(column.name()).int32(0).int16(0).int32(type.oid()).int16(type.length())
                    .int32(PgType.typmod(column.type())).int16(PgValueWriter.format(formats, c));
        }
        out.end();
    }

    private void refuseWhileDraining() {
        if (ctx.isDraining()) {
            throw new PgDataException("57P01", "the server is shutting down");
        }
    }

    // ---- session commands

    private void runCommand(PgCommand command, boolean describeRows) {
        switch (command) {
            case PgCommand.Transaction t -> transactionStep(t.step());
            case PgCommand.Set s -> {
                PgSettings.Change change = settings.set(s.name(), s.value());
                if (change.ignored()) {
                    notice("01000", "LocusDB accepts \"" + s.name() + "\" but keeps " + change.value());
                }
                if (change.reportedName() != null) {
                    out.parameterStatus(change.reportedName(), change.value());
                }
            }
            case PgCommand.SetTransaction s -> {
            }
            case PgCommand.Show s -> {
                show(s.name(), describeRows);
                return;
            }
            case PgCommand.Reset r -> {
                if (r.name() == null) {
                    settings.resetAll();
                } else {
                    PgSettings.Change change = settings.set(r.name(), null);
                    if (change.reportedName() != null) {
                        out.parameterStatus(change.reportedName(), change.value());
                    }
                }
            }
            case PgCommand.DiscardAll d -> {
                if (transaction != 'I') {
                    throw new PgDataException("25001", "DISCARD ALL cannot run inside a transaction block");
                }
                statements.keySet().removeIf(name -> !name.isEmpty());
                closeAllPortals();
                settings.resetAll();
            }
            case PgCommand.CloseCursor c -> {
                if (c.name() == null) {
                    closeAllPortals();
                } else {
                    PgPortal portal = portals.remove(c.name());
                    if (portal == null) {
                        throw new PgDataException("34000", "cursor \"" + c.name() + "\" does not exist");
                    }
                    portal.close();
                }
            }
            case PgCommand.Unlisten u -> {
            }
            case PgCommand.Deallocate d -> {
                if (d.name() == null) {
                    statements.keySet().removeIf(name -> !name.isEmpty());
                } else if (statements.remove(d.name()) == null) {
                    throw new PgDataException("26000", "prepared statement \"" + d.name() + "\" does not exist");
                }
            }
        }
        out.commandComplete(command.tag());
    }

    private void transactionStep(PgCommand.TransactionStep step) {
        switch (step) {
            case BEGIN -> {
                if (transaction != 'I') {
                    notice("25001", "there is already a transaction in progress");
                } else {
                    transaction = 'T';
                    changedInBlock = false;
                }
            }
            case COMMIT -> {
                if (transaction == 'I') {
                    notice("25P01", "there is no transaction in progress");
                }
                transaction = 'I';
            }
            case ROLLBACK -> {
                if (transaction == 'I') {
                    notice("25P01", "there is no transaction in progress");
                } else if (changedInBlock) {
                    notice("01000", "LocusDB commits each statement when it runs: the changes made in this"
                            + " transaction block were already committed and are not undone");
                }
                transaction = 'I';
            }
            case SAVEPOINT, RELEASE -> {
                if (transaction == 'I') {
                    throw new PgDataException("25P01", step.name() + " can only be used in transaction blocks");
                }
            }
            case ROLLBACK_TO -> {
                if (transaction == 'I') {
                    throw new PgDataException("25P01", "ROLLBACK TO SAVEPOINT can only be used in transaction"
                            + " blocks");
                }
                if (changedInBlock) {
                    notice("01000", "LocusDB commits each statement when it runs: changes since the savepoint"
                            + " are not undone");
                }
                transaction = 'T';
            }
        }
    }

    private void show(String name, boolean describeRows) {
        if (name == null) {
            if (describeRows) {
                textRowDescription(List.of("name", "setting", "description"));
            }
            Map<String, String> all = settings.all();
            all.forEach((k, v) -> textRow(List.of(k, v, "")));
            out.commandComplete("SHOW");
            return;
        }
        String value = settings.get(name);
        if (value == null) {
            throw new PgDataException("42704", "unrecognized configuration parameter \"" + name + "\"");
        }
        if (describeRows) {
            textRowDescription(List.of(name.toLowerCase(Locale.ROOT)));
        }
        textRow(List.of(value));
        out.commandComplete("SHOW");
    }

    private void textRowDescription(List<String> names) {
        out.begin('T').int16(names.size());
        for (String n : names) {
            out.cString(n).int32(0).int16(0).int32(PgType.VARCHAR.oid()).int16(-1).int32(-1).int16(0);
        }
        out.end();
    }

    private void textRow(List<String> values) {
        out.begin('D').int16(values.size());
        for (String v : values) {
            if (v == null) {
                out.int32(-1);
            } else {
                out.text(v);
            }
        }
        out.end();
    }

    private void notice(String sqlState, String message) {
        out.report('N', "WARNING", sqlState, message, Map.of());
    }

    // ---- COPY

    private void copy(String sql) {
        PgCopy copy = PgCopy.parse(sql);
        if (copy.toClient()) {
            PgCopyOut.run(copy, engine, ctx.executionOptions(), functions, out, this::flushWhileCopying);
        } else {
            copyIn = new PgCopyIn(copy, engine, ctx.db().catalog());
            out.copyInResponse(false, copyIn.columnCount());
            flush();
        }
    }

    /** Flushes COPY output, waiting while the peer does not read; false when the statement was stopped. */
    private void flushWhileCopying() {
        if (out.size() >= FLUSH_BYTES) {
            flush();
        }
    }

    private void copyMessage(PgFrontendMessage m) {
        PgCopyIn in = copyIn;
        switch (m) {
            case PgFrontendMessage.CopyData d -> {
                try {
                    in.data(d.data());
                } catch (RuntimeException e) {
                    copyIn = null;
                    error(e, null, 0);
                    in.abandon();
                    afterCopy(in, false);
                }
            }
            case PgFrontendMessage.CopyDone d -> {
                copyIn = null;
                try {
                    long rows = in.finish();
                    if (transaction != 'I') {
                        changedInBlock = true;
                    }
                    out.commandComplete("COPY " + rows);
                    afterCopy(in, true);
                } catch (RuntimeException e) {
                    error(e, null, 0);
                    afterCopy(in, false);
                }
            }
            case PgFrontendMessage.CopyFail f -> {
                copyIn = null;
                in.abandon();
                error(new PgDataException("57014", "COPY from stdin failed: " + f.reason()), null, 0);
                afterCopy(in, false);
            }
            case PgFrontendMessage.Flush f -> flush();
            case PgFrontendMessage.Sync s -> {
            }
            default -> {
                copyIn = null;
                in.abandon();
                error(new PgDataException("08P01", "unexpected message type during COPY from stdin"), null, 0);
                afterCopy(in, false);
            }
        }
    }

    /** A COPY FROM STDIN sent in a simple query ended: the query's remaining statements run, then ReadyForQuery. */
    private void afterCopy(PgCopyIn in, boolean succeeded) {
        if (succeeded) {
            for (PgSqlText.Piece piece : in.rest()) {
                try {
                    PgCommand command = PgCommand.parse(piece.sql());
                    if (command != null) {
                        runCommand(command, true);
                    } else {
                        runStatement(new PgPortal(piece.sql(), null, null, new short[0]), piece.sql(), 0, true);
                    }
                } catch (RuntimeException e) {
                    error(e, null, 0);
                    break;
                }
            }
        }
        ready();
    }

    // ---- errors

    /**
     * Sends ErrorResponse for {@code e}; {@code text} and {@code offset} place the engine's line and column in the
     * message the client sent, for psql's caret. A failure inside a transaction block fails the block.
     */
    private void error(Throwable e, String text, int offset) {
        String sqlState;
        String message;
        int position = 0;
        PgDataException data = Causes.find(e, PgDataException.class);
        if (data != null) {
            sqlState = data.sqlState();
            message = data.getMessage();
        } else {
            Message.Error mapped = ErrorMapping.toError(e);
            sqlState = mapped.sqlState();
            message = mapped.message();
            if (text != null && mapped.line() > 0) {
                position = PgCommandTags.position(text, offset, mapped.line(), mapped.column());
            }
        }
        ctx.metrics().error(sqlState);
        Map<Byte, String> more = position > 0 ? Map.of(PgWriter.POSITION, Integer.toString(position))
                : Collections.emptyMap();
        if (message.length() > Outbound.MAX_MESSAGE_BYTES) {
            message = message.substring(0, Outbound.MAX_MESSAGE_BYTES) + "... (truncated)";
        }
        out.report('E', "ERROR", sqlState, message, more);
        if (transaction == 'T') {
            transaction = 'E';
        }
    }

    /** A Bind's result: the statement, its values, and the result being read when Execute stopped at a row limit. */
    private static final class PgPortal {
        final String sql;
        final PgPreparedStatement statement;
        final Object[] values;
        private final short[] resultFormats;
        QueryResult result;
        PgValueWriter writer;
        ResultBatch batch;
        int offset;
        long rowsSent;
        boolean done;
        boolean described;
        String tag;

        PgPortal(String sql, PgPreparedStatement statement, Object[] values, short[] resultFormats) {
            this.sql = sql;
            this.statement = statement;
            this.values = values;
            this.resultFormats = resultFormats;
        }

        PgPreparedStatement statement() {
            return statement;
        }

        short[] resultFormats() {
            return resultFormats;
        }

        void close() {
            if (result != null) {
                try {
                    result.close();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "closing a result failed", e);
                }
                result = null;
                batch = null;
            }
        }
    }
}
