package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.query.expr.Numerics;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.query.plan.PhysicalPlan.FrameBound;
import io.locusdb.core.query.plan.PhysicalPlan.WindowCall;
import io.locusdb.core.query.plan.PhysicalPlan.WindowGroup;
import io.locusdb.core.query.sort.RowComparator;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.vector.ColumnVector;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Window functions, a pipeline breaker over its whole input: per window group, the rows sorted by the partition keys
 * and then the order keys (parallel runs and a merge), cut into partitions, and the partitions shared out to
 * "window" tasks in contiguous slices of about equal rows; each task evaluates every call of the group for every
 * row of its partitions and writes the value at the row's own place, so no two tasks write the same row.
 *
 * <p>Frames are evaluated in one pass where they are anchored (UNBOUNDED PRECEDING: values are added as the frame's
 * end moves forward; UNBOUNDED FOLLOWING: as its start moves backward); a frame bounded at both ends is evaluated
 * afresh per row, which costs the frame's length per row (a few rows for typical moving windows).
 */
public final class WindowOperator {
    static final String TASK_CLASS = "window";
    /** Fewer rows than this are evaluated by the calling thread. */
    private static final int PARALLEL_ROWS = 16_384;

    private WindowOperator() {
    }

    /** {@code in}'s columns, then one column per window call, group by group. */
    static Relation apply(Relation in, PhysicalPlan.Window window, NumaExecutor executor, QueryContext query) {
        int rows = in.rows();
        List<ColumnVector> columns = new ArrayList<>(in.columns());
        int next = in.columns().size();
        for (WindowGroup group : window.groups()) {
            List<ColumnVector> outs = new ArrayList<>();
            for (int c = 0; c < group.calls().size(); c++) {
                outs.add(new ColumnVector(window.outputTypes().get(next++), Math.max(1, rows)));
            }
            evaluate(in, group, outs, executor, query);
            for (ColumnVector out : outs) {
                out.setSize(rows);
                out.refreshNulls();
            }
            columns.addAll(outs);
        }
        return new Relation(columns, window.names(), rows);
    }

