package io.locusdb.server.metrics;

import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.metrics.ExecutorMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's meters, next to the executor's: sessions and queries in flight (gauges), query latency (a timer
 * with a percentile histogram), bytes sent, frames received, errors by SQLSTATE and refused connections by reason.
 */
public final class ServerMetrics {
    private final MeterRegistry registry;
    private final AtomicInteger sessions = new AtomicInteger();
    private final AtomicInteger inflight = new AtomicInteger();
    private final Timer latency;
    private final Counter bytesSent;
    private final Counter framesReceived;
    private final ConcurrentMap<String, Counter> errors = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> rejected = new ConcurrentHashMap<>();
    private ExecutorMetrics executorMetrics;

    public ServerMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("locus.sessions", sessions, AtomicInteger::get).description("open sessions")
                .register(registry);
        Gauge.builder("locus.queries.inflight", inflight, AtomicInteger::get)
                .description("statements running or streaming their result").register(registry);
        latency = Timer.builder("locus.query.latency").description("statement time, from start to the last frame")
                .publishPercentileHistogram().register(registry);
        bytesSent = Counter.builder("locus.bytes.sent").baseUnit("bytes").description("bytes written to clients")
                .register(registry);
        framesReceived = Counter.builder("locus.frames.received").description("frames read from clients")
                .register(registry);
    }

    public static ServerMetrics prometheus() {
        return new ServerMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    public MeterRegistry registry() {
        return registry;
    }

    public synchronized void bindExecutor(NumaExecutor executor) {
        executorMetrics = new ExecutorMetrics(executor);
        executorMetrics.bindTo(registry);
    }

    /** The Prometheus text exposition (after registering meters of task classes that appeared since). */
    public String scrape() {
        synchronized (this) {
            if (executorMetrics != null) {
                executorMetrics.refresh();
            }
        }
        if (registry instanceof PrometheusMeterRegistry prometheus) {
            return prometheus.scrape();
        }
        throw new IllegalStateException("not a Prometheus registry");
    }

    public void sessionOpened() {
        sessions.incrementAndGet();
    }

    public void sessionClosed() {
        sessions.decrementAndGet();
    }

    public int sessions() {
        return sessions.get();
    }

    public int queriesInflight() {
        return inflight.get();
    }

    /** Marks a statement running; the returned sample is passed to {@link #queryFinished}. */
    public Timer.Sample queryStarted() {
        inflight.incrementAndGet();
        return Timer.start(registry);
    }

    public void queryFinished(Timer.Sample sample) {
        inflight.decrementAndGet();
        sample.stop(latency);
    }

    public void bytesSent(long bytes) {
        bytesSent.increment(bytes);
    }

    public void frameReceived() {
        framesReceived.increment();
    }

    public void error(String sqlState) {
        errors.computeIfAbsent(sqlState, code -> Counter.builder("locus.errors").tag("code", code)
                .description("ERROR frames sent, by SQLSTATE").register(registry)).increment();
    }

    public void connectionRejected(String reason) {
        rejected.computeIfAbsent(reason, r -> Counter.builder("locus.connections.rejected").tag("reason", r)
                .description("connections refused (session limit, authentication, shutdown)").register(registry))
                .increment();
    }
}
