package io.locusdb.core.storage.placement;

import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.load.PartAssembler;
import io.locusdb.core.storage.table.PartitionRouter;
import io.locusdb.core.storage.table.PartDelta;
import io.locusdb.core.storage.table.PartMemory;
import io.locusdb.core.storage.table.PartPlacement;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TableGroup;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TablePartBuilder;
import io.locusdb.core.storage.table.TableVersion;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.memory.NodeSegment;
import io.locusdb.natives.memory.PageMoveReport;
import io.locusdb.natives.memory.PageMoves;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The placer's actuators: move a table part (or table-group part) to a node, double a table's parts, merge a table
 * into one part. All run online: new parts are built beside the old ones and installed atomically; queries keep
 * reading the snapshot they took and never wait. Operations on one table are serialized.
 */
public final class TablePlacementOps {
    private static final Logger LOG = System.getLogger(TablePlacementOps.class.getName());
    /** The fallback is logged once per process: every later move would say the same. */
    private static final AtomicBoolean FALLBACK_LOGGED = new AtomicBoolean();

    private final NodeMemory memory;
    private final int threads;
    private final MoveStrategy moveStrategy;

    public TablePlacementOps(NodeMemory memory, int threads) {
        this(memory, threads, MoveStrategy.COPY);
    }

    /** @param moveStrategy how {@link #move(Table, int, int)} moves parts (the placer's and ALTER TABLE's moves) */
    public TablePlacementOps(NodeMemory memory, int threads, MoveStrategy moveStrategy) {
        this.memory = memory;
        this.threads = Math.max(1, threads);
        this.moveStrategy = moveStrategy;
    }

    public MoveStrategy moveStrategy() {
        return moveStrategy;
    }

    public PlacementReport move(Table table, int partIndex, int targetNode) {
        return move(table, partIndex, targetNode, moveStrategy);
    }

    /**
     * Moves one part. {@link MoveStrategy#MIGRATE_PAGES} falls back to a copy where this process may not move
     * pages (a container's seccomp profile): the report's method says so, and the first fallback is logged.
     */
    public PlacementReport move(Table table, int partIndex, int targetNode, MoveStrategy strategy) {
        memory.topology().checkNode(targetNode);
        String method = strategy.label();
        if (strategy == MoveStrategy.MIGRATE_PAGES && memory.appliesPolicies()) {
            PageMoves moves = memory.pageMoves();
            if (!moves.permitted()) {
                strategy = MoveStrategy.COPY;
                method = MoveStrategy.COPY.label() + " (page moves not permitted)";
                if (FALLBACK_LOGGED.compareAndSet(false, true)) {
                    LOG.log(Level.WARNING, "table parts move by copying instead of migrating their pages: "
                            + "page moves are not permitted: " + moves.detail());
                }
            }
        }
        table.maintenanceLock().lock();
        try {
            long start = System.nanoTime();
            checkNotDropped(table);
            TableVersion version = table.version();
            checkPart(table, version, partIndex);
            TablePart old = version.parts().get(partIndex);
            long pages;
            if (strategy == MoveStrategy.MIGRATE_PAGES) {
                pages = migrateInPlace(old, targetNode);
                return new PlacementReport("move", method, table.name(), version.parts().size(),
                        version.parts().size(), old.rows(), pages, System.nanoTime() - start,
                        new PlacementChange.Move(partIndex, targetNode));
            }
            PartMemory target = new PartMemory(memory, PartPlacement.boundTo(targetNode));
            TablePart moved;
            try {
                List<Column> columns = new ArrayList<>();
                for (Column c : old.columns()) {
                    columns.add(ColumnCopier.copy(c, target));
                }
                // The delta (inserts and deletions since the part was built) travels with the part as it is.
                moved = new TablePart(partIndex, columns, old.rows(), target, old.delta());
            } catch (RuntimeException | Error e) {
                target.close();
                throw e;
            }
            List<TablePart> parts = new ArrayList<>(version.parts());
            parts.set(partIndex, moved);
            pages = target.mappedBytes() / memory.pageSize();
            installOrFree(table, version, version.spec(), List.of(moved), parts, version.rangeBounds(), true);
            return new PlacementReport("move", method, table.name(), parts.size(), parts.size(), old.rows(), pages,
                    System.nanoTime() - start, new PlacementChange.Move(partIndex, targetNode));
        } finally {
            table.maintenanceLock().unlock();
        }
    }

    /** Moves part {@code partIndex} of every table in the group, keeping the table-group part on one node. */
    public List<PlacementReport> moveGroupPart(TableGroup group, int partIndex, int targetNode) {
        List<PlacementReport> reports = new ArrayList<>();
        for (Table table : group.tables()) {
            reports.add(move(table, partIndex, targetNode));
        }
        return reports;
    }

