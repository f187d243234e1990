package io.locusdb.core.durable;

import io.locusdb.core.durable.DataDirectoryException.Problem;
import io.locusdb.core.storage.placement.MoveStrategy;
import io.locusdb.core.storage.placement.PlacementJournal;
import io.locusdb.core.storage.placement.TableChange;
import io.locusdb.core.storage.placement.TablePlacementOps;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.CommitHook;
import io.locusdb.core.storage.table.IndexDefinition;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartDelta;
import io.locusdb.core.storage.table.PartPlacement;
import io.locusdb.core.storage.table.Replacement;
import io.locusdb.core.storage.table.RowValues;
import io.locusdb.core.storage.table.RowsChangedException;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TableGroup;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.table.ViewDefinition;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.topology.Topology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A database's data directory at run time: recovery on open, the write-ahead log for every committed change, and
 * checkpoints in the background.
 *
 * <p>Order: a row write logs its commit under the table's write lock, inside the shared side of {@link #gate}; DDL
 * runs and logs on the exclusive side, and so does a checkpoint's cut (rolling the log and taking every table's
 * snapshot). The log's order is therefore an order in which the changes can be redone, and a checkpoint holds exactly
 * the log segments before its cut. A commit is visible to other statements once it is applied and acknowledged once
 * it is on disk (per the {@link FsyncPolicy}); a crash between the two can take a commit that a concurrent reader saw
 * but that no client was told succeeded.
 *
 * <p>Layout: {@code LOCK}, {@code MANIFEST}, {@code log/NNNNNNNNNNNNNNNN.log}, {@code parts/N.part} and
 * {@code parts/N.delta}.
 */
public final class DurableStore implements AutoCloseable, PlacementJournal {
    private static final System.Logger LOG = System.getLogger(DurableStore.class.getName());
    /** How long the preload waits for running queries before it reads its next column anyway. */
    static final long PRELOAD_GIVES_WAY_NANOS = 100_000_000L;
    private static final long PRELOAD_POLL_NANOS = 1_000_000L;
    /**
     * The preload starts this long after the start, so that the first statements, which a client usually sends at
     * once, have the cores to themselves: begun together, it made the first Q6 after a restart 4 ms slower (38 against
     * 34 ms, SF 1, 2 cores of a Xeon, family 6 model 207), as each preloading thread was within a step when the query
     * came. A start with no client waiting loses nothing worth naming.
     */
    static final long PRELOAD_GRACE_NANOS = 50_000_000L;
    /**
     * The preload's share of a column between two looks at the running queries: two pieces, about a millisecond of
     * decompressing (a query that starts meanwhile waits at most that long for the cores).
     */
    private static final long PRELOAD_STEP_BYTES = 2 * ColumnLoad.PIECE;
    /** Beyond a few threads the preload is bound by memory bandwidth, not by cores. */
    private static final int PRELOAD_THREADS = 8;

    private final Durability settings;
    private final Path directory;
    private final Path logDirectory;
    private final Path partDirectory;
    private final Catalog catalog;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
    private final Object checkpointLock = new Object();
    private final ScheduledExecutorService checkpointTimer;
    private final AtomicBoolean checkpointRequested = new AtomicBoolean();
    private final RecoveryReport report;
    private WriteAheadLog log;
    private Manifest manifest;
    /** Part objects already on disk (main columns), so that a checkpoint writes only parts that changed. */
    private Map<TablePart, String> writtenParts = new IdentityHashMap<>();
    private Map<String, Long> lastFingerprint = Map.of();
    private long lastCheckpointNanos = System.nanoTime();
    private volatile boolean closed;
    private volatile boolean stopping;
    /**
     * The preload's threads, one per core up to {@link #PRELOAD_THREADS}: they go through the columns in the same
     * order and read the pieces of each that nobody has taken, so a column is read by all of them at once.
     */
    private final List<Thread> preloaders = new ArrayList<>();
    private final AtomicInteger preloadersRunning = new AtomicInteger();
    private volatile BooleanSupplier queriesRunning = () -> false;

    /** What the start found: tables, replayed records, and warnings (a torn log tail cut off). */
    public record RecoveryReport(int tables, long parts, long replayedRecords, List<String> warnings,
                                 double seconds) {
    }

