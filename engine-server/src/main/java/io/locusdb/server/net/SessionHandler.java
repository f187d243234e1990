package io.locusdb.server.net;

import io.locusdb.protocol.Message;
import io.locusdb.protocol.MessageCodec;
import io.locusdb.protocol.Protocol;
import io.locusdb.protocol.ProtocolException;
import io.locusdb.protocol.WireReader;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * A connection's protocol state machine on its event loop: STARTUP (or CANCEL_REQUEST) first, then requests handed
 * to the {@link ServerSession}; FETCH, CANCEL, CLOSE_RESULT, PING and TERMINATE are answered here at once, so they
 * work while a result streams. Startup and idle timeouts, and every fatal error (one ERROR frame, then the
 * connection closes — other connections never notice) are handled here too.
 */
final class SessionHandler extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(SessionHandler.class.getName());
    /** Frames a client may send after STARTUP before READY (held while the password is checked). */
    private static final int MAX_HELD_FRAMES = 64;
    private static final int MAX_HELD_BYTES = ServerConfig.MAX_STARTUP_FRAME_BYTES;
    /** After a fatal ERROR went out: how long the peer has to read it before the connection closes. */
    private static final long LINGER_MILLIS = 2000;
    /** How long a fatal ERROR may wait to go out (behind a frame the peer does not take) before the close. */
    private static final long FATAL_WRITE_MILLIS = 1000;

    private enum Phase { STARTUP, AUTHENTICATING, SESSION, CLOSING }

    private final ServerContext ctx;
    private final FrameDecoder frames;
    private final ArrayDeque<Frame> held = new ArrayDeque<>();
    private int heldBytes;
    private Channel channel;
    private Outbound out;
    private Phase phase = Phase.STARTUP;
    private ServerSession session;
    private ScheduledFuture<?> startupTimer;
    private ScheduledFuture<?> idleTimer;
    private long lastFrameNanos = System.nanoTime();
    private long startupDeadlineNanos;
    /** Counted in the server's {@link StartupGate} (not logged in yet). */
    private boolean startupCounted;

    SessionHandler(ServerContext ctx, FrameDecoder frames) {
        this.ctx = ctx;
        this.frames = frames;
    }

    @Override
    public void channelActive(ChannelHandlerContext c) throws Exception {
        channel = c.channel();
        out = new Outbound(channel, ctx.metrics(), ctx.config().maxFrameBytes());
        ctx.startups().enter();
        startupCounted = true;
        startupDeadlineNanos = System.nanoTime() + ctx.config().startupTimeout().toNanos();
        startupTimer = channel.eventLoop().schedule(this::startupTimedOut,
                ctx.config().startupTimeout().toMillis(), TimeUnit.MILLISECONDS);
        super.channelActive(c);
    }

    @Override
    public void channelRead(ChannelHandlerContext c, Object msg) {
        if (!(msg instanceof Frame frame)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        ctx.metrics().frameReceived();
        switch (phase) {
            case CLOSING -> {
            }
            case AUTHENTICATING -> {
                held.add(frame);
                heldBytes += frame.payload().length + 1;
                if (held.size() > MAX_HELD_FRAMES || heldBytes > MAX_HELD_BYTES) {
                    fatal(ProtocolException.PROTOCOL_VIOLATION, "too many frames before READY");
                }
            }
            default -> handle(frame);
        }
    }

    private void handle(Frame frame) {
        Message m;
        try {
            m = MessageCodec.read(frame.type(), new WireReader(frame.payload(), Protocol.messageName(frame.type())),
                    null);
        } catch (ProtocolException e) {
            fatal(e.sqlState(), e.getMessage());
            return;
        }
        if (frame.type() >= Protocol.READY) {
            fatal(ProtocolException.PROTOCOL_VIOLATION, Protocol.messageName(frame.type())
                    + " is a server message; a client may not send it");
            return;
        }
        if (phase == Phase.STARTUP) {
            startup(m);
        } else {
            lastFrameNanos = System.nanoTime();
            request(m);
        }
    }

    private void startup(Message m) {
        switch (m) {
            case Message.CancelRequest cancel -> {
                ctx.sessions().cancel(cancel.sessionId(), cancel.cancelKey());
                phase = Phase.CLOSING;
                channel.close();
            }
            case Message.Startup startup -> {
                if (ctx.authenticator().isSlow(startup)) {
                    PasswordChecks checks = ctx.passwordChecks();
                    if (!checks.tryEnter()) {
                        ctx.metrics().connectionRejected("pending-authentications");
                        fatal("53300", "too many pending authentications: try again later");
                        return;
                    }
                    phase = Phase.AUTHENTICATING;
                    updateReading();
                    Thread.ofVirtual().name("locus-auth").start(() -> {
                        Authenticator.Outcome outcome;
                        try {
                            outcome = checkPassword(checks, startup);
                        } finally {
                            checks.leave();
                        }
                        if (outcome != null) {
                            channel.eventLoop().execute(() -> authenticated(outcome));
                        }
                    });
                } else {
                    authenticated(ctx.authenticator().authenticate(startup));
                }
            }
            default -> fatal(ProtocolException.PROTOCOL_VIOLATION, "expected STARTUP or CANCEL_REQUEST first, got "
                    + Protocol.messageName(m.type()));
        }
    }

    /**
     * Waits for a permit until the startup deadline, then hashes, unless the connection closed meanwhile: null when
     * there is nobody left to answer (the startup timer closes a connection whose deadline passed).
     */
    private Authenticator.Outcome checkPassword(PasswordChecks checks, Message.Startup startup) {
        try {
            if (!checks.acquire(startupDeadlineNanos)) {
                return null;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        try {
            if (!channel.isActive()) {
                return null;
            }
            checks.hashed();
            return ctx.authenticator().authenticate(startup);
        } catch (RuntimeException e) {
            return Authenticator.Outcome.refuse("XX000", ErrorMapping.internalError("password check failed", e));
        } finally {
            checks.release();
        }
    }

    /** The connection logged in or is going away: it no longer counts against max-pending-startups. */
    private void leaveStartup() {
        if (startupCounted) {
            startupCounted = false;
            ctx.startups().leave();
        }
    }

    private void authenticated(Authenticator.Outcome outcome) {
        if (phase == Phase.CLOSING || !channel.isActive()) {
            return;
        }
        if (!outcome.accepted()) {
            ctx.metrics().connectionRejected("authentication");
            fatal(outcome.sqlState(), outcome.message());
            return;
        }
        if (ctx.isDraining()) {
            ctx.metrics().connectionRejected("shutdown");
            fatal("57P01", "the server is shutting down");
            return;
        }
        if (!ctx.sessions().reserve()) {
            ctx.metrics().connectionRejected("session-limit");
            fatal("53300", "too many sessions: this server allows " + ctx.sessions().maxSessions());
            return;
        }
        SessionRegistry registry = ctx.sessions();
        session = new ServerSession(registry.nextId(), registry.newCancelKey(), outcome.user(), ctx, out,
                this::updateReading);
        registry.add(session);
        ctx.metrics().sessionOpened();
        phase = Phase.SESSION;
        leaveStartup();
        startupTimer.cancel(false);
        frames.authenticated();
        out.send(new Message.Ready(session.id(), session.cancelKey(), ctx.serverVersion(),
                ctx.config().maxFrameBytes(), ctx.config().maxStatementsPerSession()));
        lastFrameNanos = System.nanoTime();
        scheduleIdleCheck(ctx.config().idleTimeout().toNanos());
        while (phase == Phase.SESSION && !held.isEmpty()) {
            handle(held.poll());
        }
        updateReading();
    }

    /**
     * Reads only while the peer takes what it is sent and the session's queue has room (pipelining backpressure):
     * a client that sends requests without reading the answers stops being read, so the answers Netty buffers for
     * it stay bounded (about the write buffer's high water mark). While a password is checked, frames are read and
     * held (at most {@link #MAX_HELD_FRAMES}, 64 KiB), so that a client going away is noticed and its check skipped;
     * a closing connection's input is read and discarded. Decided on the event loop only, from any thread's call.
     */
    void updateReading() {
        if (!channel.eventLoop().inEventLoop()) {
            channel.eventLoop().execute(this::updateReading);
            return;
        }
        boolean read = switch (phase) {
            case CLOSING -> true;
            case STARTUP, AUTHENTICATING -> channel.isWritable();
            case SESSION -> channel.isWritable() && !session.backlogged();
        };
        if (channel.config().isAutoRead() != read) {
            channel.config().setAutoRead(read);
        }
    }

    private void request(Message m) {
        switch (m) {
            case Message.Ping p -> out.send(new Message.Pong());
            case Message.Terminate t -> {
                phase = Phase.CLOSING;
                channel.close();
            }
            case Message.Fetch f -> session.addCredit(f.batches());
            case Message.Cancel c -> session.stopResult(ResultStream.Stop.CANCEL);
            case Message.CloseResult c -> session.stopResult(ResultStream.Stop.CLOSE_RESULT);
            case Message.Startup s -> fatal(ProtocolException.PROTOCOL_VIOLATION,
                    "STARTUP is only valid as the first frame of a connection");
            case Message.CancelRequest s -> fatal(ProtocolException.PROTOCOL_VIOLATION,
                    "CANCEL_REQUEST is only valid as the first frame of a connection");
            default -> session.request(m);
        }
    }

    private void scheduleIdleCheck(long delayNanos) {
        idleTimer = channel.eventLoop().schedule(this::checkIdle, Math.max(1, delayNanos), TimeUnit.NANOSECONDS);
    }

    /** Idle means no frame and no statement: a long statement or a paused result never counts as idle time. */
    private void checkIdle() {
        if (phase != Phase.SESSION) {
            return;
        }
        long limit = ctx.config().idleTimeout().toNanos();
        if (session.busy()) {
            scheduleIdleCheck(limit);
            return;
        }
        long idle = System.nanoTime() - Math.max(lastFrameNanos, session.lastActivityNanos());
        if (idle >= limit) {
            fatal("57P05", "idle timeout: no request for " + ctx.config().idleTimeout().toMillis() + " ms");
        } else {
            scheduleIdleCheck(limit - idle);
        }
    }

    private void startupTimedOut() {
        if (phase == Phase.STARTUP || phase == Phase.AUTHENTICATING) {
            ctx.metrics().connectionRejected("startup-timeout");
            phase = Phase.CLOSING;
            channel.close();
        }
    }

    /**
     * Answers one ERROR and closes. The session's result is stopped and its waiting requests dropped at once, and
     * the ERROR is the last frame sent. Input is discarded meanwhile and, once the ERROR went out, the output is shut
     * down (close_notify with TLS), so the peer reads the ERROR and then the end of the stream; closing at once with
     * unread input would reset the connection and could destroy the ERROR before the peer reads it. An ERROR that
     * cannot go out within {@link #FATAL_WRITE_MILLIS} (a peer that reads nothing) does not delay the close.
     */
    void fatal(String sqlState, String message) {
        if (phase == Phase.CLOSING) {
            return;
        }
        leaveStartup();
        phase = Phase.CLOSING;
        frames.discardFromNowOn();
        cancelTimers();
        updateReading();
        if (session != null) {
            session.close();
        }
        ScheduledFuture<?> deadline = channel.eventLoop().schedule(() -> {
            channel.close();
        }, FATAL_WRITE_MILLIS, TimeUnit.MILLISECONDS);
        out.lastError(sqlState, message).addListener(f -> {
            if (!f.isSuccess() || !deadline.cancel(false)) {
                channel.close();
                return;
            }
            SslHandler tls = channel.pipeline().get(SslHandler.class);
            if (tls != null) {
                tls.closeOutbound();
            } else if (channel instanceof SocketChannel socket && socket.isActive()) {
                socket.shutdownOutput();
            }
            channel.eventLoop().schedule(() -> {
                channel.close();
            }, LINGER_MILLIS, TimeUnit.MILLISECONDS);
        });
    }

    private void cancelTimers() {
        if (startupTimer != null) {
            startupTimer.cancel(false);
        }
        if (idleTimer != null) {
            idleTimer.cancel(false);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext c) throws Exception {
        updateReading();
        if (session != null) {
            session.wake();
        }
        super.channelWritabilityChanged(c);
    }

    @Override
    public void channelInactive(ChannelHandlerContext c) throws Exception {
        leaveStartup();
        phase = Phase.CLOSING;
        cancelTimers();
        held.clear();
        if (session != null) {
            session.close();
        }
        super.channelInactive(c);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
        ProtocolException protocol = Causes.find(cause, ProtocolException.class);
        if (protocol != null) {
            if (phase == Phase.STARTUP) {
                ctx.metrics().connectionRejected("protocol");
            }
            fatal(protocol.sqlState(), protocol.getMessage());
        } else if (Causes.find(cause, SSLException.class) != null || Causes.find(cause, IOException.class) != null) {
            LOG.log(System.Logger.Level.DEBUG, "connection " + channel + " failed: " + cause);
            phase = Phase.CLOSING;
            channel.close();
        } else {
            fatal("XX000", ErrorMapping.internalError("unexpected error on " + channel, cause));
        }
    }
}
