package io.locusdb.server.net;

import io.locusdb.protocol.Message;
import io.locusdb.server.pg.PgAuthenticationException;
import io.locusdb.server.pg.PgDataException;
import io.locusdb.server.pg.PgFrontendMessage;
import io.locusdb.server.pg.PgMessageDecoder;
import io.locusdb.server.pg.PgProtocolException;
import io.locusdb.server.pg.PgSettings;
import io.locusdb.server.pg.PgStartupOptions;
import io.locusdb.server.pg.PgWriter;
import io.locusdb.server.pg.ScramSha256Server;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.SSLException;

/**
 * A PostgreSQL connection's start on its event loop: SSLRequest (TLS when the server has a certificate, else 'N'),
 * GSSENCRequest ('N'), CancelRequest, the StartupMessage (NegotiateProtocolVersion for a newer minor version or
 * {@code _pq_.} options), then authentication against the server's users — trust when none is configured (loopback
 * only, as on the native port), SCRAM-SHA-256 or a clear-text password — and the session's ParameterStatus,
 * BackendKeyData and ReadyForQuery. After that, messages go to the {@link PgServerSession} in arrival order. The
 * session limit, startup and idle timeouts and metrics are the native protocol's.
 */
final class PgSessionHandler extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(PgSessionHandler.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int MAX_HELD = 64;

    private enum Phase { STARTUP, SASL_INITIAL, SASL_FINAL, PASSWORD, CHECKING, SESSION, CLOSING }

    private final ServerContext ctx;
    private final SslContext tls;
    private final PgMessageDecoder decoder;
    private final ArrayDeque<PgFrontendMessage> held = new ArrayDeque<>();
    private Channel channel;
    private Phase phase = Phase.STARTUP;
    private boolean startupCounted;
    private ScheduledFuture<?> startupTimer;
    private ScheduledFuture<?> idleTimer;
    private long lastMessageNanos = System.nanoTime();
    private long startupDeadlineNanos;
    private String user;
    private String database;
    private PgSettings settings;
    private final List<String> ignoredStartupSettings = new ArrayList<>();
    private ScramSha256Server scram;
    private PgServerSession session;

    PgSessionHandler(ServerContext ctx, SslContext tls, PgMessageDecoder decoder) {
        this.ctx = ctx;
        this.tls = tls;
        this.decoder = decoder;
    }

    @Override
    public void channelActive(ChannelHandlerContext c) throws Exception {
        channel = c.channel();
        ctx.startups().enter();
        startupCounted = true;
        startupDeadlineNanos = System.nanoTime() + ctx.config().startupTimeout().toNanos();
        startupTimer = channel.eventLoop().schedule(this::startupTimedOut, ctx.config().startupTimeout().toMillis(),
                TimeUnit.MILLISECONDS);
        super.channelActive(c);
    }

    @Override
    public void channelRead(ChannelHandlerContext c, Object msg) {
        if (!(msg instanceof PgFrontendMessage m)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        ctx.metrics().frameReceived();
        switch (phase) {
            case CLOSING -> {
            }
            case STARTUP -> startup(m);
            case SASL_INITIAL, SASL_FINAL, PASSWORD -> authenticate(m);
            case CHECKING -> {
                held.add(m);
                if (held.size() > MAX_HELD) {
                    fatal(PgProtocolException.PROTOCOL_VIOLATION, "too many messages before authentication ended");
                }
            }
            case SESSION -> {
                lastMessageNanos = System.nanoTime();
                request(m);
            }
        }
    }

    private void startup(PgFrontendMessage m) {
        switch (m) {
            case PgFrontendMessage.SslRequest s -> {
                boolean secure = tls != null && channel.pipeline().get(SslHandler.class) == null;
                // The answer byte goes out in clear before the TLS handler is put in front of everything else.
                channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {(byte) (secure ? 'S' : 'N')}));
                if (secure) {
                    SslHandler ssl = tls.newHandler(channel.alloc());
                    ssl.setHandshakeTimeoutMillis(ctx.config().startupTimeout().toMillis());
                    channel.pipeline().addFirst("tls", ssl);
                }
            }
            case PgFrontendMessage.GssEncRequest g ->
                    channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {(byte) 'N'}));
            case PgFrontendMessage.CancelRequest cancel -> {
                ctx.sessions().cancel(cancel.processId(), cancel.secretKey());
                phase = Phase.CLOSING;
                channel.close();
            }
            case PgFrontendMessage.Startup s -> started(s);
            default -> fatal(PgProtocolException.PROTOCOL_VIOLATION, "expected a startup message, got "
                    + m.getClass().getSimpleName());
        }
    }

    private void started(PgFrontendMessage.Startup s) {
        if (tls != null && channel.pipeline().get(SslHandler.class) == null) {
            // As on the native port: with a certificate configured, nothing travels in clear text.
            fatal("28000", "this server accepts only TLS connections: connect with sslmode=require (or prefer)");
            return;
        }
        Map<String, String> p = s.parameters();
        user = p.getOrDefault("user", "");
        if (user.isEmpty()) {
            fatal("28000", "no PostgreSQL user name specified in startup packet");
            return;
        }
        database = p.getOrDefault("database", "");
        if (database.isEmpty()) {
            database = user;
        }
        if (p.containsKey("replication") && !p.get("replication").equalsIgnoreCase("false")) {
            fatal("0A000", "replication connections are not supported");
            return;
        }
        List<String> unknownOptions = p.keySet().stream().filter(k -> k.startsWith("_pq_.")).toList();
        if (s.minorVersion() > 0 || !unknownOptions.isEmpty()) {
            write(w -> w.negotiateProtocolVersion(0, unknownOptions));
        }
        settings = new PgSettings(user, true);
        try {
            for (Map.Entry<String, String> e : p.entrySet()) {
                String k = e.getKey();
                if (k.equals("user") || k.equals("database") || k.equals("replication") || k.startsWith("_pq_.")) {
                    continue;
                }
                if (k.equals("options")) {
                    for (Map.Entry<String, String> o : PgStartupOptions.parse(e.getValue()).entrySet()) {
                        startupSetting(o.getKey(), o.getValue());
                    }
                } else {
                    startupSetting(k, e.getValue());
                }
            }
        } catch (PgDataException e) {
            fatal(e.sqlState(), e.getMessage());
            return;
        }
        Authenticator auth = ctx.authenticator();
        if (auth.trustMode()) {
            loggedIn();
        } else if (!auth.hasUsers()) {
            fatal("28000", "this server has only tokens configured, which PostgreSQL clients cannot present:"
                    + " configure a user (./locus passwd NAME)");
        } else if (ctx.config().pgAuth() == ServerConfig.PgAuthMethod.SCRAM_SHA_256) {
            scram = new ScramSha256Server(auth.scramCredentials(user));
            phase = Phase.SASL_INITIAL;
            write(w -> w.authenticationSasl(List.of(ScramSha256Server.MECHANISM)));
        } else {
            phase = Phase.PASSWORD;
            write(w -> w.authentication(3));
        }
    }

    private void startupSetting(String name, String value) {
        if (!settings.known(name) && !name.contains(".")) {
            ignoredStartupSettings.add(name);
            return;
        }
        settings.set(name, value);
    }

    private void authenticate(PgFrontendMessage m) {
        if (!(m instanceof PgFrontendMessage.Password password)) {
            fatal(PgProtocolException.PROTOCOL_VIOLATION, "expected an authentication response, got "
                    + m.getClass().getSimpleName());
            return;
        }
        try {
            switch (phase) {
                case SASL_INITIAL -> {
                    byte[] serverFirst = scram.initialResponse(password.body());
                    phase = Phase.SASL_FINAL;
                    write(w -> w.authenticationSasl(11, serverFirst));
                }
                case SASL_FINAL -> {
                    byte[] serverFinal = scram.finalResponse(password.body(), user);
                    write(w -> w.authenticationSasl(12, serverFinal));
                    loggedIn();
                }
                case PASSWORD -> checkPassword(password.body());
                default -> throw new IllegalStateException(phase.name());
            }
        } catch (PgAuthenticationException e) {
            ctx.metrics().connectionRejected("authentication");
            fatal(e.sqlState(), e.getMessage());
        }
    }

    /** A clear-text password is checked against its PBKDF2 hash off the event loop, as on the native port. */
    private void checkPassword(byte[] body) {
        int end = body.length > 0 && body[body.length - 1] == 0 ? body.length - 1 : body.length;
        String password = new String(body, 0, end, StandardCharsets.UTF_8);
        PasswordChecks checks = ctx.passwordChecks();
        if (!checks.tryEnter()) {
            ctx.metrics().connectionRejected("pending-authentications");
            fatal("53300", "too many pending authentications: try again later");
            return;
        }
        phase = Phase.CHECKING;
        Message.Startup credentials = new Message.Startup(user, password, "", database, "");
        Thread.ofVirtual().name("locus-pg-auth").start(() -> {
            Authenticator.Outcome outcome = null;
            try {
                if (checks.acquire(startupDeadlineNanos)) {
                    try {
                        if (channel.isActive()) {
                            checks.hashed();
                            outcome = ctx.authenticator().authenticate(credentials);
                        }
                    } finally {
                        checks.release();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                outcome = Authenticator.Outcome.refuse("XX000", ErrorMapping.internalError("password check failed",
                        e));
            } finally {
                checks.leave();
            }
            Authenticator.Outcome result = outcome;
            if (result != null) {
                channel.eventLoop().execute(() -> {
                    if (phase != Phase.CHECKING) {
                        return;
                    }
                    if (!result.accepted()) {
                        ctx.metrics().connectionRejected("authentication");
                        fatal(result.sqlState(), result.message());
                    } else {
                        loggedIn();
                    }
                });
            }
        });
    }

    private void loggedIn() {
        if (ctx.isDraining()) {
            ctx.metrics().connectionRejected("shutdown");
            fatal("57P03", "the database system is shutting down");
            return;
        }
        if (!ctx.sessions().reserve()) {
            ctx.metrics().connectionRejected("session-limit");
            fatal("53300", "sorry, too many clients already (this server allows " + ctx.sessions().maxSessions()
                    + " sessions)");
            return;
        }
        leaveStartup();
        startupTimer.cancel(false);
        SessionRegistry registry = ctx.sessions();
        int processId = (int) registry.nextId();
        int secretKey = RANDOM.nextInt();
        session = new PgServerSession(processId, secretKey, user, database, ctx, channel, settings,
                this::updateReading);
        registry.add(session);
        ctx.metrics().sessionOpened();
        phase = Phase.SESSION;
        decoder.authenticated();
        write(w -> {
            w.authentication(0);
            for (Map.Entry<String, String> s : settings.all().entrySet()) {
                if (PgSettings.REPORTED.contains(s.getKey())) {
                    w.parameterStatus(s.getKey(), s.getValue());
                }
            }
            w.backendKeyData(processId, secretKey);
            for (String ignored : ignoredStartupSettings) {
                w.report('N', "WARNING", "42704", "unrecognized configuration parameter \"" + ignored
                        + "\" in the startup packet was ignored", Map.of());
            }
            w.readyForQuery('I');
        });
        lastMessageNanos = System.nanoTime();
        scheduleIdleCheck(ctx.config().idleTimeout().toNanos());
        while (phase == Phase.SESSION && !held.isEmpty()) {
            request(held.poll());
        }
    }

    private void request(PgFrontendMessage m) {
        switch (m) {
            case PgFrontendMessage.Terminate t -> {
                phase = Phase.CLOSING;
                channel.close();
            }
            case PgFrontendMessage.Startup s -> fatal(PgProtocolException.PROTOCOL_VIOLATION,
                    "a startup message is only valid first on a connection");
            case PgFrontendMessage.Password p -> fatal(PgProtocolException.PROTOCOL_VIOLATION,
                    "unexpected password message after authentication");
            default -> {
                session.submit(m);
                updateReading();
            }
        }
    }

    /** Reads while the peer takes what it is sent and the session's queue has room. */
    void updateReading() {
        if (!channel.eventLoop().inEventLoop()) {
            channel.eventLoop().execute(this::updateReading);
            return;
        }
        boolean read = switch (phase) {
            case CLOSING -> true;
            case SESSION -> channel.isWritable() && !session.backlogged();
            default -> channel.isWritable();
        };
        if (channel.config().isAutoRead() != read) {
            channel.config().setAutoRead(read);
        }
    }

    private void write(Consumer<PgWriter> messages) {
        PgWriter w = new PgWriter(channel.alloc().buffer(256));
        messages.accept(w);
        ctx.metrics().bytesSent(w.size());
        channel.writeAndFlush(w.buffer());
    }

    private void scheduleIdleCheck(long delayNanos) {
        idleTimer = channel.eventLoop().schedule(this::checkIdle, Math.max(1, delayNanos), TimeUnit.NANOSECONDS);
    }

    private void checkIdle() {
        if (phase != Phase.SESSION) {
            return;
        }
        long limit = ctx.config().idleTimeout().toNanos();
        if (session.busy()) {
            scheduleIdleCheck(limit);
            return;
        }
        long idle = System.nanoTime() - Math.max(lastMessageNanos, session.lastActivityNanos());
        if (idle >= limit) {
            fatal("57P05", "terminating connection due to idle timeout (" + ctx.config().idleTimeout().toMillis()
                    + " ms)");
        } else {
            scheduleIdleCheck(limit - idle);
        }
    }

    private void startupTimedOut() {
        if (phase != Phase.SESSION && phase != Phase.CLOSING) {
            ctx.metrics().connectionRejected("startup-timeout");
            phase = Phase.CLOSING;
            channel.close();
        }
    }

    private void leaveStartup() {
        if (startupCounted) {
            startupCounted = false;
            ctx.startups().leave();
        }
    }

    /** Sends a FATAL ErrorResponse and closes once it is out; the session's work stops at once. */
    private void fatal(String sqlState, String message) {
        if (phase == Phase.CLOSING) {
            return;
        }
        leaveStartup();
        phase = Phase.CLOSING;
        decoder.discardFromNowOn();
        cancelTimers();
        if (session != null) {
            session.close();
        }
        ctx.metrics().error(sqlState);
        PgWriter w = new PgWriter(channel.alloc().buffer(128));
        w.report('E', "FATAL", sqlState, message, Map.of());
        channel.writeAndFlush(w.buffer()).addListener(ChannelFutureListener.CLOSE);
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
        PgProtocolException protocol = Causes.find(cause, PgProtocolException.class);
        PgDataException data = Causes.find(cause, PgDataException.class);
        if (protocol != null) {
            if (phase != Phase.SESSION) {
                ctx.metrics().connectionRejected("protocol");
            }
            fatal(protocol.sqlState(), protocol.getMessage());
        } else if (data != null) {
            fatal(data.sqlState(), data.getMessage());
        } else if (Causes.find(cause, SSLException.class) != null || Causes.find(cause, IOException.class) != null) {
            LOG.log(System.Logger.Level.DEBUG, "connection " + channel + " failed: " + cause);
            phase = Phase.CLOSING;
            channel.close();
        } else {
            fatal("XX000", ErrorMapping.internalError("unexpected error on " + channel, cause));
        }
    }
}