    /**
     * Doubles the parts: each part p is split in parallel into two children. HASH keeps its invariant (children
     * p and p + n hold hash mod 2n), RANGE splits each range at its median key (children 2p and 2p + 1), other
     * specs split rows in halves. Children start on the parent's node; balancing is the placer's job.
     */
    public PlacementReport repartition(Table table) {
        return repartition(table, null);
    }

    /**
     * As {@link #repartition(Table)}; a RANGE table's part p splits at {@code rangeSplits[p]} when given (so the
     * tables of a group get the same bounds), else at its median key.
     */
    private PlacementReport repartition(Table table, long[] rangeSplits) {
        table.maintenanceLock().lock();
        try {
            long start = System.nanoTime();
            checkNotDropped(table);
            TableVersion version = table.version();
            int n = version.parts().size();
            if (2L * n > PartitionSpec.MAX_PARTS) {
                throw new IllegalArgumentException("table " + table.name() + " already has " + n + " parts");
            }
            PartitionSpec spec = version.spec() instanceof PartitionSpec.None
                    ? new PartitionSpec.RoundRobin(2) : version.spec().withParts(2 * n);
            TablePartBuilder[] children = new TablePartBuilder[2 * n];
            PartPlacement[] placements = new PartPlacement[2 * n];
            long[] splitKeys = new long[n];
            List<Runnable> work = new ArrayList<>();
            for (int p = 0; p < n; p++) {
                int parent = p;
                int[] childIndex = childIndices(spec, parent, n);
                children[childIndex[0]] = new TablePartBuilder(table.schema());
                children[childIndex[1]] = new TablePartBuilder(table.schema());
                placements[childIndex[0]] = version.parts().get(parent).placement();
                placements[childIndex[1]] = version.parts().get(parent).placement();
                work.add(() -> splitPart(table, version, spec, parent, n, children[childIndex[0]],
                        children[childIndex[1]], splitKeys, rangeSplits));
            }
            List<TablePart> parts;
            try {
                runAll(work);
                parts = PartAssembler.buildAll(Arrays.asList(children), memory, Arrays.asList(placements), threads);
            } catch (RuntimeException | Error e) {
                for (TablePartBuilder child : children) {
                    child.discard();
                }
                throw e;
            }
            List<Long> bounds = List.of();
            if (spec instanceof PartitionSpec.Range) {
                List<Long> b = new ArrayList<>();
                for (int p = 0; p < n; p++) {
                    if (p > 0) {
                        b.add(version.rangeBounds().get(p - 1));
                    }
                    b.add(splitKeys[p]);
                }
                bounds = b;
            }
            installOrFree(table, version, spec, parts, parts, bounds, false);
            List<Long> splits = new ArrayList<>();
            if (spec instanceof PartitionSpec.Range) {
                for (long key : splitKeys) {
                    splits.add(key);
                }
            }
            return report("repartition", table, n, parts, start, new PlacementChange.Split(splits));
        } finally {
            table.maintenanceLock().unlock();
        }
    }

    /**
     * Repartitions every table of a group, so the group stays co-partitioned: HASH and the other specs split the same
     * way by construction; RANGE tables all split at the first table's median keys.
     */
    public List<PlacementReport> repartitionGroup(TableGroup group) {
        List<PlacementReport> reports = new ArrayList<>();
        repartitionGroup(group, reports::add);
        return reports;
    }

    /** As {@link #repartitionGroup(TableGroup)}, handing each table's report to {@code installed} as it installs. */
    public void repartitionGroup(TableGroup group, Consumer<PlacementReport> installed) {
        long[] rangeSplits = null;
        for (Table table : group.tables()) {
            PlacementReport report = repartition(table, rangeSplits);
            installed.accept(report);
            if (rangeSplits == null && report.change() instanceof PlacementChange.Split split
                    && !split.rangeSplits().isEmpty()) {
                rangeSplits = split.rangeSplits().stream().mapToLong(Long::longValue).toArray();
            }
        }
    }

    /** Merges all parts into one part bound to {@code targetNode}. */
    public PlacementReport merge(Table table, int targetNode) {
        memory.topology().checkNode(targetNode);
        table.maintenanceLock().lock();
        try {
            long start = System.nanoTime();
            TableVersion version = table.version();
            checkNotDropped(table);
            TablePartBuilder builder = new TablePartBuilder(table.schema());
            long commit = table.committed();
            List<TablePart> parts;
            try {
                for (TablePart part : version.parts()) {
                    copyVisibleRows(part, commit, builder);
                }
                parts = PartAssembler.buildAll(List.of(builder), memory, List.of(PartPlacement.boundTo(targetNode)),
                        1);
            } catch (RuntimeException | Error e) {
                builder.discard();
                throw e;
            }
            PartitionSpec spec = version.spec().withParts(1);
            installOrFree(table, version, spec, parts, parts, List.of(), false);
            return report("merge", table, version.parts().size(), parts, start, new PlacementChange.Merge(targetNode));
        } finally {
            table.maintenanceLock().unlock();
        }
    }

