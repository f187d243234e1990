package io.locusdb.core;

import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.query.QueryEngine;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.Table;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.topology.Topology;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An in-process LocusDB: a catalog of node-placed tables, the NUMA executor that runs queries on them, and
 * sessions that take the same SQL the server accepts.
 *
 * <pre>{@code
 * try (LocusDB db = LocusDB.open(LocusConfig.defaults()); Session s = db.connect()) {
 *     s.execute("LOAD TPCH SCALE 0.1");
 *     try (QueryResult r = s.execute("SELECT count(*) FROM lineitem")) { ... }
 * }
 * }</pre>
 */
public final class LocusDB implements AutoCloseable {
    private final LocusConfig config;
    private final NodeMemory memory;
    private final Catalog catalog;
    private final NumaExecutor executor;
    private final QueryEngine engine;
    private final AtomicBoolean closed = new AtomicBoolean();

    private LocusDB(LocusConfig config) {
        this.config = config;
        this.memory = new NodeMemory(config.topology());
        this.catalog = new Catalog(memory);
        this.executor = NumaExecutor.start(config.executorConfig());
        this.engine = new QueryEngine(catalog, executor, config.loadThreads(), config.batchRows());
    }

    public static LocusDB open(LocusConfig config) {
        return new LocusDB(config);
    }

    /** A new session; sessions are cheap, each used by one thread at a time. */
    public Session connect() {
        if (closed.get()) {
            throw new IllegalStateException("the database is closed");
        }
        return new Session(engine);
    }

    public LocusConfig config() {
        return config;
    }

    public Topology topology() {
        return config.topology();
    }

    public NodeMemory memory() {
        return memory;
    }

    public Catalog catalog() {
        return catalog;
    }

    public NumaExecutor executor() {
        return executor;
    }

    /** Stops the executor (running queries are cancelled) and frees every table's memory. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            executor.close();
        } finally {
            for (Table table : catalog.tables()) {
                catalog.drop(table.name());
            }
        }
    }
}