    private DurableStore(Durability settings, Catalog catalog) {
        this.settings = settings;
        this.directory = settings.directory().toAbsolutePath();
        this.logDirectory = directory.resolve("log");
        this.partDirectory = directory.resolve("parts");
        this.catalog = catalog;
        try {
            Files.createDirectories(logDirectory);
            Files.createDirectories(partDirectory);
            lockChannel = FileChannel.open(directory.resolve("LOCK"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new DataDirectoryException(Problem.IO, directory, "cannot use as a data directory: "
                    + e.getMessage(), e);
        }
        FileLock acquired;
        try {
            acquired = lockChannel.tryLock();
        } catch (IOException | OverlappingFileLockException e) {
            acquired = null;
        }
        if (acquired == null) {
            closeQuietly(lockChannel);
            throw new DataDirectoryException(Problem.IN_USE, directory, "the data directory is in use by another"
                    + " LocusDB (its LOCK file is held)");
        }
        lock = acquired;
        try {
            report = recover();
        } catch (RuntimeException | Error e) {
            // A start that stops (a damaged log after a good checkpoint, say) leaves nothing allocated.
            for (Table t : catalog.tables()) {
                catalog.drop(t.name());
            }
            if (log != null) {
                log.close();
            }
            releaseLock();
            throw e;
        }
        checkpointTimer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("locus-checkpoint").daemon().factory());
        checkpointTimer.scheduleWithFixedDelay(this::checkpointIfDue, 1, 1, TimeUnit.SECONDS);
        int threads = Math.max(1, Math.min(PRELOAD_THREADS, Runtime.getRuntime().availableProcessors()));
        for (int t = 0; t < threads; t++) {
            preloaders.add(Thread.ofPlatform().name("locus-preload-" + t).daemon().unstarted(this::preload));
        }
    }

    /**
     * Starts reading the checkpoint's remaining columns into memory in the background ({@link #preload}), after
     * {@link #PRELOAD_GRACE_NANOS}. While {@code queriesRunning} says so, it waits before each piece of a column (up to
     * {@link #PRELOAD_GIVES_WAY_NANOS}), so that the first statements after a start, which plan and read their own
     * columns, do not share the cores with it.
     */
    public void startPreload(BooleanSupplier queriesRunning) {
        this.queriesRunning = queriesRunning;
        preloadersRunning.set(preloaders.size());
        preloaders.forEach(Thread::start);
    }

    /**
     * Reads every column the first queries did not ask for yet, table by table, so that the database is ready at
     * once and wholly in memory soon after. A column that a query wants first is read by that query (each column
     * once). A part file damaged since the start is logged here, and the queries that read it fail naming it.
     */
    private void preload() {
        long start = System.nanoTime();
        long grace = start + PRELOAD_GRACE_NANOS;
        while (!stopping && System.nanoTime() - grace < 0) {
            LockSupport.parkNanos(PRELOAD_POLL_NANOS);
        }
        for (Table table : catalog.tables()) {
            try (TableSnapshot snapshot = table.snapshot()) {
                for (TablePart part : snapshot.parts()) {
                    for (int c = 0; c < table.schema().size() && !part.isLoaded(); c++) {
                        do {
                            giveWay();
                            if (stopping) {
                                return;
                            }
                        } while (!part.loadSome(c, PRELOAD_STEP_BYTES));
                    }
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "could not read table " + table.name() + " into memory: "
                        + e.getMessage(), e);
            }
        }
        if (preloadersRunning.decrementAndGet() == 0) {
            LOG.log(System.Logger.Level.DEBUG, () -> String.format(Locale.ROOT,
                    "the checkpoint's columns are in memory (%.2f s after the start)",
                    (System.nanoTime() - start) / 1e9));
        }
    }

    /**
     * Waits while statements are planned or run, but not for ever: under a load that never pauses the preload still
     * goes on, a piece at a time, and queries read what they need themselves meanwhile.
     */
    private void giveWay() {
        long until = System.nanoTime() + PRELOAD_GIVES_WAY_NANOS;
        while (!stopping && queriesRunning.getAsBoolean() && System.nanoTime() - until < 0) {
            LockSupport.parkNanos(PRELOAD_POLL_NANOS);
        }
    }

    /**
     * Waits until every column of the checkpoint is in memory (tests and benchmarks that time scans). Returns at once
     * when the preload was never started.
     */
    public void awaitPreload() throws InterruptedException {
        for (Thread preloader : preloaders) {
            preloader.join();
        }
    }

    /**
     * Opens a data directory: locks it, loads the last checkpoint's parts into memory on their nodes, replays the log
     * after it, and starts a new log segment. Tables land in {@code catalog}.
     */
    public static DurableStore open(Durability settings, Catalog catalog) {
        return new DurableStore(settings, catalog);
    }

    public RecoveryReport recoveryReport() {
        return report;
    }

    public Path directory() {
        return directory;
    }

    // ---------------------------------------------------------------- recovery

    private RecoveryReport recover() {
        long start = System.nanoTime();
        Path manifestFile = directory.resolve(Manifest.FILE);
        List<Long> segments = LogFormat.segments(logDirectory);
        if (Files.exists(manifestFile)) {
            manifest = Manifest.read(manifestFile);
        } else {
            if (hasFiles(partDirectory)) {
                throw new DataDirectoryException(Problem.BAD_MANIFEST, manifestFile, "the manifest is missing but"
                        + " the directory holds part files: refusing to start on an empty database");
            }
            if (!segments.isEmpty() && segments.getFirst() != 1) {
                throw new DataDirectoryException(Problem.BAD_MANIFEST, manifestFile, "the manifest is missing but"
                        + " the log starts at segment " + segments.getFirst() + ": earlier data is gone");
            }
            manifest = Manifest.empty();
        }
        List<String> warnings = new ArrayList<>();
        long parts = loadCheckpoint();
        long replayed = 0;
        List<Long> toReplay = segments.stream().filter(s -> s >= manifest.logStart()).toList();
        // The segments at the log's end that hold no record: each start without a write leaves one.
        List<Long> emptyTail = new ArrayList<>();
        for (int i = 0; i < toReplay.size(); i++) {
            long number = toReplay.get(i);
            if (i == 0 && number != manifest.logStart() || i > 0 && number != toReplay.get(i - 1) + 1) {
                throw new DataDirectoryException(Problem.CORRUPT_LOG, WriteAheadLog.segmentFile(logDirectory,
                        i == 0 ? manifest.logStart() : toReplay.get(i - 1) + 1), "log segment is missing");
            }
            LogFormat.Segment segment = LogFormat.read(WriteAheadLog.segmentFile(logDirectory, number), number,
                    i == toReplay.size() - 1);
            if (segment.warning() != null) {
                warnings.add(segment.warning());
                LOG.log(System.Logger.Level.WARNING, segment.warning());
            }
            for (LogRecord record : segment.records()) {
                redo(record, WriteAheadLog.segmentFile(logDirectory, number));
                replayed++;
            }
            if (segment.records().isEmpty() && segment.validBytes() == LogFormat.SEGMENT_HEADER) {
                emptyTail.add(number);
            } else {
                emptyTail.clear();
            }
        }
        long next = Math.max(manifest.logStart(), segments.isEmpty() ? 1 : segments.getLast() + 1);
        if (!emptyTail.isEmpty()) {
            // Written over from the first of them: restarts without writes do not pile up segments to read.
            next = removeEmptySegments(emptyTail);
        }
        try {
            log = WriteAheadLog.open(logDirectory, settings.fsync(), next);
        } catch (IOException e) {
            throw new DataDirectoryException(Problem.IO, logDirectory, "cannot start the log: " + e.getMessage(), e);
        }
        lastFingerprint = replayed == 0 ? fingerprint() : Map.of();
        return new RecoveryReport(catalog.tables().size(), parts, replayed, List.copyOf(warnings),
                (System.nanoTime() - start) / 1e9);
    }

    /**
     * Deletes record-less segments at the log's end, last first, so that the log never has a gap, and returns the
     * number the new segment takes: the first deleted one's. The directory is synced between two deletions (only a
     * directory written by older versions, or a failed deletion, leaves more than one): a crash must not keep an
     * earlier deletion and lose a later one. A single deletion needs no sync: kept or lost, it leaves no gap.
     */
    private long removeEmptySegments(List<Long> numbers) {
        for (int i = numbers.size() - 1; i >= 0; i--) {
            Path file = WriteAheadLog.segmentFile(logDirectory, numbers.get(i));
            try {
                if (i < numbers.size() - 1) {
                    LogFormat.syncDirectory(logDirectory);
                }
                Files.delete(file);
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "could not remove the empty log segment " + file + ": "
                        + e.getMessage());
                return numbers.get(i) + 1;
            }
        }
        return numbers.getFirst();
    }

