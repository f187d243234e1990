package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.PartSelection;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.query.join.JoinHashTable;
import io.locusdb.core.query.scan.PartTargets;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.memory.NodeMemory;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * What the operators of one execution of one plan share: the executor, the query, where task records go, and what
 * the execution allocates (table snapshots, hash tables and their off-heap indexes), owned until it is closed.
 */
public final class PipelineContext implements AutoCloseable {
    private final NumaExecutor executor;
    private final QueryContext query;
    private final Consumer<TaskRecord> trace;
    private final int batchRows;
    private final PartTargets partTargets;
    /** Where hash-table indexes go, node by node; null: on the heap. */
    private final NodeMemory memory;
    private final List<JoinHashTable> tables = new ArrayList<>();
    private final List<TableSnapshot> snapshots = new ArrayList<>();
    /** Owns the off-heap indexes of this execution's hash tables; closed with the context. */
    private Arena arena;
    /** Index memory by node, made on first use: see {@link #indexMemory}. */
    private JoinHashTable.IndexMemory[] indexMemories;
    /** Where EXPLAIN ANALYZE's counts go; null when the query is not analyzed. */
    private final PipelineProfile profile;
    /** The single parts this execution reads of some tables (empty: whole tables). */
    private final List<PartSelection> parts;

    public PipelineContext(NumaExecutor executor, NodeMemory memory, int batchRows, PartTargets partTargets,
                           QueryContext query, Consumer<TaskRecord> trace) {
        this(executor, memory, batchRows, partTargets, query, trace, null, List.of());
    }

    /** As above, counting rows and time of every pipeline into {@code profile} (null: not counted). */
    public PipelineContext(NumaExecutor executor, NodeMemory memory, int batchRows, PartTargets partTargets,
                           QueryContext query, Consumer<TaskRecord> trace, PipelineProfile profile,
                           List<PartSelection> parts) {
        this.parts = parts;
        this.profile = profile;
        this.executor = executor;
        this.memory = memory;
        this.batchRows = batchRows;
        this.partTargets = partTargets;
        this.query = query;
        this.trace = trace;
    }

    public NumaExecutor executor() {
        return executor;
    }

    public QueryContext query() {
        return query;
    }

    public Consumer<TaskRecord> trace() {
        return trace;
    }

    /** Where the pipelines' counts go under EXPLAIN ANALYZE; null otherwise. */
    public PipelineProfile profile() {
        return profile;
    }

    public int batchRows() {
        return batchRows;
    }

    public PartTargets partTargets() {
        return partTargets;
    }

    /** A snapshot of {@code table} (of its selected part, where one is), held until the context closes. */
    public synchronized TableSnapshot snapshot(Table table) {
        TableSnapshot snapshot = snapshot(table, parts);
        snapshots.add(snapshot);
        return snapshot;
    }

    /** A snapshot of {@code table}, or of the one part of it that {@code selected} names. */
    static TableSnapshot snapshot(Table table, List<PartSelection> selected) {
        String name = table.name().toLowerCase(Locale.ROOT);
        for (PartSelection p : selected) {
            if (p.table().equals(name)) {
                return table.snapshot(p.part(), p.parts(), p.division());
            }
        }
        return table.snapshot();
    }

    /** A hash table released when the context closes. */
    public synchronized void own(JoinHashTable table) {
        tables.add(table);
    }

    /**
     * Memory for a hash table's index on {@code node} (off-heap, bound there); the heap where none is known. One
     * object per node, so that a table's partitions in one node's memory share one allocation.
     */
    public synchronized JoinHashTable.IndexMemory indexMemory(int node) {
        if (memory == null || node < 0) {
            return JoinHashTable.IndexMemory.HEAP;
        }
        if (indexMemories == null) {
            indexMemories = new JoinHashTable.IndexMemory[memory.topology().nodeCount()];
        }
        if (indexMemories[node] == null) {
            // Huge pages for an index of several: a fresh mapping is touched page by page while it is built, and
            // a 4 KiB fault per page is what an off-heap index costs over a heap array.
            indexMemories[node] = bytes -> memory.allocate(bytes, new MemoryPolicy.Bind(node), arena(),
                    bytes >= 2 * NodeMemory.HUGE_PAGE_SIZE).segment();
        }
        return indexMemories[node];
    }

    private synchronized Arena arena() {
        if (arena == null) {
            arena = Arena.ofShared();
        }
        return arena;
    }

    @Override
    public synchronized void close() {
        for (JoinHashTable table : tables) {
            table.release();
        }
        tables.clear();
        for (TableSnapshot snapshot : snapshots) {
            snapshot.close();
        }
        snapshots.clear();
        if (arena != null) {
            arena.close();
            arena = null;
        }
    }
}
