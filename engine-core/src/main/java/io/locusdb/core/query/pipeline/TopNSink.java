package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.MemoryBudget;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.query.expr.InputRef;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.query.scan.MaterializeJob;
import io.locusdb.core.query.sort.IndexSort;
import io.locusdb.core.query.sort.RowComparator;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * ORDER BY ... LIMIT: each task keeps the first {@code limit} rows of what it saw (selecting them from its buffer
 * whenever that holds twice as many, and once more when done), and hands them, unsorted, to the global state; no task holds more than about
 * {@code 2 * limit} rows, and the result holds at most {@code limit} per task. Once a task has {@code limit}
 * rows, its last one is a cut-off: a row whose first key sorts after the cut-off's cannot be among the first,
 * so it is dropped on arrival, before it is copied or sorted.
 */
public final class TopNSink implements PipelineSink {
    /** A task sorts its buffer no more often than once per this many rows. */
    private static final int MIN_BUFFER_ROWS = 4096;

    private final List<ColumnType> types;
    private final List<String> names;
    private final List<PhysicalPlan.SortKey> keys;
    private final int limit;
    private final MemoryBudget memory;
    private final Relation kept;
    /** The sort keys' columns, kept as plain values in a task's buffer (compared row against row). */
    private final Set<Integer> sortColumns;
    /** The best cut-off of all tasks, where the first key is an integer column; null otherwise. */
    private final SharedCutoff shared;
    /** Whether {@link #shared} started from a guess ({@link #startFrom}), which holds only if enough rows pass it. */
    private volatile boolean guessed;
    /** Rows that passed the guessed cut-off, counted once a task has them. */
    private final LongAdder passedGuess = new LongAdder();

    TopNSink(List<ColumnType> types, List<String> names, List<PhysicalPlan.SortKey> keys, int limit,
             MemoryBudget memory) {
        this.memory = memory;
        this.types = types;
        this.names = names;
        this.keys = keys;
        this.limit = limit;
        this.kept = Relation.empty(types, names).chargedTo(memory);
        this.sortColumns = keys.stream().map(PhysicalPlan.SortKey::column).collect(Collectors.toSet());
        PhysicalPlan.SortKey first = keys.getFirst();
        this.shared = types.get(first.column()).physical() == TypeKind.Physical.LONG
                ? new SharedCutoff(first.descending(), first.nullsFirst()) : null;
    }

    /**
     * Starts every task's cut-off at {@code guess}, a first-key value read from a sample of the rows before any is
     * scanned, so that the tasks drop rows from the first batch on instead of keeping their first rows whole. The guess
     * is right when at least LIMIT rows pass it (every row it drops is then worse than LIMIT rows that passed); ask
     * {@link #guessFailed} when done and run again without one if not. Only where the first key is an integer column.
     */
    void startFrom(long guess) {
        if (shared == null) {
            throw new IllegalStateException("a cut-off is shared only on an integer first key");
        }
        shared.offer(guess);
        guessed = true;
    }

    /** Gives back the memory the rows kept are charged (a result not used: a failed guess's). */
    void release() {
        synchronized (kept) {
            memory.release(kept.rows() * kept.estimatedRowBytes());
        }
    }

    /** Whether a guessed cut-off let fewer than LIMIT rows pass: then the result may miss rows it dropped. */
    boolean guessFailed() {
        return guessed && passedGuess.sum() < limit;
    }

    @Override
    public String describe() {
        return "top " + limit + " kept per task";
    }

    @Override
    public TaskStep local() {
        return new Local();
    }

    /** One task's first rows. */
    final class Local implements TaskStep {
        /** Shaped by the first batch: a string column that is not a sort key keeps its part's codes until the end. */
        private Relation buffer;
        /** The buffer's worst row once cut down to exactly {@code limit} rows; -1 before that. */
        private int cutoff = -1;
        private int[] selected = new int[1024];
        /** The cut-off as codes of the scan's first sort column, where the scan feeds this directly. */
        private CodeCutoff codes;
        /** Bytes of the buffer charged to the query's budget. */
        private long charged;

        /**
         * A filter for the scan of {@code part} that feeds this task: the codes of the first sort key's
         * column that may still be among the first rows, as the cut-off tightens. Null where the key is not a
         * column of integers, decimals or dates decoded straight from the table.
         */
        MaterializeJob.IdFilter codeFilter(TablePart part, PhysicalPlan.Scan scan, ScanProgram program) {
            PhysicalPlan.SortKey first = keys.getFirst();
            if (!(scan.outputs().get(first.column()) instanceof InputRef ref)) {
                return null;
            }
            int[] decoded = program.tableColumns();
            for (int i = 0; i < decoded.length; i++) {
                if (decoded[i] == ref.index()
                        && part.column(ref.index()).dictionary() instanceof LongDictionary dictionary) {
                    codes = new CodeCutoff(dictionary, first.descending(), first.nullsFirst());
                    if (shared != null && shared.isSet()) {
                        codes.tighten(shared.value());
                    }
                    return new MaterializeJob.IdFilter(i, codes.allowed());
                }
            }
            return null;
        }