    /**
     * Does a logged change again, on the rows the log has rebuilt up to it (recovery): parts are copied, never
     * migrated. A move or merge to a node this machine lacks leaves the part where recovery put it (the placement
     * policy's choice) or merges onto node 0.
     */
    public PlacementReport redo(Table table, PlacementChange change) {
        int nodes = memory.topology().nodeCount();
        return switch (change) {
            case PlacementChange.Move m -> {
                TableVersion version = table.version();
                checkPart(table, version, m.part());
                if (m.node() >= nodes || version.parts().get(m.part()).homeNode() == m.node()) {
                    yield null;
                }
                yield move(table, m.part(), m.node(), MoveStrategy.COPY);
            }
            case PlacementChange.Split s -> {
                long[] splits = null;
                if (!s.rangeSplits().isEmpty()) {
                    splits = s.rangeSplits().stream().mapToLong(Long::longValue).toArray();
                    if (splits.length != table.version().parts().size()) {
                        throw new IllegalArgumentException("table " + table.name() + " has "
                                + table.version().parts().size() + " parts, the split names " + splits.length);
                    }
                }
                yield repartition(table, splits);
            }
            case PlacementChange.Merge m -> merge(table, m.node() < nodes ? m.node() : 0);
        };
    }

    private void splitPart(Table table, TableVersion version, PartitionSpec spec, int parent, int n,
                           TablePartBuilder first, TablePartBuilder second, long[] splitKeys, long[] rangeSplits) {
        TablePart part = version.parts().get(parent);
        long rows = part.rows();
        long commit = table.committed();
        PartDelta delta = part.delta();
        int deltaRows = delta.visibleRows(commit);
        switch (spec) {
            case PartitionSpec.Hash hash -> {
                int keyIndex = table.schema().indexOf(hash.column());
                Column key = part.column(keyIndex);
                for (long r = 0; r < rows; r++) {
                    if (!delta.isDeleted(r, commit)) {
                        int target = PartitionRouter.hashPart(RowCopier.boxedKey(key, r), hash);
                        RowCopier.copyRow(part, r, target == parent ? first : second);
                    }
                }
                for (int i = 0; i < deltaRows; i++) {
                    if (!delta.isDeleted(rows + i, commit)) {
                        Object[] row = delta.row(i);
                        RowCopier.copyDeltaRow(row,
                                PartitionRouter.hashPart(row[keyIndex], hash) == parent ? first : second);
                    }
                }
            }
            case PartitionSpec.Range range -> {
                int keyIndex = table.schema().indexOf(range.column());
                Column key = part.column(keyIndex);
                // A part with no keys in main splits at its own lower bound, which keeps the bounds sorted.
                long lowerBound = parent == 0 ? Long.MIN_VALUE : version.rangeBounds().get(parent - 1);
                long split = rangeSplits != null && parent < rangeSplits.length ? rangeSplits[parent]
                        : medianKey(key, rows, lowerBound);
                splitKeys[parent] = split;
                for (long r = 0; r < rows; r++) {
                    if (!delta.isDeleted(r, commit)) {
                        Long k = RowCopier.longKey(key, r);
                        RowCopier.copyRow(part, r, k == null || k < split ? first : second);
                    }
                }
                for (int i = 0; i < deltaRows; i++) {
                    if (!delta.isDeleted(rows + i, commit)) {
                        Object[] row = delta.row(i);
                        Long k = (Long) row[keyIndex];
                        RowCopier.copyDeltaRow(row, k == null || k < split ? first : second);
                    }
                }
            }
            default -> {
                long total = rows + deltaRows;
                for (long r = 0; r < total; r++) {
                    if (!delta.isDeleted(r, commit)) {
                        TablePartBuilder target = r < total / 2 ? first : second;
                        if (r < rows) {
                            RowCopier.copyRow(part, r, target);
                        } else {
                            RowCopier.copyDeltaRow(delta.row((int) (r - rows)), target);
                        }
                    }
                }
            }
        }
    }