    private static boolean hasFiles(Path dir) {
        try (var files = Files.list(dir)) {
            return files.findAny().isPresent();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Opens every part the manifest lists: first each part's table of contents and memory, then checks every
     * segment of every part at once on a pool (a checkpoint of one big part checks as fast as one of many), then
     * registers the tables. Their columns are read into memory on first use, and by {@link #preload} right after
     * the start. On any failure nothing stays allocated.
     */
    private long loadCheckpoint() {
        NodeMemory memory = catalog.memory();
        Topology topology = memory.topology();
        for (String group : manifest.groups()) {
            catalog.createGroup(group);
        }
        List<List<PartFile.Pending>> pending = new ArrayList<>();
        List<TablePart> finished = new ArrayList<>();
        int threads = Math.max(1, Math.min(16, Runtime.getRuntime().availableProcessors()));
        ExecutorService pool = Executors.newFixedThreadPool(threads,
                Thread.ofPlatform().name("locus-recovery-", 0).daemon().factory());
        List<Future<?>> reads = new ArrayList<>();
        try {
            for (Manifest.TableEntry entry : manifest.tables()) {
                List<PartFile.Pending> tableParts = new ArrayList<>();
                pending.add(tableParts);
                for (int p = 0; p < entry.parts().size(); p++) {
                    Manifest.PartEntry part = entry.parts().get(p);
                    PartDelta delta = part.deltaFile() == null ? new PartDelta() : restoredDelta(part.deltaFile());
                    // The machine may have fewer nodes than the one that wrote the checkpoint: then the placement
                    // policy picks.
                    PartPlacement placement = part.node() < topology.nodeCount() ? PartPlacement.boundTo(part.node())
                            : new InitialPlacement.RoundRobin().place(p, topology);
                    Path file = partDirectory.resolve(part.mainFile());
                    PartFile.Pending opened = PartFile.open(file, p, entry.schema(), memory, placement, delta);
                    tableParts.add(opened);
                    if (opened.rows() != part.rows()) {
                        throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "holds " + opened.rows()
                                + " rows; the manifest says " + part.rows());
                    }
                    for (Runnable check : opened.checks()) {
                        reads.add(pool.submit(check));
                    }
                }
            }
            RuntimeException failure = null;
            for (Future<?> read : reads) {
                try {
                    read.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    failure = failure != null ? failure : e.getCause() instanceof RuntimeException r ? r
                            : new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure = new IllegalStateException("interrupted while loading the checkpoint");
                }
            }
            if (failure != null) {
                throw failure;
            }
            for (List<PartFile.Pending> tableParts : pending) {
                for (PartFile.Pending part : tableParts) {
                    part.verify();
                }
            }
            long parts = 0;
            for (int t = 0; t < manifest.tables().size(); t++) {
                Manifest.TableEntry entry = manifest.tables().get(t);
                List<TablePart> tableParts = new ArrayList<>();
                for (PartFile.Pending part : pending.get(t)) {
                    TablePart built = part.finish();
                    finished.add(built);
                    tableParts.add(built);
                }
                Table table = new Table(entry.name(), entry.schema(), entry.spec(), tableParts, entry.rangeBounds());
                table.defaults(entry.defaults());
                catalog.register(table);
                if (entry.group() != null) {
                    catalog.group(entry.group()).add(table);
                }
                for (TablePart part : tableParts) {
                    writtenParts.put(part, entry.parts().get(part.index()).mainFile());
                }
                parts += tableParts.size();
            }
            for (ViewDefinition view : manifest.views()) {
                catalog.createView(view, true);
            }
            for (IndexDefinition index : manifest.indexes()) {
                catalog.restoreIndex(index);
            }
            return parts;
        } catch (RuntimeException | Error e) {
            // No read may still be writing into memory that is freed below.
            for (Future<?> read : reads) {
                try {
                    read.get();
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.CancellationException
                         | InterruptedException ignored) {
                    // already failing; the first failure is the one reported
                }
            }
            Set<TablePart> registered = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
            for (Table t : catalog.tables()) {
                registered.addAll(t.version().parts());
                catalog.drop(t.name());
            }
            Set<Object> finishedMemory = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
            for (TablePart part : finished) {
                finishedMemory.add(part.memory());
                if (!registered.contains(part)) {
                    part.release();
                }
            }
            for (List<PartFile.Pending> tableParts : pending) {
                for (PartFile.Pending part : tableParts) {
                    if (!finishedMemory.contains(part.memory())) {
                        part.abandon();
                    }
                }
            }
            throw e;
        } finally {
            pool.shutdownNow();
        }
    }

    private PartDelta restoredDelta(String name) {
        DeltaFile.Content content = DeltaFile.read(partDirectory.resolve(name));
        return PartDelta.restored(content.rows(), content.deletedRows());
    }

    private void redo(LogRecord record, Path segment) {
        try {
            switch (record) {
                case LogRecord.CreateTable c -> catalog.createTable(c.name(), c.schema(), c.spec(),
                        new InitialPlacement.RoundRobin(), c.group(), c.rangeBounds());
                case LogRecord.DropTable d -> catalog.drop(d.name());
                case LogRecord.CreateGroup g -> catalog.createGroup(g.name());
                case LogRecord.DropGroup g -> catalog.dropGroup(g.name());
                case LogRecord.CreateView v -> catalog.createView(v.view(), true);
                case LogRecord.DropView v -> catalog.dropView(v.name());
                case LogRecord.CreateIndex i -> catalog.createIndex(i.index());
                case LogRecord.DropIndex i -> catalog.dropIndex(i.name());
                case LogRecord.ColumnDefaults d -> catalog.table(d.table()).defaults(d.defaults());
                case LogRecord.Insert i -> catalog.table(i.table()).insert(i.rows());
                case LogRecord.Replace r -> catalog.table(r.table()).replace(r.removed(), r.added(),
                        CommitHook.NONE);
                case LogRecord.Placement p -> {
                    TablePlacementOps ops = new TablePlacementOps(catalog.memory(),
                            Runtime.getRuntime().availableProcessors(), MoveStrategy.COPY);
                    for (TableChange change : p.changes()) {
                        ops.redo(catalog.table(change.table()), change.change());
                    }
                }
            }
        } catch (IllegalArgumentException | IllegalStateException | RowsChangedException e) {
            throw new DataDirectoryException(Problem.CORRUPT_LOG, segment, "a record does not apply to the"
                    + " checkpoint's tables (" + e.getMessage() + ")", e);
        }
    }

    // ---------------------------------------------------------------- logging

    /**
     * Runs a catalog change (DDL) exclusively, logs {@code record} of its result, and returns once the record is
     * durable. A change that fails logs nothing.
     */
    public <T> T change(Supplier<T> action, Function<T, List<LogRecord>> records) {
        long position;
        T result;
        gate.writeLock().lock();
        try {
            checkOpen();
            result = action.get();
            position = -1;
            for (LogRecord record : records.apply(result)) {
                position = log.append(record.encode());
            }
        } finally {
            gate.writeLock().unlock();
        }
        if (position >= 0) {
            log.awaitDurable(position);
        }
        return result;
    }

    /** Inserts rows as one commit, logged; returns once the commit is durable. */
    public long insert(Table table, List<Object[]> rows) {
        long[] position = {-1};
        gate.readLock().lock();
        try {
            checkOpen();
            table.insert(rows, stored -> position[0] = log.append(
                    new LogRecord.Insert(table.name(), stored).encode()));
        } finally {
            gate.readLock().unlock();
        }
        log.awaitDurable(position[0]);
        return rows.size();
    }

    /**
     * Removes and adds rows as one logged commit (DELETE, UPDATE); returns once it is durable. {@code compute} runs
     * with the table's write lock held, so the rows it reads (through a query) are still there when they are
     * removed: no other writer runs in between.
     */
    public Replacement replace(Table table, Supplier<Replacement> compute) {
        long[] position = {-1};
        Replacement replacement;
        gate.readLock().lock();
        try {
            checkOpen();
            table.maintenanceLock().lock();
            try {
                replacement = compute.get();
                List<Object[]> removed = new ArrayList<>(replacement.removed().size());
                for (Object[] row : replacement.removed()) {
                    removed.add(RowValues.normalize(table.schema(), row));
                }
                table.replace(removed, replacement.added(), stored -> position[0] = log.append(
                        new LogRecord.Replace(table.name(), removed, stored).encode()));
            } finally {
                table.maintenanceLock().unlock();
            }
        } finally {
            gate.readLock().unlock();
        }
        log.awaitDurable(position[0]);
        return replacement;
    }

    /**
     * Runs a placement operation and logs the changes it installed as one record; returns (or rethrows) once that
     * record is durable. The gate is held throughout, taken before any table's lock as writers take it, so no
     * checkpoint cut falls between a change and its record: a split is then never both in a checkpoint and redone
     * from the log after it.
     */
    @Override
    public <T> T record(Function<List<TableChange>, T> operation) {
        List<TableChange> changes = new ArrayList<>();
        long position = -1;
        T result;
        gate.readLock().lock();
        try {
            checkOpen();
            try {
                result = operation.apply(changes);
            } finally {
                if (!changes.isEmpty()) {
                    position = log.append(new LogRecord.Placement(changes).encode());
                }
            }
        } finally {
            gate.readLock().unlock();
            if (position >= 0) {
                log.awaitDurable(position);
            }
        }
        return result;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the database is closed");
        }
    }

    // ---------------------------------------------------------------- checkpoints

    /** Asks for a checkpoint soon (after a delta merge, say); the background thread takes it. */
    public void requestCheckpoint() {
        checkpointRequested.set(true);
    }

    private void checkpointIfDue() {
        if (closed) {
            return;
        }
        try {
            boolean due = checkpointRequested.getAndSet(false)
                    || log.segmentBytes() >= settings.checkpointLogBytes()
                    || System.nanoTime() - lastCheckpointNanos >= settings.checkpointIntervalMs() * 1_000_000L
                    && !fingerprint().equals(lastFingerprint);
            if (due) {
                checkpoint();
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "checkpoint failed (the log keeps every change): "
                    + e.getMessage(), e);
        }
    }

    /** What a checkpoint would hold: each table's version and commit. Equal fingerprints: nothing to write. */
    private Map<String, Long> fingerprint() {
        Map<String, Long> print = new HashMap<>();
        for (Table t : catalog.tables()) {
            long nodes = 0;
            for (TablePart part : t.version().parts()) {
                // A part whose pages migrated keeps its version: its node is part of what a checkpoint holds.
                nodes = nodes * 31 + part.homeNode();
            }
            print.put(t.name(), (t.version().number() * 1_000_003L + t.committed()) * 31 + nodes);
        }
        for (TableGroup g : catalog.groups()) {
            print.put("group:" + g.name(), 0L);
        }
        for (ViewDefinition v : catalog.views()) {
            print.put("view:" + v.name(), (long) v.sql().hashCode());
        }
        for (IndexDefinition i : catalog.indexes()) {
            print.put("index:" + i.name(), (long) i.hashCode());
        }
        return print;
    }

    /**
     * Writes a checkpoint now and returns once its manifest is in place: every table's parts (those not written
     * before) and deltas, then the manifest, then the log segments and files it replaces are deleted. Queries and
     * writers wait only for the cut, not for the files.
     */
    public void checkpoint() {
        checkpoint(null);
    }

    /**
     * A checkpoint that includes a change not in the log: {@code change} (a bulk load putting its tables in place)
     * runs at the cut, and writers wait until the manifest holding it is in place. So no logged statement can
     * depend on the change unless the change is on disk: a crash before that leaves neither. If {@code change}
     * throws, nothing is written.
     */
    public void checkpointWith(Runnable change) {
        checkpoint(change);
    }

    private void checkpoint(Runnable change) {
        synchronized (checkpointLock) {
            checkOpen();
            List<TableSnapshot> snapshots = new ArrayList<>();
            List<String> groups = new ArrayList<>();
            List<ViewDefinition> views;
            List<IndexDefinition> indexes;
            long logStart;
            Map<String, Long> print;
            gate.writeLock().lock();
            boolean exclusive = true;
            try {
                if (change != null) {
                    change.run();
                }
                logStart = log.roll();
                for (Table table : catalog.tables()) {
                    snapshots.add(table.snapshot());
                }
                for (TableGroup g : catalog.groups()) {
                    groups.add(g.name());
                }
                views = catalog.views();
                indexes = catalog.indexes();
                print = fingerprint();
            } catch (RuntimeException | Error e) {
                gate.writeLock().unlock();
                snapshots.forEach(TableSnapshot::close);
                throw e;
            }
            if (change == null) {
                gate.writeLock().unlock();
                exclusive = false;
            }
            try {
                long nextFile = manifest.nextFileId();
                Map<TablePart, String> written = new IdentityHashMap<>();
                List<Manifest.TableEntry> tables = new ArrayList<>();
                for (TableSnapshot snapshot : snapshots) {
                    List<Manifest.PartEntry> parts = new ArrayList<>();
                    for (TablePart part : snapshot.parts()) {
                        String main = writtenParts.get(part);
                        if (main == null) {
                            main = (nextFile++) + ".part";
                            PartFile.write(partDirectory.resolve(main), part);
                        }
                        written.put(part, main);
                        String delta = null;
                        int deltaRows = snapshot.deltaRows(part);
                        List<Long> deleted = part.delta().deletedRows(snapshot.commit());
                        if (deltaRows > 0 || !deleted.isEmpty()) {
                            List<Object[]> rows = new ArrayList<>(deltaRows);
                            for (int r = 0; r < deltaRows; r++) {
                                rows.add(part.delta().row(r));
                            }
                            delta = (nextFile++) + ".delta";
                            DeltaFile.write(partDirectory.resolve(delta), new DeltaFile.Content(rows, deleted));
                        }
                        parts.add(new Manifest.PartEntry(part.homeNode(), main, part.rows(), delta));
                    }
                    Table t = snapshot.table();
                    tables.add(new Manifest.TableEntry(t.name(), t.group(), t.schema(), snapshot.version().spec(),
                            snapshot.version().rangeBounds(), parts, t.defaults()));
                }
                LogFormat.syncDirectory(partDirectory);
                Manifest next = new Manifest(manifest.checkpoint() + 1, logStart, nextFile, groups, tables,
                        views, indexes);
                next.install(directory);
                manifest = next;
                writtenParts = written;
                lastFingerprint = print;
                lastCheckpointNanos = System.nanoTime();
                deleteReplaced(next);
            } catch (IOException e) {
                throw new UncheckedIOException("checkpoint into " + directory + " failed: " + e.getMessage(), e);
            } finally {
                if (exclusive) {
                    gate.writeLock().unlock();
                }
                snapshots.forEach(TableSnapshot::close);
            }
        }
    }

    /** Deletes the log segments before the checkpoint and the part files it no longer lists. */
    private void deleteReplaced(Manifest current) throws IOException {
        for (long segment : LogFormat.segments(logDirectory)) {
            if (segment < current.logStart()) {
                Files.deleteIfExists(WriteAheadLog.segmentFile(logDirectory, segment));
            }
        }
        Set<String> live = new HashSet<>();
        for (Manifest.TableEntry t : current.tables()) {
            for (Manifest.PartEntry p : t.parts()) {
                live.add(p.mainFile());
                if (p.deltaFile() != null) {
                    live.add(p.deltaFile());
                }
            }
        }
        try (var files = Files.list(partDirectory)) {
            for (Path f : files.toList()) {
                if (!live.contains(f.getFileName().toString())) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    /** Takes a last checkpoint when anything changed (so the next start replays nothing), then lets go. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        stopping = true;
        try {
            awaitPreload();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        checkpointTimer.shutdownNow();
        try {
            checkpointTimer.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            if (!fingerprint().equals(lastFingerprint)) {
                checkpoint();
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "last checkpoint failed (the log keeps every change): "
                    + e.getMessage(), e);
        } finally {
            closed = true;
            gate.writeLock().lock();
            try {
                log.close();
            } finally {
                gate.writeLock().unlock();
                releaseLock();
            }
        }
    }

    private void releaseLock() {
        try {
            lock.release();
        } catch (IOException e) {
            // The channel's close below releases it too.
        }
        closeQuietly(lockChannel);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing left to do
        }
    }
}