        @Override
        public void push(TaskContext ctx, Chunk chunk) {
            Chunk rows = chunk;
            if (shared != null && shared.isSet()) {
                // Another task's cut-off may be tighter than this one's: rows past it go first.
                if (codes != null) {
                    codes.tighten(shared.value());
                }
                rows = sharedPass(rows);
                if (guessed && rows != null) {
                    passedGuess.add(rows.rows());
                }
            }
            if (rows != null && cutoff >= 0) {
                rows = beforeCutoff(rows);
            }
            if (rows == null) {
                return;
            }
            if (buffer == null) {
                buffer = Relation.emptyLike(rows, names, sortColumns);
            }
            charge(rows.rows());
            buffer.append(rows);
            if (buffer.rows() >= Math.max(2L * limit, MIN_BUFFER_ROWS)) {
                int before = buffer.rows();
                // Only which rows stay matters until the end: a selection keeps them, in input order, unsorted.
                RowComparator order = RelationSort.comparator(buffer.chunk().vectors(), keys);
                int[] best = IndexSort.firstInRowOrder(before, limit, order);
                buffer = RelationSort.gather(buffer, best, 0, best.length);
                charge(buffer.rows() - before);
                cutoff = best.length == limit && limit > 0 ? IndexSort.worst(best, order) : -1;
                ColumnVector key = buffer.columns().get(keys.getFirst().column());
                if ((codes != null || shared != null) && cutoff >= 0 && !key.isNull(cutoff)) {
                    long value = key.longs()[cutoff];
                    if (codes != null) {
                        codes.tighten(value);
                    }
                    if (shared != null) {
                        shared.offer(value);
                    }
                }
            }
        }

        /**
         * Charges (or, for a negative count, gives back) the memory of {@code rows} buffered rows to the query's
         * budget: a top-N of a large LIMIT holds up to twice that many rows per task.
         */
        private void charge(long rows) {
            long bytes = rows * buffer.estimatedRowBytes();
            if (bytes > 0) {
                memory.reserve(bytes);
            } else if (bytes < 0) {
                memory.release(-bytes);
            }
            charged += bytes;
        }

        /** The rows of {@code chunk} the best cut-off of all tasks lets pass; null when none. */
        private Chunk sharedPass(Chunk chunk) {
            int n = chunk.rows();
            if (selected.length < n) {
                selected = new int[n];
            }
            ColumnVector key = chunk.column(keys.getFirst().column());
            long[] values = key.longs();
            boolean[] nulls = key.nulls();
            int count = 0;
            for (int i = 0; i < n; i++) {
                if (shared.mayPass(nulls[i], values[i])) {
                    selected[count++] = i;
                }
            }
            return selected(chunk, count);
        }

        /** The rows of {@code chunk} that may still be among the first; null when none. */
        private Chunk beforeCutoff(Chunk chunk) {
            int n = chunk.rows();
            if (selected.length < n) {
                selected = new int[n];
            }
            RowComparator order = RelationSort.comparator(chunk.vectors(), keys);
            ColumnVector[] best = buffer.chunk().vectors();
            int count = 0;
            for (int i = 0; i < n; i++) {
                if (order.compareFirstKey(i, best, cutoff) <= 0) {
                    selected[count++] = i;
                }
            }
            return selected(chunk, count);
        }

        /** The first {@code count} rows listed in {@code selected}: the chunk itself if all, null if none. */
        private Chunk selected(Chunk chunk, int count) {
            if (count == chunk.rows()) {
                return chunk;
            }
            if (count == 0) {
                return null;
            }
            ColumnVector[] columns = chunk.vectors();
            ColumnVector[] out = new ColumnVector[columns.length];
            for (int c = 0; c < columns.length; c++) {
                out[c] = columns[c].gather(selected, count);
            }
            return new Chunk(out, count);
        }

        @Override
        public void finish(TaskContext ctx) {
            if (buffer == null) {
                return;
            }
            // Which rows, not their order: the sort above the sink orders what every task kept, once.
            Relation best = buffer;
            if (buffer.rows() > limit) {
                RowComparator order = RelationSort.comparator(buffer.chunk().vectors(), keys);
                int[] rows = IndexSort.firstInRowOrder(buffer.rows(), limit, order);
                best = RelationSort.gather(buffer, rows, 0, rows.length);
            }
            synchronized (kept) {
                kept.append(best.chunk());
            }
            // The kept rows are charged again as they are appended to the global state.
            charge(-buffer.rows());
            buffer = null;
        }
    }

    @Override
    public Relation result() {
        return kept;
    }
}