    private static void evaluate(Relation in, WindowGroup group, List<ColumnVector> outs, NumaExecutor executor,
                                 QueryContext query) {
        int rows = in.rows();
        if (rows == 0) {
            return;
        }
        List<PhysicalPlan.SortKey> partition = new ArrayList<>();
        for (int k : group.partitionKeys()) {
            partition.add(new PhysicalPlan.SortKey(k, false, true));
        }
        List<PhysicalPlan.SortKey> all = new ArrayList<>(partition);
        all.addAll(group.orderKeys());
        int[] order;
        if (all.isEmpty()) {
            order = new int[rows];
            for (int i = 0; i < rows; i++) {
                order[i] = i;
            }
        } else {
            order = RelationSort.order(in, all, rows, executor, query);
        }
        ColumnVector[] columns = in.chunk().vectors();
        // Partition starts, in sorted positions, and a sentinel at the end.
        RowComparator samePartition = RelationSort.comparator(columns, partition);
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 1; i < rows && !partition.isEmpty(); i++) {
            if (samePartition.compare(order[i - 1], order[i]) != 0) {
                starts.add(i);
            }
        }
        starts.add(rows);
        int tasks = executor == null || rows < PARALLEL_ROWS ? 1
                : (int) Math.max(1, Math.min(4L * executor.concurrencyHint(), rows / (PARALLEL_ROWS / 4)));
        if (tasks == 1) {
            new Evaluation(columns, group, order, outs).partitions(starts, 0, starts.size() - 1);
            return;
        }
        // Slices of whole partitions, about rows / tasks rows each.
        List<int[]> slices = new ArrayList<>();
        int first = 0;
        long target = (rows + tasks - 1L) / tasks;
        for (int p = 1; p < starts.size(); p++) {
            if (starts.get(p) - starts.get(first) >= target || p == starts.size() - 1) {
                slices.add(new int[] {first, p});
                first = p;
            }
        }
        TaskClass taskClass = executor.taskClass(TASK_CLASS);
        TaskGraph graph = new TaskGraph("window");
        TaskGraph.Node root = graph.root(taskClass, TaskGraph.ANY_NODE, ctx -> { });
        for (int[] slice : slices) {
            graph.node(taskClass, TaskGraph.ANY_NODE, ctx -> new Evaluation(columns, group, order, outs)
                    .partitions(starts, slice[0], slice[1]), root);
        }
        executor.submit(graph, query).await();
    }

    /** One task's evaluation: its own comparators and state over the shared, read-only input. */
    private static final class Evaluation {
        private final ColumnVector[] columns;
        private final WindowGroup group;
        private final int[] order;
        private final List<ColumnVector> outs;
        private final RowComparator peers;
        /** The one order key's values for RANGE frames with an offset; null otherwise. */
        private final ColumnVector rangeKey;
        private int[] peerStart = new int[0];
        private int[] peerEnd = new int[0];

        Evaluation(ColumnVector[] columns, WindowGroup group, int[] order, List<ColumnVector> outs) {
            this.columns = columns;
            this.group = group;
            this.order = order;
            this.outs = outs;
            this.peers = RelationSort.comparator(columns, group.orderKeys());
            boolean offsets = group.lower().kind() == FrameBound.Kind.PRECEDING
                    || group.lower().kind() == FrameBound.Kind.FOLLOWING
                    || group.upper().kind() == FrameBound.Kind.PRECEDING
                    || group.upper().kind() == FrameBound.Kind.FOLLOWING;
            this.rangeKey = !group.rows() && offsets ? columns[group.orderKeys().getFirst().column()] : null;
        }

        /** Partitions {@code from..to-1}, partition p being sorted positions {@code starts[p]..starts[p+1]-1}. */
        void partitions(List<Integer> starts, int from, int to) {
            for (int p = from; p < to; p++) {
                partition(starts.get(p), starts.get(p + 1));
            }
        }

        private void partition(int ps, int pe) {
            int n = pe - ps;
            if (peerStart.length < n) {
                peerStart = new int[n];
                peerEnd = new int[n];
            }
            int groupStart = ps;
            for (int i = ps; i < pe; i++) {
                if (i > ps && (group.orderKeys().isEmpty() || peers.compare(order[i - 1], order[i]) != 0)) {
                    for (int j = groupStart; j < i; j++) {
                        peerEnd[j - ps] = i;
                    }
                    groupStart = i;
                }
                peerStart[i - ps] = groupStart;
            }
            for (int j = groupStart; j < pe; j++) {
                peerEnd[j - ps] = pe;
            }
            for (int c = 0; c < group.calls().size(); c++) {
                call(group.calls().get(c), outs.get(c), ps, pe);
            }
        }

        private void call(WindowCall call, ColumnVector out, int ps, int pe) {
            int n = pe - ps;
            switch (call.function()) {
                case ROW_NUMBER -> {
                    for (int i = ps; i < pe; i++) {
                        out.setLong(order[i], i - ps + 1);
                    }
                }
                case RANK -> {
                    for (int i = ps; i < pe; i++) {
                        out.setLong(order[i], peerStart[i - ps] - ps + 1);
                    }
                }
                case DENSE_RANK -> {
                    long rank = 0;
                    for (int i = ps; i < pe; i++) {
                        if (peerStart[i - ps] == i) {
                            rank++;
                        }
                        out.setLong(order[i], rank);
                    }
                }
                case PERCENT_RANK -> {
                    for (int i = ps; i < pe; i++) {
                        out.setDouble(order[i], n == 1 ? 0 : (double) (peerStart[i - ps] - ps) / (n - 1));
                    }
                }
                case CUME_DIST -> {
                    for (int i = ps; i < pe; i++) {
                        out.setDouble(order[i], (double) (peerEnd[i - ps] - ps) / n);
                    }
                }
                case NTILE -> ntile(call.offset(), out, ps, pe);
                case LAG, LEAD -> shifted(call, out, ps, pe);
                default -> framed(call, out, ps, pe);
            }
        }

        /** NTILE(k): n rows in k buckets whose sizes differ by at most one, the larger ones first. */
        private void ntile(long buckets, ColumnVector out, int ps, int pe) {
            long n = pe - ps;
            long size = n / buckets;
            long larger = n % buckets;
            for (int i = ps; i < pe; i++) {
                long j = i - ps;
                long bucket = size == 0 ? j : j < larger * (size + 1) ? j / (size + 1)
                        : larger + (j - larger * (size + 1)) / size;
                out.setLong(order[i], bucket + 1);
            }
        }

        private void shifted(WindowCall call, ColumnVector out, int ps, int pe) {
            ColumnVector argument = columns[call.argument()];
            long step = call.function() == PhysicalPlan.WindowFunction.LAG ? -call.offset() : call.offset();
            for (int i = ps; i < pe; i++) {
                long target = i + step;
                if (target >= ps && target < pe) {
                    copy(argument, order[(int) target], out, order[i]);
                } else {
                    setPhysical(out, order[i], call.defaultValue());
                }
            }
        }

        /** FIRST_VALUE, LAST_VALUE and the aggregates: over each row's frame. */
        private void framed(WindowCall call, ColumnVector out, int ps, int pe) {
            FrameBound.Kind lower = group.lower().kind();
            FrameBound.Kind upper = group.upper().kind();
            if (call.function() == PhysicalPlan.WindowFunction.FIRST_VALUE
                    || call.function() == PhysicalPlan.WindowFunction.LAST_VALUE) {
                ColumnVector argument = columns[call.argument()];
                boolean first = call.function() == PhysicalPlan.WindowFunction.FIRST_VALUE;
                for (int i = ps; i < pe; i++) {
                    int lo = frameStart(i, ps, pe);
                    int hi = frameEnd(i, ps, pe);
                    if (lo > hi) {
                        out.setNull(order[i]);
                    } else {
                        copy(argument, order[first ? lo : hi], out, order[i]);
                    }
                }
                return;
            }
            FrameAggregate state = new FrameAggregate(call, call.argument() < 0 ? null : columns[call.argument()]);
            if (lower == FrameBound.Kind.UNBOUNDED_PRECEDING) {
                // Frames that all start at the partition's start: add rows as the end moves forward.
                int added = ps;
                for (int i = ps; i < pe; i++) {
                    int hi = frameEnd(i, ps, pe);
                    while (added <= hi) {
                        state.add(order[added++]);
                    }
                    state.write(out, order[i]);
                }
            } else if (upper == FrameBound.Kind.UNBOUNDED_FOLLOWING) {
                // Frames that all end at the partition's end: add rows as the start moves backward.
                int added = pe - 1;
                for (int i = pe - 1; i >= ps; i--) {
                    int lo = frameStart(i, ps, pe);
                    while (added >= lo) {
                        state.add(order[added--]);
                    }
                    state.write(out, order[i]);
                }
            } else {
                for (int i = ps; i < pe; i++) {
                    int lo = frameStart(i, ps, pe);
                    int hi = frameEnd(i, ps, pe);
                    state.reset();
                    for (int j = lo; j <= hi; j++) {
                        state.add(order[j]);
                    }
                    state.write(out, order[i]);
                }
            }
        }

        /** The first sorted position of row i's frame (past the partition's end when the frame is empty). */
        private int frameStart(int i, int ps, int pe) {
            FrameBound bound = group.lower();
            return switch (bound.kind()) {
                case UNBOUNDED_PRECEDING -> ps;
                case UNBOUNDED_FOLLOWING -> pe;
                case CURRENT_ROW -> group.rows() ? i : peerStart[i - ps];
                case PRECEDING, FOLLOWING -> {
                    long offset = bound.kind() == FrameBound.Kind.PRECEDING ? -bound.offset() : bound.offset();
                    if (group.rows()) {
                        yield (int) Math.max(ps, Math.min(pe, i + offset));
                    }
                    yield rangeStart(i, ps, pe, offset);
                }
            };
        }

        /** The last sorted position of row i's frame (before the partition's start when the frame is empty). */
        private int frameEnd(int i, int ps, int pe) {
            FrameBound bound = group.upper();
            return switch (bound.kind()) {
                case UNBOUNDED_PRECEDING -> ps - 1;
                case UNBOUNDED_FOLLOWING -> pe - 1;
                case CURRENT_ROW -> group.rows() ? i : peerEnd[i - ps] - 1;
                case PRECEDING, FOLLOWING -> {
                    long offset = bound.kind() == FrameBound.Kind.PRECEDING ? -bound.offset() : bound.offset();
                    if (group.rows()) {
                        yield (int) Math.max(ps - 1, Math.min(pe - 1, i + offset));
                    }
                    yield rangeEnd(i, ps, pe, offset);
                }
            };
        }

        /**
         * RANGE: the first position whose key is at least the current key plus {@code offset} in the direction of
         * the order (for DESC, "preceding" values are larger). A NULL key's frame is its peers.
         */
        private int rangeStart(int i, int ps, int pe, long offset) {
            if (rangeKey.isNull(order[i])) {
                return peerStart[i - ps];
            }
            long bound = bound(rangeKey.longs()[order[i]], offset);
            int lo = ps;
            int hi = pe;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (before(order[mid], bound)) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        private int rangeEnd(int i, int ps, int pe, long offset) {
            if (rangeKey.isNull(order[i])) {
                return peerEnd[i - ps] - 1;
            }
            long bound = bound(rangeKey.longs()[order[i]], offset);
            int lo = ps;
            int hi = pe;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (before(order[mid], bound) || atOrBefore(order[mid], bound)) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo - 1;
        }

        /** The key {@code offset} away from {@code key} in the order's direction, saturated at the long range. */
        private long bound(long key, long offset) {
            boolean descending = group.orderKeys().getFirst().descending();
            long delta = descending ? -offset : offset;
            long sum = key + delta;
            if (((key ^ sum) & (delta ^ sum)) < 0) {
                return delta > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
            }
            return sum;
        }

        /** Whether the row sorts strictly before the key value (NULLs go where the order puts them). */
        private boolean before(int row, long key) {
            PhysicalPlan.SortKey sort = group.orderKeys().getFirst();
            if (rangeKey.isNull(row)) {
                return sort.nullsFirst();
            }
            long v = rangeKey.longs()[row];
            return sort.descending() ? v > key : v < key;
        }

        private boolean atOrBefore(int row, long key) {
            return !rangeKey.isNull(row) && rangeKey.longs()[row] == key;
        }

        private static void copy(ColumnVector from, int fromRow, ColumnVector to, int toRow) {
            if (from.isNull(fromRow)) {
                to.setNull(toRow);
                return;
            }
            switch (to.type().physical()) {
                case LONG -> to.setLong(toRow, from.longs()[fromRow]);
                case DOUBLE -> to.setDouble(toRow, from.doubles()[fromRow]);
                case STRING -> to.setString(toRow, from.string(fromRow));
            }
        }

        private static void setPhysical(ColumnVector to, int row, Object value) {
            switch (value) {
                case null -> to.setNull(row);
                case Long l -> to.setLong(row, l);
                case Double d -> to.setDouble(row, d);
                case Number n when to.type().physical() == TypeKind.Physical.DOUBLE -> to.setDouble(row,
                        n.doubleValue());
                case Number n -> to.setLong(row, n.longValue());
                default -> to.setString(row, value.toString());
            }
        }
    }

    /** COUNT, SUM, SUM0, AVG, MIN or MAX over the rows added since the last reset. */
    private static final class FrameAggregate {
        private final WindowCall call;
        private final ColumnVector argument;
        private final TypeKind.Physical physical;
        private long count;
        private long longSum;
        private double doubleSum;
        private long longExtreme;
        private double doubleExtreme;
        private String stringExtreme;

        FrameAggregate(WindowCall call, ColumnVector argument) {
            this.call = call;
            this.argument = argument;
            this.physical = argument == null ? TypeKind.Physical.LONG : argument.type().physical();
        }

        void reset() {
            count = 0;
            longSum = 0;
            doubleSum = 0;
            stringExtreme = null;
        }

        void add(int row) {
            if (argument == null) {
                count++;
                return;
            }
            if (argument.isNull(row)) {
                return;
            }
            boolean max = call.function() == PhysicalPlan.WindowFunction.MAX;
            switch (physical) {
                case LONG -> {
                    long v = argument.longs()[row];
                    switch (call.function()) {
                        case SUM, SUM0, AVG -> {
                            try {
                                longSum = Math.addExact(longSum, v);
                            } catch (ArithmeticException e) {
                                throw Numerics.overflow();
                            }
                        }
                        case MIN, MAX -> {
                            if (count == 0 || (max ? v > longExtreme : v < longExtreme)) {
                                longExtreme = v;
                            }
                        }
                        default -> {
                        }
                    }
                }
                case DOUBLE -> {
                    double v = argument.doubles()[row];
                    switch (call.function()) {
                        case SUM, SUM0, AVG -> doubleSum += v;
                        case MIN, MAX -> {
                            if (count == 0 || (max ? Double.compare(v, doubleExtreme) > 0
                                    : Double.compare(v, doubleExtreme) < 0)) {
                                doubleExtreme = v;
                            }
                        }
                        default -> {
                        }
                    }
                }
                case STRING -> {
                    String v = argument.string(row);
                    if (stringExtreme == null || (max ? v.compareTo(stringExtreme) > 0
                            : v.compareTo(stringExtreme) < 0)) {
                        stringExtreme = v;
                    }
                }
            }
            count++;
        }

        void write(ColumnVector out, int row) {
            ColumnType result = call.resultType();
            switch (call.function()) {
                case COUNT -> out.setLong(row, count);
                case SUM, SUM0 -> {
                    if (count == 0 && call.function() == PhysicalPlan.WindowFunction.SUM) {
                        out.setNull(row);
                    } else if (result.physical() == TypeKind.Physical.DOUBLE) {
                        out.setDouble(row, physical == TypeKind.Physical.DOUBLE ? doubleSum
                                : BigDecimal.valueOf(longSum, Numerics.scale(call.argumentType())).doubleValue());
                    } else {
                        out.setLong(row, rescale(BigDecimal.valueOf(longSum, Numerics.scale(call.argumentType())),
                                result));
                    }
                }
                case AVG -> {
                    if (count == 0) {
                        out.setNull(row);
                    } else if (physical == TypeKind.Physical.DOUBLE) {
                        out.setDouble(row, doubleSum / count);
                    } else {
                        BigDecimal sum = BigDecimal.valueOf(longSum, Numerics.scale(call.argumentType()));
                        if (result.physical() == TypeKind.Physical.DOUBLE) {
                            out.setDouble(row, sum.doubleValue() / count);
                        } else {
                            out.setLong(row, rescale(sum.divide(BigDecimal.valueOf(count),
                                    Numerics.scale(result) + 1, RoundingMode.HALF_UP), result));
                        }
                    }
                }
                case MIN, MAX -> {
                    if (count == 0) {
                        out.setNull(row);
                        return;
                    }
                    switch (physical) {
                        case LONG -> out.setLong(row, longExtreme);
                        case DOUBLE -> out.setDouble(row, doubleExtreme);
                        case STRING -> out.setString(row, stringExtreme);
                    }
                }
                default -> throw new IllegalStateException("not a frame aggregate: " + call.function());
            }
        }

        /** A value as the unscaled long of the result type (integers: scale 0). */
        private static long rescale(BigDecimal value, ColumnType result) {
            try {
                return value.setScale(Numerics.scale(result), RoundingMode.HALF_UP).unscaledValue().longValueExact();
            } catch (ArithmeticException e) {
                throw Numerics.overflow();
            }
        }
    }
}
