package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.InputRef;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.query.scan.MaterializeJob;
import io.locusdb.core.query.scan.RowFetch;
import io.locusdb.core.query.sort.LongSelection;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.ColumnVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * ORDER BY ... LIMIT straight over a table scan, materialized late ({@link PhysicalPlan.Sort#fetchesLate}): the scan
 * decodes the sort keys only, the top-N sink keeps those and each row's position, and once the first rows are known
 * their other columns are read from the parts by position, a task per part and group of columns on the part's node.
 * A top-N of many rows over wide rows otherwise copies every column of every row that beats a task's cut-off,
 * strings decoded, to throw most of them away.
 */
final class LateTopN {
    /** The tasks that read the first rows' other columns from the parts. */
    static final String FETCH_TASK_CLASS = "top-n-fetch";
    private static final String POSITION = "$position";
    /** Fewer wanted rows than this in a part are not worth a fetch task of their own. */
    private static final int MIN_FETCH_ROWS = 4096;
    /** The rows of one column a fetch task decodes at once. */
    private static final int FETCH_SLICE_ROWS = 4096;

    private LateTopN() {
    }

    /** The scan reduced to the outputs that {@code sort} orders by, each once, in the order the keys name them. */
    static PhysicalPlan.Scan keysOnly(PhysicalPlan.Scan scan, PhysicalPlan.Sort sort) {
        boolean[] taken = new boolean[scan.outputs().size()];
        List<Expr> outputs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (PhysicalPlan.SortKey key : sort.keys()) {
            if (!taken[key.column()]) {
                taken[key.column()] = true;
                outputs.add(scan.outputs().get(key.column()));
                names.add(scan.names().get(key.column()));
            }
        }
        return new PhysicalPlan.Scan(scan.table(), scan.ranges(), scan.residual(), outputs, names);
    }

    /** Whether a top-N over {@code scan} starts from a cut-off guessed from a sample: nothing filters its rows. */
    static boolean guesses(PhysicalPlan.Scan scan) {
        return scan.ranges().isEmpty() && scan.residual() == null;
    }

    /** For each of the scan's outputs, its position among the keys-only scan's outputs, or -1 if not a key. */
    private static int[] narrowedPositions(PhysicalPlan.Scan scan, PhysicalPlan.Sort sort) {
        int[] narrowed = new int[scan.outputs().size()];
        Arrays.fill(narrowed, -1);
        int next = 0;
        for (PhysicalPlan.SortKey key : sort.keys()) {
            if (narrowed[key.column()] < 0) {
                narrowed[key.column()] = next++;
            }
        }
        return narrowed;
    }

    /** The first rows of {@code scan} in {@code sort}'s order, after its OFFSET: every output of the scan. */
    static Relation run(PipelineContext context, PhysicalPlan.Scan scan, PhysicalPlan.Sort sort) {
        int[] narrowed = narrowedPositions(scan, sort);
        PhysicalPlan.Scan keys = keysOnly(scan, sort);
        List<PhysicalPlan.SortKey> keyOrder = sort.keys().stream()
                .map(k -> new PhysicalPlan.SortKey(narrowed[k.column()], k.descending(), k.nullsFirst())).toList();
        ScanProgram program = new ScanProgram(keys, context.batchRows());
        List<ColumnType> types = new ArrayList<>(program.outputTypes());
        types.add(ColumnType.BIGINT);
        List<String> names = new ArrayList<>(keys.names());
        names.add(POSITION);
        int limit = (int) (sort.offset() + sort.fetch());
        // A guess at the cut-off needs every row to count: rows a filter drops might leave too few past it.
        boolean guess = guesses(keys);
        TableScanSource source = null;
        Relation kept;
        while (true) {
            // A second pass reads the parts the first read: the query sees one version of the table.
            source = (source == null ? new TableScanSource(context, keys, program)
                    : new TableScanSource(context, keys, program, source.snapshot())).withPositions();
            TopNSink sink = new TopNSink(types, names, keyOrder, limit, context.query().memory());
            if (guess) {
                int column = ((InputRef) keys.outputs().get(keyOrder.getFirst().column())).index();
                Long cutoff = SampledCutoff.guess(source.snapshot(), column, keyOrder.getFirst(), limit);
                if (cutoff != null) {
                    sink.startFrom(cutoff);
                }
            }
            kept = new Pipeline(new OperatorChain(context, source, List.of()), sink).run();
            if (!sink.guessFailed()) {
                break;
            }
            sink.release();
            // Too few rows passed the guess (deleted rows in the sample, many equal keys): again, without one.
            guess = false;
        }
        int[] order = RelationSort.order(kept, keyOrder, limit, context.executor(), context.query());
        int from = (int) Math.min(order.length, sort.offset());
        long[] positions = kept.columns().getLast().longs();
        long[] wanted = new long[order.length - from];
        for (int i = 0; i < wanted.length; i++) {
            wanted[i] = positions[order[from + i]];
        }
        return fetch(context, scan, source.snapshot(), wanted);
    }

    /**
     * Every output of {@code scan} for the rows at {@code positions} (part and position, as the scan gave them), in
     * that order.
     */
    private static Relation fetch(PipelineContext context, PhysicalPlan.Scan scan, TableSnapshot snapshot,
                                  long[] positions) {
        int rows = positions.length;
        List<ColumnVector> out = new ArrayList<>();
        for (Expr output : scan.outputs()) {
            ColumnVector v = new ColumnVector(output.type(), Math.max(1, rows));
            v.setSize(rows);
            out.add(v);
        }
        // Per part: its rows by position (ascending, as decoding wants them), each with the slot it goes to.
        List<TablePart> parts = snapshot.parts();
        PartRows[] byPart = PartRows.of(positions, parts.size());
        int hint = Math.max(1, context.executor().concurrencyHint());
        int partsWithRows = 0;
        for (PartRows p : byPart) {
            partsWithRows += p == null ? 0 : 1;
        }
        int[] columns = new int[out.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = ((InputRef) scan.outputs().get(c)).index();
        }
        ColumnVector[] targets = out.toArray(ColumnVector[]::new);
        TaskClass taskClass = context.executor().taskClass(FETCH_TASK_CLASS);
        TaskGraph graph = new TaskGraph("top-n fetch of " + scan.table().name());
        TaskGraph.Node root = graph.root(taskClass, TaskGraph.ANY_NODE, ctx -> { });
        for (int p = 0; p < byPart.length; p++) {
            PartRows partRows = byPart[p];
            if (partRows == null) {
                continue;
            }
            TablePart part = parts.get(p);
            int index = p;
            // Ranges of the part's rows, every column each: the tasks take equal shares, whatever the columns cost.
            int chunks = (int) Math.max(1, Math.min((hint + partsWithRows - 1) / partsWithRows,
                    partRows.mainRows().length / MIN_FETCH_ROWS));
            for (int k = 0; k < chunks; k++) {
                int first = (int) ((long) partRows.mainRows().length * k / chunks);
                int end = (int) ((long) partRows.mainRows().length * (k + 1) / chunks);
                boolean withDelta = k == chunks - 1;
                graph.node(taskClass, part.homeNode(), ctx -> {
                    partRows.fetch(ctx, part, columns, first, end, withDelta, targets);
                    context.trace().accept(new TaskRecord(FETCH_TASK_CLASS, index, part.homeNode(), ctx.node(),
                            ctx.stolen(), end - first + (withDelta ? partRows.deltaRows().length : 0)));
                }, root);
            }
        }
        context.executor().submit(graph, context.query()).await();
        // Tasks of different parts wrote different slots of one vector: whether it holds NULLs is known only now.
        for (ColumnVector v : out) {
            v.refreshNulls();
        }
        return new Relation(out, scan.names(), rows);
    }

    /** One part's wanted rows: main rows ascending and delta rows, each with the output slot it goes to. */
    private record PartRows(int[] mainRows, int[] mainSlots, int[] deltaRows, int[] deltaSlots) {

        static PartRows[] of(long[] positions, int parts) {
            int[] main = new int[parts];
            int[] delta = new int[parts];
            for (long position : positions) {
                int part = (int) (position >>> 32);
                if ((position & MaterializeJob.DELTA_ROW) != 0) {
                    delta[part]++;
                } else {
                    main[part]++;
                }
            }
            // Row (upper 32 bits) and slot (lower) in one long: sorting them sorts by row.
            long[][] mainKeys = new long[parts][];
            PartRows[] result = new PartRows[parts];
            for (int p = 0; p < parts; p++) {
                if (main[p] + delta[p] > 0) {
                    mainKeys[p] = new long[main[p]];
                    result[p] = new PartRows(null, null, new int[delta[p]], new int[delta[p]]);
                }
            }
            int[] mainFilled = new int[parts];
            int[] deltaFilled = new int[parts];
            for (int slot = 0; slot < positions.length; slot++) {
                long position = positions[slot];
                int part = (int) (position >>> 32);
                int row = (int) (position & (MaterializeJob.DELTA_ROW - 1));
                if ((position & MaterializeJob.DELTA_ROW) != 0) {
                    int d = deltaFilled[part]++;
                    result[part].deltaRows()[d] = row;
                    result[part].deltaSlots()[d] = slot;
                } else {
                    mainKeys[part][mainFilled[part]++] = ((long) row << 32) | slot;
                }
            }
            for (int p = 0; p < parts; p++) {
                if (result[p] == null) {
                    continue;
                }
                long[] keys = mainKeys[p];
                LongSelection.sortByUpperInt(keys);
                int[] rows = new int[keys.length];
                int[] slots = new int[keys.length];
                for (int i = 0; i < keys.length; i++) {
                    rows[i] = (int) (keys[i] >>> 32);
                    slots[i] = (int) keys[i];
                }
                result[p] = new PartRows(rows, slots, result[p].deltaRows(), result[p].deltaSlots());
            }
            return result;
        }

        /**
         * Every column of main rows {@code first..end-1} (and of the delta rows, with {@code withDelta}) of
         * {@code part}, each row into its slot of {@code targets}.
         */
        void fetch(TaskContext ctx, TablePart part, int[] columns, int first, int end, boolean withDelta,
                   ColumnVector[] targets) {
            for (int c = 0; c < columns.length; c++) {
                // A slice at a time: decoding's scratch arrays stay the size of a batch, whatever the LIMIT.
                ColumnVector read = new ColumnVector(targets[c].type(), Math.min(FETCH_SLICE_ROWS,
                        Math.max(1, end - first)));
                for (int from = first; from < end; from += FETCH_SLICE_ROWS) {
                    int count = Math.min(FETCH_SLICE_ROWS, end - from);
                    int[] rows = Arrays.copyOfRange(mainRows, from, from + count);
                    int[] slots = Arrays.copyOfRange(mainSlots, from, from + count);
                    RowFetch.mainRows(part, columns[c], rows, count, read);
                    scatter(read, slots, count, targets[c]);
                }
                if (withDelta && deltaRows.length > 0) {
                    ColumnVector delta = new ColumnVector(targets[c].type(), deltaRows.length);
                    RowFetch.deltaRows(part, columns[c], deltaRows, deltaRows.length, delta, 0);
                    scatter(delta, deltaSlots, deltaRows.length, targets[c]);
                }
                ctx.checkCancelled();
            }
        }

        /** Row i of {@code read} into slot {@code slots[i]} of {@code target}, for the first {@code count}. */
        private static void scatter(ColumnVector read, int[] slots, int count, ColumnVector target) {
            boolean[] nulls = read.nulls();
            boolean[] targetNulls = target.nulls();
            for (int i = 0; i < count; i++) {
                targetNulls[slots[i]] = nulls[i];
            }
            switch (target.physical()) {
                case LONG -> {
                    long[] from = read.longs();
                    long[] to = target.longs();
                    for (int i = 0; i < count; i++) {
                        to[slots[i]] = from[i];
                    }
                }
                case DOUBLE -> {
                    double[] from = read.doubles();
                    double[] to = target.doubles();
                    for (int i = 0; i < count; i++) {
                        to[slots[i]] = from[i];
                    }
                }
                case STRING -> {
                    String[] from = read.strings();
                    String[] to = target.strings();
                    for (int i = 0; i < count; i++) {
                        to[slots[i]] = from[i];
                    }
                }
            }
        }
    }
}
