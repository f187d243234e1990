package io.locusdb.core;

import io.locusdb.core.cpu.KernelSelection;
import io.locusdb.core.cpu.Kernels;
import io.locusdb.core.durable.DurableStore;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.placer.AdaptiveDataPlacer;
import io.locusdb.core.placer.PlacementActions;
import io.locusdb.core.placer.PlacerEventLog;
import io.locusdb.core.placer.PlacerService;
import io.locusdb.core.placer.UtilizationHistory;
import io.locusdb.core.placer.UtilizationTracker;
import io.locusdb.core.query.QueryEngine;
import io.locusdb.core.query.QueryLog;
import io.locusdb.core.system.PgCatalogTables;
import io.locusdb.core.system.SystemTables;
import io.locusdb.core.sql.SystemTable;
import io.locusdb.core.storage.placement.DeltaMergeService;
import io.locusdb.core.storage.placement.PlacementJournal;
import io.locusdb.core.storage.placement.TablePlacementOps;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.Table;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.topology.Topology;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
    private final DeltaMergeService deltaMerge;
    private final PlacerService placer;
    private final DurableStore store;

    private static final System.Logger LOG = System.getLogger(LocusDB.class.getName());

    private LocusDB(LocusConfig config) {
        // An invalid kernel setting (locus.kernels, locus.kernel.*) refuses the start, naming the setting.
        KernelSelection kernels = Kernels.selection();
        this.config = config;
        // DEBUG: every embedded open (and every test) would print it; ./locus serve prints the calibration itself.
        LOG.log(System.Logger.Level.DEBUG, "LocusDB on " + config.topology() + "; "
                + config.calibrationSummary() + "; kernels: vectors " + kernels.width().setting() + ", PEXT "
                + (kernels.pext() ? "used" : "not used"));
        this.memory = new NodeMemory(config.topology());
        this.catalog = new Catalog(memory);
        // Recovery fills the catalog before anything else runs: no query or placer sees a half-loaded database.
        this.store = config.durability() == null ? null : DurableStore.open(config.durability(), catalog);
        try {
            this.executor = NumaExecutor.start(config.executorConfig());
            UtilizationTracker tracker = new UtilizationTracker(catalog, config.placer().periodMillis() * 1000,
                    UtilizationHistory.DEFAULT_CAPACITY);
            PlacerEventLog placerEvents = new PlacerEventLog();
            if (store != null) {
                // Each change is in the log; a checkpoint soon after it keeps the next start from redoing the copy.
                placerEvents.addListener(event -> store.requestCheckpoint());
            }
            PlacementActions actions = new PlacementActions(catalog,
                    new TablePlacementOps(memory, config.loadThreads(), config.placer().move()),
                    placerEvents, Clock.systemUTC(), store == null ? PlacementJournal.NONE : store);
            this.placer = new PlacerService(tracker, new AdaptiveDataPlacer(config.placerParameters()), actions,
                    config.placer());
            QueryLog queryLog = new QueryLog(QueryLog.DEFAULT_CAPACITY);
            List<SystemTable> systemTables = new ArrayList<>(new SystemTables(catalog, placer, queryLog).all());
            systemTables.addAll(new PgCatalogTables(catalog, List.copyOf(systemTables)).all());
            this.engine = new QueryEngine(catalog, executor, config.loadThreads(), config.batchRows(), tracker, actions,
                    systemTables, store, queryLog);
            if (store != null) {
                store.startPreload(engine::busy);
            }
            LocusConfig.DeltaMerge merge = config.deltaMerge();
            this.deltaMerge = merge == null ? null : new DeltaMergeService(catalog,
                    new TablePlacementOps(memory, config.loadThreads()), merge.minRows(), merge.fraction(),
                    merge.intervalMillis(), store == null ? () -> { } : store::requestCheckpoint);
        } catch (RuntimeException | Error e) {
            // A start that fails after the data directory opened lets go of it (its lock, timer and preload) and
            // of the tables it loaded.
            if (store != null) {
                store.close();
            }
            for (Table t : catalog.tables()) {
                catalog.drop(t.name());
            }
            throw e;
        }
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

    /**
     * True while a statement is being planned or a query's tasks run: background work that can wait gives way
     * then.
     */
    public boolean busy() {
        return engine.busy();
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

    /** Parts the background delta merge has rebuilt so far (0 when it is off). */
    public long deltaMerges() {
        return deltaMerge == null ? 0 : deltaMerge.mergesDone();
    }

    /** Ad-hoc queries whose plan came from the plan cache, and those planned afresh: {@code {hits, misses}}. */
    public long[] planCacheHitsAndMisses() {
        return engine.planCacheHitsAndMisses();
    }

    /** The last statements with their planning and running times ({@code locus_query_log}). */
    public QueryLog queryLog() {
        return engine.queryLog();
    }

    /** The data directory's log and checkpoints; empty when the database lives in memory only. */
    public Optional<DurableStore> durableStore() {
        return Optional.ofNullable(store);
    }

    /** The placer: utilization histories, placement events, and the switch that turns placing on and off. */
    public PlacerService placer() {
        return placer;
    }

    /** Stops the executor (running queries are cancelled) and frees every table's memory. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            placer.close();
            if (deltaMerge != null) {
                deltaMerge.close();
            }
            if (store != null) {
                store.close();
            }
            executor.close();
        } finally {
            for (Table table : catalog.tables()) {
                catalog.drop(table.name());
            }
        }
    }
}
