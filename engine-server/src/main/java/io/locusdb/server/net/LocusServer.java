package io.locusdb.server.net;

import io.locusdb.core.LocusDB;
import io.locusdb.server.metrics.MetricsHttpEndpoint;
import io.locusdb.server.metrics.ServerMetrics;
import io.locusdb.server.pg.PgMessageDecoder;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The LocusDB server: protocol v1 (docs/protocol.md) over Netty, on an embedded {@link LocusDB} that it owns and
 * closes. Event loops only frame, decode and route; statements run on virtual threads, one session at a time.
 *
 * <pre>{@code
 * try (LocusServer server = LocusServer.start(LocusDB.open(LocusConfig.defaults()), ServerConfig.defaults())) {
 *     server.awaitTermination();
 * }
 * }</pre>
 */
public final class LocusServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(LocusServer.class.getName());
    private static final Duration CANCEL_WAIT = Duration.ofSeconds(5);

    private final ServerConfig config;
    private final LocusDB db;
    private final ServerMetrics metrics;
    private final ServerContext context;
    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;
    private final ChannelGroup channels = new DefaultChannelGroup("locus-connections", GlobalEventExecutor.INSTANCE);
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final Channel serverChannel;
    /** The PostgreSQL protocol listener, or null when {@code pg.port} is -1. */
    private final Channel pgChannel;
    private final MetricsHttpEndpoint metricsEndpoint;

    private LocusServer(LocusDB db, ServerConfig config, ServerMetrics metrics) {
        config.requireSafeExposure();
        this.config = config;
        this.db = db;
        this.metrics = metrics;
        Authenticator authenticator = new Authenticator(config.users(), config.tokens());
        this.context = new ServerContext(config, db, metrics, authenticator, new SessionRegistry(config.maxSessions()),
                version(), new AtomicBoolean(), PasswordChecks.forThisMachine(),
                new StartupGate(config.maxPendingStartups()));
        SslContext tls = config.tls() == null ? null : TlsContexts.forServer(config.tls());
        // The meters are bound beside the listeners (loading the JVM's and Micrometer's classes takes a noticeable
        // part of a start); a scrape waits for them.
        metrics.bindInBackground(db);
        acceptor = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        workers = new MultiThreadIoEventLoopGroup(config.effectiveIoThreads(), NioIoHandler.newFactory());
        MetricsHttpEndpoint endpoint = null;
        Channel pg = null;
        try {
            ServerBootstrap bootstrap = bootstrap(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    channels.add(ch);
                    ChannelPipeline p = ch.pipeline();
                    if (tls != null) {
                        SslHandler ssl = tls.newHandler(ch.alloc());
                        ssl.setHandshakeTimeoutMillis(config.startupTimeout().toMillis());
                        p.addLast("tls", ssl);
                    }
                    FrameDecoder frames = new FrameDecoder(config.maxFrameBytes(),
                            ServerConfig.MAX_STARTUP_FRAME_BYTES);
                    p.addLast("preamble", new PreambleDecoder());
                    p.addLast("frames", frames);
                    p.addLast("session", new SessionHandler(context, frames));
                }
            });
            serverChannel = bootstrap.bind(config.bindAddress(), config.port()).syncUninterruptibly().channel();
            context.startups().listener(serverChannel);
            if (config.pgPort() >= 0) {
                pg = bindPostgres(tls);
            }
            if (config.metricsPort() >= 0) {
                endpoint = MetricsHttpEndpoint.start(config.metricsBindAddress(), config.metricsPort(), metrics);
            }
        } catch (IOException e) {
            closeQuietly(pg);
            stopLoops();
            throw new UncheckedIOException("cannot start the metrics endpoint: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(pg);
            stopLoops();
            throw e;
        }
        this.pgChannel = pg;
        this.metricsEndpoint = endpoint;
        if (authenticator.trustMode()) {
            LOG.log(System.Logger.Level.WARNING, "no users or tokens configured: trust mode, every client is"
                    + " accepted (listening on " + config.bindAddress() + ")");
        }
    }

    /**
     * The PostgreSQL protocol 3.0 listener on the same address, sharing the sessions, users, limits and metrics of
     * the native one (and its event loops).
     */
    private Channel bindPostgres(SslContext tls) {
        ServerBootstrap bootstrap = bootstrap(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                channels.add(ch);
                PgMessageDecoder decoder = new PgMessageDecoder(config.maxFrameBytes());
                ch.pipeline().addLast("pg-messages", decoder);
                ch.pipeline().addLast("pg-session", new PgSessionHandler(context, tls, decoder));
            }
        });
        try {
            return bootstrap.bind(config.bindAddress(), config.pgPort()).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot listen for PostgreSQL clients on " + config.bindAddress() + ":"
                    + config.pgPort() + " (pg.port; -1 turns it off): " + e.getMessage(), e);
        }
    }

    /** A listener on the server's event loops; both protocols' connections get the same socket options. */
    private ServerBootstrap bootstrap(ChannelInitializer<SocketChannel> connections) {
        return new ServerBootstrap()
                .group(acceptor, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 256)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 << 10, 1 << 20))
                .childHandler(connections);
    }

    private static void closeQuietly(Channel channel) {
        if (channel != null) {
            channel.close().awaitUninterruptibly(1000);
        }
    }

    /** The port PostgreSQL clients connect to, or -1 when that listener is off. */
    public int pgPort() {
        return pgChannel == null ? -1 : ((InetSocketAddress) pgChannel.localAddress()).getPort();
    }

    /** A pgjdbc URL for this server's PostgreSQL listener. */
    public String pgJdbcUrl(String database) {
        String host = config.bindAddress().contains(":") ? "[" + config.bindAddress() + "]" : config.bindAddress();
        return "jdbc:postgresql://" + host + ":" + pgPort() + "/" + database;
    }

    /** Starts serving {@code db} (which the server closes on shutdown) with meters in a Prometheus registry. */
    public static LocusServer start(LocusDB db, ServerConfig config) {
        return start(db, config, ServerMetrics.prometheus());
    }

    public static LocusServer start(LocusDB db, ServerConfig config, ServerMetrics metrics) {
        return new LocusServer(db, config, metrics);
    }

    /** The port the server listens on (the real one when the configuration said 0). */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    public String jdbcUrl() {
        String host = config.bindAddress().contains(":") ? "[" + config.bindAddress() + "]" : config.bindAddress();
        return "jdbc:locusdb://" + host + ":" + port() + "/";
    }

    /** The metrics endpoint's port, or -1 when it is off. */
    public int metricsPort() {
        return metricsEndpoint == null ? -1 : metricsEndpoint.port();
    }

    public String metricsUrl() {
        return metricsEndpoint == null ? null : metricsEndpoint.url();
    }

    /** The open client connections (for tests and diagnostics). */
    List<Channel> connections() {
        return List.copyOf(channels);
    }

    /** Bytes Netty holds for all connections, written but not yet taken by their sockets (for tests and diagnostics). */
    long pendingOutboundBytes() {
        long total = 0;
        for (Channel ch : channels) {
            ChannelOutboundBuffer buffer = ch.unsafe().outboundBuffer();
            if (buffer != null) {
                total += buffer.totalPendingWriteBytes();
            }
        }
        return total;
    }

    ServerContext context() {
        return context;
    }

    public ServerMetrics metrics() {
        return metrics;
    }

    public ServerConfig config() {
        return config;
    }

    public LocusDB database() {
        return db;
    }

    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Shuts down with the configured grace period. */
    @Override
    public void close() {
        shutdown(config.shutdownGrace());
    }

    /**
     * Stops accepting, sends NOTICE 57P01 to every session, lets running statements finish until {@code grace}
     * has passed, cancels the rest (ERROR 57P01), closes every connection and then the database. Idempotent; a
     * second caller waits for the first to finish.
     */
    public void shutdown(Duration grace) {
        if (!stopping.compareAndSet(false, true)) {
            awaitQuietly();
            return;
        }
        long deadline = System.nanoTime() + grace.toNanos();
        try {
            serverChannel.close().syncUninterruptibly();
            if (pgChannel != null) {
                pgChannel.close().syncUninterruptibly();
            }
            context.draining().set(true);
            for (ClientSession session : context.sessions().all()) {
                session.shutdownNotice("the server is shutting down; running statements may finish within "
                        + grace.toMillis() + " ms");
            }
            waitUntilIdle(deadline);
            for (ClientSession session : context.sessions().all()) {
                session.stopResult(ResultStream.Stop.SHUTDOWN);
            }
            waitUntilIdle(System.nanoTime() + CANCEL_WAIT.toNanos());
            channels.close().awaitUninterruptibly(CANCEL_WAIT.toMillis());
            acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            if (metricsEndpoint != null) {
                metricsEndpoint.close();
            }
        } finally {
            try {
                db.close();
            } finally {
                terminated.countDown();
            }
        }
    }

    private void stopLoops() {
        acceptor.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 0, TimeUnit.SECONDS);
    }

    private void waitUntilIdle(long deadlineNanos) {
        while (System.nanoTime() < deadlineNanos
                && context.sessions().all().stream().anyMatch(ClientSession::busy)) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void awaitQuietly() {
        try {
            terminated.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String version() {
        String v = LocusServer.class.getPackage().getImplementationVersion();
        return "LocusDB " + (v == null ? "0.1.0-SNAPSHOT" : v);
    }
}
