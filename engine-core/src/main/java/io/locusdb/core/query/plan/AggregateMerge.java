package io.locusdb.core.query.plan;

import io.locusdb.core.exec.MemoryBudget;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.exec.TaskLock;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.agg.GroupTable;
import io.locusdb.core.query.agg.StringIds;
import io.locusdb.core.storage.type.ColumnType;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The global state of a parallel aggregation: disjoint result tables, one per hash partition, each merged into by
 * "aggregate-merge" tasks queued round-robin to the nodes that hold the input's parts. Tasks aggregate into local
 * tables and {@link #hand} them over when they outgrow the cache and when the task ends.
 */
final class AggregateMerge {
    static final String TASK_CLASS = "aggregate-merge";

    /** Local tables up to this many groups stay in the task's cache; larger ones are merged and restarted. */
    static final int LOCAL_GROUPS_LIMIT = 1 << 15;

    private final GroupTable[] tables;
    private final TaskLock[] locks;
    private final List<Integer> nodes;
    private final List<ColumnType> keyTypes;
    private final List<AggregateCall> calls;
    private final StringIds strings;
    private final MemoryBudget memory;
    private final TaskClass mergeClass;
    private final Consumer<TaskRecord> trace;

    AggregateMerge(NumaExecutor executor, int partitions, List<Integer> nodes, List<ColumnType> keyTypes,
                   List<AggregateCall> calls, MemoryBudget memory, Consumer<TaskRecord> trace) {
        this.tables = new GroupTable[partitions];
        this.locks = new TaskLock[partitions];
        this.strings = new StringIds();
        for (int r = 0; r < partitions; r++) {
            tables[r] = new GroupTable(keyTypes, calls, strings, memory);
            locks[r] = new TaskLock(executor);
        }
        this.nodes = nodes;
        this.keyTypes = keyTypes;
        this.calls = calls;
        this.memory = memory;
        this.mergeClass = executor.taskClass(TASK_CLASS);
        this.trace = trace;
    }

    /** A fresh local table for a task, sharing the global string ids. */
    GroupTable localTable() {
        return new GroupTable(keyTypes, calls, strings, memory);
    }

    /** One task's local state: the groups of {@code calls} by {@code keys} (columns of the chunks it adds). */
    Local local(int[] keys, List<AggregateCall> calls) {
        return new Local(keys, calls);
    }

    /**
     * A task's local aggregation: a table of its own, handed to the merge when it outgrows the cache (and the task
     * goes on with a fresh one) and when the task ends.
     */
    final class Local {
        private final int[] keys;
        private final List<AggregateCall> calls;
        private final ColumnVector[] keyColumns;
        private final ColumnVector[] arguments;
        private GroupTable table = localTable();

        private Local(int[] keys, List<AggregateCall> calls) {
            this.keys = keys;
            this.calls = calls;
            this.keyColumns = new ColumnVector[keys.length];
            this.arguments = new ColumnVector[calls.size()];
        }

        void add(TaskContext ctx, Chunk chunk) {
            ColumnVector[] columns = chunk.vectors();
            int rows = chunk.rows();
            for (int k = 0; k < keys.length; k++) {
                keyColumns[k] = columns[keys[k]];
            }
            for (int a = 0; a < calls.size(); a++) {
                int arg = calls.get(a).argument();
                arguments[a] = arg < 0 ? null : columns[arg];
            }
            table.add(keyColumns, arguments, rows);
            if (table.size() >= LOCAL_GROUPS_LIMIT) {
                hand(ctx, table);
                table = localTable();
            }
        }

        void finish(TaskContext ctx) {
            hand(ctx, table);
            table = localTable();
        }
    }

    /** Forks one merge task per partition for {@code local}'s groups of that partition. */
    void hand(TaskContext ctx, GroupTable local) {
        if (local.size() == 0) {
            local.releaseMemory();
            return;
        }
        int partitions = tables.length;
        // The local table's memory goes back to the budget once every partition has taken its groups.
        AtomicInteger unmerged = new AtomicInteger(partitions);
        for (int r = 0; r < partitions; r++) {
            int partition = r;
            int node = nodes.isEmpty() ? TaskGraph.ANY_NODE : nodes.get(r % nodes.size());
            ctx.fork(mergeClass, node, c -> {
                locks[partition].lock();
                try {
                    GroupTable target = tables[partition];
                    for (int g = 0; g < local.size(); g++) {
                        if (partitions == 1 || Math.floorMod(local.hash(g) >>> 33, partitions) == partition) {
                            target.mergeGroup(local, g);
                        }
                    }
                } finally {
                    locks[partition].unlock();
                    if (unmerged.decrementAndGet() == 0) {
                        local.releaseMemory();
                    }
                }
                trace.accept(new TaskRecord(TASK_CLASS, partition, node, c.node(), c.stolen(), local.size()));
            });
        }
    }

    /** The merged groups, once every merge task has run. */
    Relation relation(PhysicalPlan.Aggregate aggregate) {
        Relation result = null;
        for (GroupTable t : tables) {
            Relation part = RelationOps.finish(t, keyTypes.size(), aggregate.outputTypes(), aggregate.names());
            if (result == null) {
                result = part;
            } else {
                result.append(part.columns(), part.rows());
            }
        }
        return result;
    }
}
