package io.locusdb.core.query.pipeline;

import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.exec.MemoryBudget;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.agg.GroupTable;
import io.locusdb.core.query.agg.StringIds;
import io.locusdb.core.storage.type.ColumnType;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The global state of a parallel aggregation, radix-partitioned as in DuckDB's and Umbra's hash aggregation. Tasks
 * aggregate into local tables that fit the cache; a local table that outgrows it, and each task's last one, is
 * handed over with its groups sorted into {@value #BUCKET_BITS}-bit hash buckets. Once every task is done, merge
 * tasks ("aggregate-merge", queued round-robin to the nodes that hold the input's parts) each take a range of
 * buckets and, bucket by bucket, fold that bucket's groups of every handed table into a table of its own: a
 * bucket's table holds a small share of the groups, so it stays in the cache while it is built even when the
 * query has millions of groups, and no two tasks ever touch one table, so nothing is locked.
 */
final class AggregateMerge {
    static final String TASK_CLASS = "aggregate-merge";
    /** The tasks that aggregate a computed relation's rows into local tables (a scan's are materialize tasks). */
    static final String TASK_CLASS_INPUT = "aggregate";

    /** Local tables up to this many groups stay in the task's cache; larger ones are handed over and restarted. */
    static final int LOCAL_GROUPS_LIMIT = 1 << 15;
    /**
     * A local table that gathered fewer rows per group than this saved the merge less than its probes cost: a row
     * probed locally and again in the merge against one sorted and merged once (measured on grouped COUNT(DISTINCT),
     * about 1.03 rows a group, and a GROUP BY order key, about 4).
     */
    static final int ROWS_PER_GROUP_WORTH_A_PROBE = 2;
    /** Tables that take rows as groups between two hashed ones, which check whether the rows now repeat. */
    static final int RESAMPLE_EVERY = 16;
    /** Handed groups held before they are consolidated, where the query's memory is not limited. */
    private static final long CONSOLIDATE_GROUPS = 1L << 23;
    /** The first bucket's table of a merge task starts with room for at most this many groups. */
    private static final int MERGE_PRESIZE_GROUPS = 1 << 16;
    /** 256 buckets: a million groups make tables of about 4,000 groups each. */
    static final int BUCKET_BITS = 8;

    /** A handed local table, its groups sorted by bucket: bucket b's are {@code offsets[b]..offsets[b+1]-1}. */
    private record Handed(GroupTable table, int[] offsets) {
    }

    private final NumaExecutor executor;
    private final QueryContext query;
    private final List<Integer> nodes;
    private final List<ColumnType> keyTypes;
    private final List<AggregateCall> calls;
    private final StringIds strings;
    private final MemoryBudget memory;
    private final TaskClass mergeClass;
    private final Consumer<TaskRecord> trace;
    private final int bucketBits;
    private final int mergeTasks;
    private final Queue<Handed> handed = new ConcurrentLinkedQueue<>();
    /** Groups in the handed tables; past {@link #consolidateAt}, a task merges them into one table per bucket. */
    private final AtomicLong handedGroups = new AtomicLong();
    private final AtomicBoolean consolidating = new AtomicBoolean();
    private volatile long consolidateAt;
    /** An aggregation over a subset of this one's keys, finished bucket by bucket; null when there is none. */
    private PhysicalPlan.Aggregate then;
    /** The positions among the keys that {@link #then} groups by (the bucket hash's keys); null: all keys. */
    private int[] bucketKeys;

    /**
     * @param mergeTasks how many tasks merge the buckets (the concurrency hint); each takes a range of buckets
     * @param nodes      the nodes the input's tasks run on, to which the merge tasks go in turn (empty: any)
     */
    AggregateMerge(NumaExecutor executor, QueryContext query, int mergeTasks, List<Integer> nodes,
                   List<ColumnType> keyTypes, List<AggregateCall> calls, Consumer<TaskRecord> trace) {
        this.executor = executor;
        this.query = query;
        this.strings = new StringIds();
        this.nodes = nodes;
        this.keyTypes = keyTypes;
        this.calls = calls;
        this.memory = query.memory();
        this.mergeClass = executor.taskClass(TASK_CLASS);
        this.trace = trace;
        // The grand total has one group: one bucket, one merge.
        this.bucketBits = keyTypes.isEmpty() ? 0 : BUCKET_BITS;
        this.mergeTasks = Math.max(1, Math.min(mergeTasks, 1 << bucketBits));
        // A sixteenth of a limited budget at about 64 bytes a group (a consolidation briefly holds the handed
        // tables and their merge); 8 million groups (about half a GiB) otherwise.
        long limit = memory.limit();
        this.consolidateAt = limit == Long.MAX_VALUE ? CONSOLIDATE_GROUPS
                : Math.max(4L * LOCAL_GROUPS_LIMIT, limit / 1024);
    }

    /**
     * Finishes {@code next}, an aggregation that groups this one's result by some of its keys, in the merge: the
     * buckets then go by those keys alone, so every group of {@code next} is made in one bucket, and each merge task
     * aggregates its buckets' rows again on the spot. COUNT(DISTINCT x) GROUP BY k, split into GROUP BY k, x and then
     * GROUP BY k, so costs one parallel aggregation, not two. To be called before any task adds rows.
     */
    void then(PhysicalPlan.Aggregate next) {
        if (!fuses(keyTypes.size(), next)) {
            throw new IllegalArgumentException("the next aggregation must group by some of this one's keys");
        }
        this.then = next;
        this.bucketKeys = next.keys().clone();
    }

    /** Whether {@code next} groups the rows of an aggregation with {@code keyCount} keys by some of those keys. */
    static boolean fuses(int keyCount, PhysicalPlan.Aggregate next) {
        if (keyCount == 0 || next.keys().length == 0) {
            return false;
        }
        for (int k : next.keys()) {
            if (k >= keyCount) {
                return false;
            }
        }
        return true;
    }

    /** A fresh local table for a task, sharing the global string ids. */
    GroupTable localTable() {
        return localTable(0);
    }

    /** As above, with room for {@code groups} groups from the start. */
    private GroupTable localTable(int groups) {
        return new GroupTable(keyTypes, calls, strings, memory, groups);
    }

    /** One task's local state: the groups of {@code calls} by {@code keys} (columns of the chunks it adds). */
    Local local(int[] keys, List<AggregateCall> calls) {
        return new Local(keys, calls);
    }

    /**
     * A task's local aggregation: a table of its own, handed to the merge when it outgrows the cache (and the task
     * goes on with a fresh one) and when the task ends. A table that hardly reduced its rows (fewer than
     * {@value #ROWS_PER_GROUP_WORTH_A_PROBE} rows a group) is followed by tables that take rows as groups without
     * looking them up ({@link GroupTable#rowsAsGroups}), the merge doing the grouping once instead of twice; every
     * {@value #RESAMPLE_EVERY}th table is a hashed one again, in case the rows have changed.
     */
    final class Local {
        private final int[] keys;
        private final List<AggregateCall> calls;
        private final ColumnVector[] keyColumns;
        private final ColumnVector[] arguments;
        private GroupTable table = localTable();
        private boolean rowsAsGroups;
        private long rowsInTable;
        private int tablesSinceHashed;

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
            if (rowsAsGroups) {
                table.addRowsAsGroups(keyColumns, arguments, rows);
            } else {
                table.add(keyColumns, arguments, rows);
            }
            rowsInTable += rows;
            if (table.size() >= LOCAL_GROUPS_LIMIT) {
                handAndRestart(rows);
            }
        }

        private void handAndRestart(int batchRows) {
            if (!rowsAsGroups) {
                rowsAsGroups = !keyTypes.isEmpty() && rowsInTable < ROWS_PER_GROUP_WORTH_A_PROBE * table.size();
                tablesSinceHashed = 0;
            } else if (++tablesSinceHashed >= RESAMPLE_EVERY) {
                rowsAsGroups = false;
            }
            int[] spareSlots = table.detachSlots();
            hand(table);
            // A task whose table filled up once will likely fill the next: it starts at full size, with room for the
            // batch that crosses the limit, so that batch does not double every array.
            int room = LOCAL_GROUPS_LIMIT + batchRows;
            table = rowsAsGroups ? GroupTable.rowsAsGroups(keyTypes, calls, strings, memory, room)
                    : new GroupTable(keyTypes, calls, strings, memory, room, spareSlots);
            rowsInTable = 0;
        }

        void finish(TaskContext ctx) {
            hand(table);
            table = localTable();
        }
    }

    /** Takes {@code local}'s groups for the merge, sorted into buckets by the task that made them. */
    void hand(GroupTable local) {
        if (local.size() == 0 && bucketBits > 0) {
            local.releaseMemory();
            return;
        }
        int[] offsets = new int[(1 << bucketBits) + 1];
        local.sortIntoBuckets(bucketBits, offsets, bucketKeys);
        handed.add(new Handed(local, offsets));
        if (handedGroups.addAndGet(local.size()) >= consolidateAt && consolidating.compareAndSet(false, true)) {
            try {
                consolidate();
            } finally {
                consolidating.set(false);
            }
        }
    }

    /**
     * Merges the tables handed so far into one table, sorted into buckets like any handed table, on the calling
     * task: an aggregation whose local tables hardly reduce (many groups, each seen in many tasks) then holds about
     * its result's groups, not every task's copy of them until the end. Tables handed meanwhile wait for the next
     * consolidation or the merge.
     */
    private void consolidate() {
        List<Handed> tables = new ArrayList<>();
        Handed next;
        while ((next = handed.poll()) != null) {
            tables.add(next);
        }
        long before = 0;
        for (Handed h : tables) {
            before += h.table().size();
        }
        int buckets = 1 << bucketBits;
        GroupTable target = new GroupTable(keyTypes, calls, strings, memory, (int) Math.min(before, 1 << 26));
        try {
            // Bucket by bucket, so the groups that meet in the target come together while they are in the cache.
            for (int b = 0; b < buckets; b++) {
                for (Handed h : tables) {
                    target.mergeGroups(h.table(), h.offsets()[b], h.offsets()[b + 1]);
                }
            }
        } finally {
            for (Handed h : tables) {
                h.table().releaseMemory();
            }
        }
        int[] offsets = new int[buckets + 1];
        target.sortIntoBuckets(bucketBits, offsets, bucketKeys);
        handed.add(new Handed(target, offsets));
        handedGroups.addAndGet(target.size() - before);
        // Not worth doing again until as many new groups have come as the consolidated table holds.
        consolidateAt = Math.max(consolidateAt, 2L * target.size());
    }

    /** Merges every handed table, bucket by bucket on the merge tasks, into the aggregation's result. */
    Relation relation(PhysicalPlan.Aggregate aggregate) {
        List<Handed> tables = new ArrayList<>(handed);
        handed.clear();
        int buckets = 1 << bucketBits;
        List<List<Relation>> pieces = new ArrayList<>();
        for (int t = 0; t < mergeTasks; t++) {
            pieces.add(List.of());
        }
        try {
            TaskGraph graph = new TaskGraph("aggregate merge");
            TaskGraph.Node root = graph.root(mergeClass, TaskGraph.ANY_NODE, ctx -> { });
            for (int t = 0; t < mergeTasks; t++) {
                int task = t;
                int first = (int) ((long) buckets * t / mergeTasks);
                int end = (int) ((long) buckets * (t + 1) / mergeTasks);
                int node = nodes.isEmpty() ? TaskGraph.ANY_NODE : nodes.get(t % nodes.size());
                graph.node(mergeClass, node, ctx -> {
                    List<Relation> merged = mergeBuckets(tables, first, end, aggregate);
                    pieces.set(task, merged);
                    trace.accept(new TaskRecord(TASK_CLASS, task, node, ctx.node(), ctx.stolen(),
                            merged.stream().mapToLong(Relation::rows).sum()));
                }, root);
            }
            executor.submit(graph, query).await();
        } finally {
            for (Handed h : tables) {
                h.table().releaseMemory();
            }
        }
        List<Relation> all = new ArrayList<>();
        for (List<Relation> merged : pieces) {
            all.addAll(merged);
        }
        PhysicalPlan.Aggregate last = then == null ? aggregate : then;
        return Relation.concat(all, last.outputTypes(), last.names());
    }

    /** Buckets {@code first..end-1} of every handed table, each merged into a table of its own, as relations. */
    private List<Relation> mergeBuckets(List<Handed> tables, int first, int end, PhysicalPlan.Aggregate aggregate) {
        List<Relation> out = new ArrayList<>();
        // Buckets of one hash are alike: each starts with room for a little more than the one before ended with.
        int previousGroups = -1;
        for (int b = first; b < end; b++) {
            // At most every group handed for the bucket (reached when no two tables share a group); tables that share
            // their groups (rows that repeat across tasks, or rows handed as groups) hold many times fewer.
            long handedGroups = 0;
            for (Handed h : tables) {
                handedGroups += h.offsets()[b + 1] - h.offsets()[b];
            }
            long expected = previousGroups < 0 ? MERGE_PRESIZE_GROUPS : previousGroups + (previousGroups >> 2) + 16;
            GroupTable target = new GroupTable(keyTypes, calls, strings, memory,
                    (int) Math.min(handedGroups, expected));
            try {
                for (Handed h : tables) {
                    target.mergeGroups(h.table(), h.offsets()[b], h.offsets()[b + 1]);
                }
                previousGroups = target.size();
                if (target.size() == 0) {
                    continue;
                }
                Relation piece = RelationOps.finish(target, keyTypes.size(), aggregate.outputTypes(),
                        aggregate.names());
                if (then != null) {
                    piece = RelationOps.aggregate(piece, then.keys(), then.calls(), then.names(),
                            then.outputTypes());
                }
                out.add(piece);
            } finally {
                target.releaseMemory();
            }
        }
        return out;
    }
}
