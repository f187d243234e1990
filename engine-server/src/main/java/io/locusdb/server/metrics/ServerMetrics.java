package io.locusdb.server.metrics;

import io.locusdb.core.LocusDB;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.metrics.ExecutorMetrics;
import io.locusdb.core.placer.PlacerEvent;
import io.locusdb.core.placer.PlacerEventLog;
import io.locusdb.core.placer.PlacerService;
import io.locusdb.core.placer.UtilizationTracker;
import io.locusdb.core.system.MemoryAccount;
import io.locusdb.core.system.NodeMemoryUse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The server's meters, next to the executor's: sessions and queries in flight (gauges), query latency (a timer
 * with a percentile histogram), bytes sent, frames received, errors by SQLSTATE and refused connections by reason.
 */
public final class ServerMetrics {
    private static final System.Logger LOG = System.getLogger(ServerMetrics.class.getName());
    private final MeterRegistry registry;
    private final AtomicInteger sessions = new AtomicInteger();
    private final AtomicInteger inflight = new AtomicInteger();
    private final Timer latency;
    private final Counter bytesSent;
    private final Counter framesReceived;
    private final ConcurrentMap<String, Counter> errors = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> rejected = new ConcurrentHashMap<>();
    private ExecutorMetrics executorMetrics;
    /** Done once the meters bound in the background are; a scrape waits for it. */
    private volatile CompletableFuture<Void> bound = CompletableFuture.completedFuture(null);

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

    /**
     * The database's meters: per node, the recent thread and memory-throughput utilization of tasks on their own
     * data and the table memory placed there; placer events by action, source and outcome; and the JVM's own
     * (memory, GC, threads, classes, CPU, uptime).
     */
    public void bindDatabase(LocusDB db) {
        PlacerService placer = db.placer();
        UtilizationTracker tracker = placer.tracker();
        for (int n = 0; n < tracker.nodes(); n++) {
            int node = n;
            String tag = Integer.toString(n);
            Gauge.builder("locus.node.threads", tracker, t -> t.nodeThreads(node).recentAverage()).tag("node", tag)
                    .description("threads running tasks on the node's own data, average over the placer period")
                    .register(registry);
            Gauge.builder("locus.node.memory.throughput", tracker, t -> t.nodeMemory(node).recentAverage())
                    .tag("node", tag).baseUnit("bytes_per_second")
                    .description("estimated memory throughput of those tasks, average over the placer period")
                    .register(registry);
            Gauge.builder("locus.node.memory.used", db, d -> NodeMemoryUse.of(d.catalog()).get(node).mappedBytes())
                    .tag("node", tag).baseUnit("bytes").description("table memory placed on the node")
                    .register(registry);
        }
        bindMemoryAccount(db);
        Gauge.builder("locus.placer.enabled", placer, p -> p.enabled() ? 1 : 0)
                .description("1 while the placer changes placements on its own").register(registry);
        PlacerEventLog events = placer.events();
        for (PlacerEvent.Action action : PlacerEvent.Action.values()) {
            for (String source : List.of(PlacerEvent.PLACER, PlacerEvent.OPERATOR)) {
                for (boolean done : new boolean[] {true, false}) {
                    FunctionCounter.builder("locus.placer.events", events, log -> log.count(action, source, done))
                            .tag("action", action.label()).tag("source", source)
                            .tag("outcome", done ? "done" : "failed")
                            .description("placement changes (moves, partitions, merges)").register(registry);
                }
            }
        }
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /**
     * {@code locus_memory_bytes{area, node}}: the lines of {@code locus_memory} (tables per node by kind, the JVM's
     * areas, resident memory), from one account per scrape: the first gauge read takes it, the others reuse it.
     */
    private void bindMemoryAccount(LocusDB db) {
        MemoryAccount first = MemoryAccount.now(db.catalog());
        AtomicReference<MemoryAccount> latest = new AtomicReference<>(first);
        AtomicLong takenAt = new AtomicLong(System.nanoTime());
        Supplier<MemoryAccount> account = () -> {
            long now = System.nanoTime();
            long at = takenAt.get();
            if (now - at > ACCOUNT_REUSE_NANOS && takenAt.compareAndSet(at, now)) {
                latest.set(MemoryAccount.now(db.catalog()));
            }
            return latest.get();
        };
        Set<String> seen = new HashSet<>();
        for (MemoryAccount.Line line : first.lines()) {
            String node = line.node() < 0 ? "" : Integer.toString(line.node());
            String detail = line.area().equals(MemoryAccount.NON_HEAP) || line.area().equals(MemoryAccount.BUFFERS)
                    ? line.detail() : "";
            if (!seen.add(line.area() + '/' + node + '/' + detail)) {
                continue;
            }
            Gauge.builder("locus.memory", account, a -> a.get().lines().stream()
                            .filter(l -> l.area().equals(line.area()) && l.node() == line.node()
                                    && (detail.isEmpty() || l.detail().equals(detail)))
                            .mapToLong(MemoryAccount.Line::bytes).sum())
                    .tags("area", line.area(), "node", node, "pool", detail, "counted_as", line.measure())
                    .strongReference(true).baseUnit("bytes").description("where the server's memory is (see locus_memory)")
                    .register(registry);
        }
    }

    /** Scrapes within this long of an account reuse it. */
    private static final long ACCOUNT_REUSE_NANOS = 1_000_000_000L;

    /**
     * Binds the executor's and the database's meters ({@link #bindExecutor}, {@link #bindDatabase}) on a thread of
     * their own, so that a server starting up need not wait for them; {@link #scrape} waits until they are bound.
     */
    public void bindInBackground(LocusDB db) {
        CompletableFuture<Void> binding = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("locus-metrics-binding").start(() -> {
            try {
                bindExecutor(db.executor());
                bindDatabase(db);
                binding.complete(null);
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.ERROR, "the database's meters could not be bound; /metrics shows the"
                        + " others", e);
                binding.complete(null);
            }
        });
        bound = binding;
    }

    public synchronized void bindExecutor(NumaExecutor executor) {
        executorMetrics = new ExecutorMetrics(executor);
        executorMetrics.bindTo(registry);
    }

    /** The Prometheus text exposition (after registering meters of task classes that appeared since). */
    public String scrape() {
        bound.join();
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
