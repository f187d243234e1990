package io.locusdb.core.query.pipeline;

import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.query.sort.IndexSort;
import io.locusdb.core.query.sort.RowComparator;
import io.locusdb.core.vector.ColumnVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * ORDER BY (with OFFSET and LIMIT) of a computed relation, in parallel: the rows are cut into as many runs as the
 * concurrency hint asks for, each run sorted (or, under a LIMIT, reduced to its first rows by a bounded heap) by a
 * task of its own, then the runs are merged up to the LIMIT. Row numbers are sorted, never boxed rows; the output is
 * gathered once at the end. Rows that tie keep their input order.
 */
final class RelationSort {
    static final String TASK_CLASS = "sort";
    /** Fewer rows than this a run are not worth a task of their own. */
    private static final int MIN_RUN_ROWS = 16_384;

    private RelationSort() {
    }

    static Relation sort(Relation in, List<PhysicalPlan.SortKey> keys, long offset, long fetch,
                         NumaExecutor executor, QueryContext query) {
        int rows = in.rows();
        int from = (int) Math.min(rows, Math.max(0, offset));
        // fetch may be as large as a long goes (LIMIT 9223372036854775807): bound it before adding.
        long wanted = fetch < 0 ? rows : Math.min(rows, from + Math.min(fetch, rows));
        int limit = (int) wanted;
        if (keys.isEmpty() || limit <= from) {
            int[] identity = new int[Math.max(0, limit - from)];
            for (int i = 0; i < identity.length; i++) {
                identity[i] = from + i;
            }
            return gather(in, identity, 0, identity.length);
        }
        int[] merged = order(in, keys, limit, executor, query);
        return gather(in, merged, from, Math.min(limit, merged.length));
    }

    /**
     * The first {@code limit} row numbers of {@code in} in the order of {@code keys} (ties in row order): runs sorted
     * by parallel tasks, then merged.
     */
    static int[] order(Relation in, List<PhysicalPlan.SortKey> keys, int limit, NumaExecutor executor,
                       QueryContext query) {
        int rows = in.rows();
        RowComparator order = comparator(in.chunk().vectors(), keys);
        int runs = executor == null ? 1 : (int) Math.max(1, Math.min(executor.concurrencyHint(),
                rows / MIN_RUN_ROWS));
        int[][] sorted = new int[runs][];
        int step = (rows + runs - 1) / runs;
        if (runs == 1) {
            sorted[0] = sortRun(0, rows, limit, order);
        } else {
            TaskClass taskClass = executor.taskClass(TASK_CLASS);
            TaskGraph graph = new TaskGraph("sort runs");
            TaskGraph.Node root = graph.root(taskClass, TaskGraph.ANY_NODE, ctx -> { });
            for (int r = 0; r < runs; r++) {
                int run = r;
                int start = r * step;
                int end = Math.min(rows, start + step);
                // Each task compares with a comparator of its own: they are cheap and hold no shared state.
                graph.node(taskClass, TaskGraph.ANY_NODE, ctx -> sorted[run] = sortRun(start, end, limit,
                        comparator(in.chunk().vectors(), keys)), root);
            }
            executor.submit(graph, query).await();
        }
        return runs == 1 ? sorted[0] : merge(sorted, limit, order);
    }

    static RowComparator comparator(ColumnVector[] columns, List<PhysicalPlan.SortKey> keys) {
        int[] positions = new int[keys.size()];
        boolean[] descending = new boolean[keys.size()];
        boolean[] nullsFirst = new boolean[keys.size()];
        for (int k = 0; k < positions.length; k++) {
            positions[k] = keys.get(k).column();
            descending[k] = keys.get(k).descending();
            nullsFirst[k] = keys.get(k).nullsFirst();
        }
        return new RowComparator(columns, positions, descending, nullsFirst);
    }

    /** Rows {@code start..end-1} in order, at most {@code limit} of them. */
    private static int[] sortRun(int start, int end, int limit, RowComparator order) {
        int[] rows = new int[end - start];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = start + i;
        }
        if (limit < rows.length) {
            return IndexSort.top(rows, 0, rows.length, limit, order);
        }
        IndexSort.sort(rows, 0, rows.length, order);
        return rows;
    }

    /**
     * The first {@code limit} rows of sorted runs of ascending row ranges; ties go to the earlier run. Neighbouring
     * runs are merged in pairs until one is left: a tight loop per pair, where a heap of run heads paid a comparison
     * chain and an object per row.
     */
    private static int[] merge(int[][] runs, int limit, RowComparator order) {
        int[][] level = runs;
        while (level.length > 1) {
            int[][] next = new int[(level.length + 1) / 2][];
            for (int i = 0; i < next.length; i++) {
                next[i] = 2 * i + 1 < level.length ? mergeTwo(level[2 * i], level[2 * i + 1], limit, order)
                        : level[2 * i];
            }
            level = next;
        }
        int[] only = level[0];
        return only.length <= limit ? only : Arrays.copyOf(only, limit);
    }

    /** The first {@code limit} rows of two sorted runs, the earlier's first where they tie. */
    private static int[] mergeTwo(int[] earlier, int[] later, int limit, RowComparator order) {
        int[] out = new int[(int) Math.min(limit, (long) earlier.length + later.length)];
        int i = 0;
        int j = 0;
        int n = 0;
        while (n < out.length && i < earlier.length && j < later.length) {
            out[n++] = order.compare(later[j], earlier[i]) < 0 ? later[j++] : earlier[i++];
        }
        while (n < out.length && i < earlier.length) {
            out[n++] = earlier[i++];
        }
        while (n < out.length && j < later.length) {
            out[n++] = later[j++];
        }
        return out;
    }

    /** Rows {@code order[from..to-1]} of {@code in} as a relation of fresh vectors. */
    static Relation gather(Relation in, int[] order, int from, int to) {
        int count = Math.max(0, to - from);
        int[] rows = from == 0 ? order : Arrays.copyOfRange(order, from, from + count);
        List<ColumnVector> out = new ArrayList<>(in.columns().size());
        for (ColumnVector c : in.columns()) {
            // A column at a time, and codes stay codes: a top-N buffer sorted again and again does not decode its
            // strings each time.
            out.add(c.gather(rows, count));
        }
        return new Relation(out, in.names(), count);
    }
}