    /**
     * Folds a part's delta into a new main part (new dictionaries), dropping deleted rows; the part keeps its index
     * and placement. Queries that hold the old part keep reading it.
     */
    public PlacementReport mergeDelta(Table table, int partIndex) {
        table.maintenanceLock().lock();
        try {
            long start = System.nanoTime();
            TableVersion version = table.version();
            checkPart(table, version, partIndex);
            checkNotDropped(table);
            TablePart old = version.parts().get(partIndex);
            TablePartBuilder builder = new TablePartBuilder(table.schema());
            TablePart fresh;
            try {
                copyVisibleRows(old, table.committed(), builder);
                fresh = TablePartBuilder.buildConcatenated(List.of(builder), partIndex, memory, old.placement());
            } catch (RuntimeException | Error e) {
                builder.discard();
                throw e;
            }
            List<TablePart> parts = new ArrayList<>(version.parts());
            parts.set(partIndex, fresh);
            installOrFree(table, version, version.spec(), List.of(fresh), parts, version.rangeBounds(), true);
            return report("merge-delta", table, version.parts().size(), List.of(fresh), start, null);
        } finally {
            table.maintenanceLock().unlock();
        }
    }

    private static void copyVisibleRows(TablePart part, long commit, TablePartBuilder target) {
        PartDelta delta = part.delta();
        long rows = part.rows();
        boolean deletions = delta.hasDeletions();
        for (long r = 0; r < rows; r++) {
            if (!deletions || !delta.isDeleted(r, commit)) {
                RowCopier.copyRow(part, r, target);
            }
        }
        int deltaRows = delta.visibleRows(commit);
        for (int i = 0; i < deltaRows; i++) {
            if (!deletions || !delta.isDeleted(rows + i, commit)) {
                RowCopier.copyDeltaRow(delta.row(i), target);
            }
        }
    }

    private static long medianKey(Column key, long rows, long ifEmpty) {
        long[] keys = new long[(int) rows];
        int k = 0;
        for (long r = 0; r < rows; r++) {
            Long v = RowCopier.longKey(key, r);
            if (v != null) {
                keys[k++] = v;
            }
        }
        if (k == 0) {
            return ifEmpty;
        }
        Arrays.sort(keys, 0, k);
        return keys[k / 2];
    }

    /**
     * The parts that part {@code parent} of {@code n} becomes when {@link #repartition} doubles a table to
     * {@code spec} (HASH: p and p + n, the others: 2p and 2p + 1).
     */
    public static int[] childIndices(PartitionSpec spec, int parent, int n) {
        return spec instanceof PartitionSpec.Hash ? new int[] {parent, parent + n}
                : new int[] {2 * parent, 2 * parent + 1};
    }

    private long migrateInPlace(TablePart part, int targetNode) {
        long pages = 0;
        long failed = 0;
        java.util.Map<String, Long> failures = new java.util.TreeMap<>();
        try {
            for (NodeSegment segment : part.memory().segments()) {
                PageMoveReport report = memory.move(segment, targetNode);
                pages += report.moved();
                failed += report.failed();
                report.failures().forEach((reason, n) -> failures.merge(reason, n, Long::sum));
            }
        } finally {
            // Every segment that was reached is bound to the target now; the part's tasks follow its data.
            part.memory().rehome(PartPlacement.boundTo(targetNode));
        }
        if (failed > 0) {
            throw new IllegalStateException("moving part " + part.index() + " left " + failed
                    + " pages behind: " + failures);
        }
        return pages;
    }

    private void runAll(List<Runnable> work) {
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(Math.min(threads, work.size()),
                Thread.ofPlatform().name("locus-split-", 0).daemon().factory())) {
            List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
            for (Runnable r : work) {
                futures.add(pool.submit(r));
            }
            for (var f : futures) {
                f.get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Installs {@code parts}; if that fails, frees {@code created} (the parts this operation built).
     * {@code sameDivision}: every part keeps its rows (see {@link TableVersion#division()}).
     */
    private static void installOrFree(Table table, TableVersion version, PartitionSpec spec,
                                      List<TablePart> created, List<TablePart> parts, List<Long> bounds,
                                      boolean sameDivision) {
        try {
            table.install(version, spec, parts, bounds, sameDivision);
        } catch (RuntimeException e) {
            created.forEach(TablePart::release);
            throw e;
        }
    }

    private static void checkNotDropped(Table table) {
        if (table.isDropped()) {
            throw new IllegalStateException("table " + table.name() + " was dropped");
        }
    }

    private PlacementReport report(String operation, Table table, int before, List<TablePart> parts, long start,
                                   PlacementChange change) {
        long pages = parts.stream().mapToLong(p -> p.memory().mappedBytes()).sum() / memory.pageSize();
        long rows = parts.stream().mapToLong(TablePart::rows).sum();
        return new PlacementReport(operation, MoveStrategy.COPY.label(), table.name(), before, parts.size(), rows, pages,
                System.nanoTime() - start, change);
    }

    private static void checkPart(Table table, TableVersion version, int partIndex) {
        if (partIndex < 0 || partIndex >= version.parts().size()) {
            throw new IllegalArgumentException("table " + table.name() + " has no part " + partIndex + " (parts 0.."
                    + (version.parts().size() - 1) + ")");
        }
    }
}
