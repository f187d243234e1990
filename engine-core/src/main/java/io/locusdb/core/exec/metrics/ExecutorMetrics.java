package io.locusdb.core.exec.metrics;

import io.locusdb.core.exec.ExecutorStats;
import io.locusdb.core.exec.NumaExecutor;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.HashSet;
import java.util.Set;

/**
 * Micrometer meters of one executor. Every meter reads the watchdog's latest {@link ExecutorStats}: the workers'
 * hot path only bumps its own counters, and scrapes cost nothing to the tasks. Per-class meters appear for the
 * classes that exist when {@link #bindTo} runs and for new ones at the next {@link #refresh}.
 */
public final class ExecutorMetrics implements MeterBinder {
    private final NumaExecutor executor;
    private final Set<String> boundClasses = new HashSet<>();
    private MeterRegistry registry;

    public ExecutorMetrics(NumaExecutor executor) {
        this.executor = executor;
    }

    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        this.registry = registry;
        gauge(registry, "locus.executor.concurrency.active", "workers minus blocked, waiting, inactive and parked",
                s -> s.activeConcurrency());
        gauge(registry, "locus.executor.concurrency.target", "hardware contexts (or allocated cores) to keep busy",
                s -> s.targetConcurrency());
        gauge(registry, "locus.executor.concurrency.hint", "smoothed free contexts offered to partitionable work",
                ExecutorStats::hint);
        gauge(registry, "locus.executor.workers", "worker threads", s -> s.workers());
        gauge(registry, "locus.executor.workers.parked", "parked workers", s -> s.parked());
        gauge(registry, "locus.executor.workers.blocked", "workers blocked in executor primitives", s -> s.blocked());
        gauge(registry, "locus.executor.workers.waiting", "workers waiting for another graph",
                s -> s.waitingForGraph());
        gauge(registry, "locus.executor.workers.inactive", "workers in declared inactive regions",
                s -> s.declaredInactive());
        int nodes = executor.topology().nodeCount();
        for (int n = 0; n < nodes; n++) {
            final int node = n;
            Tags tags = Tags.of("node", Integer.toString(n));
            Gauge.builder("locus.executor.pool.length", executor, e -> e.stats().poolLengthByNode()[node])
                    .description("ready tasks in the node's pools").tags(tags).register(registry);
            Gauge.builder("locus.executor.roots.length", executor, e -> e.stats().rootQueueByNode()[node])
                    .description("graphs waiting to start on the node").tags(tags).register(registry);
            FunctionCounter.builder("locus.executor.bytes", executor, e -> e.stats().bytesByNode()[node])
                    .description("bytes touched by tasks reading the node's data").baseUnit("bytes").tags(tags)
                    .register(registry);
            if (executor.coreAllocation() != null) {
                Gauge.builder("locus.executor.cores.allocated", executor,
                        e -> e.stats().allocatedCoresByNode()[node])
                        .description("cores allocated on the node (elastic mode)").tags(tags).register(registry);
            }
        }
        refresh();
    }

    /** Registers meters for task classes created since the last call. */
    public synchronized void refresh() {
        if (registry == null) {
            return;
        }
        int nodes = executor.topology().nodeCount();
        executor.taskClasses().all().forEach(taskClass -> {
            if (!boundClasses.add(taskClass.name())) {
                return;
            }
            int id = taskClass.id();
            Gauge.builder("locus.executor.class.throughput", taskClass, c -> c.averageThroughput())
                    .description("moving average of the class's memory throughput").baseUnit("bytes/s")
                    .tags("class", taskClass.name()).register(registry);
            for (int n = 0; n < nodes; n++) {
                final int node = n;
                Tags tags = Tags.of("class", taskClass.name(), "node", Integer.toString(n));
                FunctionCounter.builder("locus.executor.tasks.run", executor, e -> e.stats().tasksRun(node, id))
                        .description("tasks run by the node's workers").tags(tags).register(registry);
                FunctionCounter.builder("locus.executor.tasks.stolen", executor,
                                e -> e.stats().tasksStolen(node, id))
                        .description("tasks the node's workers stole from other nodes").tags(tags)
                        .register(registry);
            }
        });
    }

    private void gauge(MeterRegistry registry, String name, String description,
                       java.util.function.ToDoubleFunction<ExecutorStats> value) {
        Gauge.builder(name, executor, e -> value.applyAsDouble(e.stats())).description(description)
                .register(registry);
    }
}
