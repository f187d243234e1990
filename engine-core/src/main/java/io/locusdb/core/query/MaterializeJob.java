package io.locusdb.core.query;

import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.Dictionary;
import io.locusdb.core.storage.column.DoubleDictionary;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * Phase 2 of a scan: the rows a {@link PartScanJob} selected are decoded through the dictionaries into column
 * batches, one task per part on the part's node (task class "materialize", CPU-intensive: decoding is dictionary
 * lookups). Each task fills reusable batches and hands each full one to the part's consumer; consumers run on the
 * part's task, so one consumer never sees two batches at once.
 */
public final class MaterializeJob {
    public static final String TASK_CLASS = "materialize";
    public static final int DEFAULT_BATCH_ROWS = 4096;

    private MaterializeJob() {
    }

    /** Receives the batches of one part, in row order, on that part's task. */
    @FunctionalInterface
    public interface BatchConsumer {
        void accept(TaskContext context, Batch batch) throws Exception;
    }

    /** Creates the consumer of a part (e.g. a local aggregation table). */
    @FunctionalInterface
    public interface ConsumerFactory {
        BatchConsumer forPart(int part);
    }

    public static void run(NumaExecutor executor, QueryContext query, TableSnapshot snapshot,
                           PartScanJob.Result scan, int[] columns, int batchRows, ConsumerFactory consumers) {
        List<TablePart> parts = snapshot.parts();
        if (scan.parts().size() != parts.size()) {
            throw new IllegalArgumentException("scan result of " + scan.parts().size() + " parts for a snapshot of "
                    + parts.size());
        }
        TaskClass materialize = executor.taskClass(TASK_CLASS);
        TaskGraph graph = new TaskGraph("materialize " + snapshot.table().name());
        TaskGraph.Node fork = graph.root(materialize, TaskGraph.ANY_NODE, ctx -> { });
        for (int p = 0; p < parts.size(); p++) {
            PartScanJob.PartResult result = scan.parts().get(p);
            if (result.matches() == 0) {
                continue;
            }
            if (result.selection() == null) {
                throw new IllegalArgumentException("part " + p + " was scanned without keeping its selection");
            }
            TablePart part = parts.get(p);
            int index = p;
            graph.node(materialize, part.homeNode(), ctx -> materializePart(ctx, snapshot, part, index, result,
                    columns, batchRows, consumers.forPart(index)), fork);
        }
        GraphHandle handle = executor.submit(graph, query);
        handle.await();
    }

    private static void materializePart(TaskContext ctx, TableSnapshot snapshot, TablePart part, int index,
                                        PartScanJob.PartResult result, int[] columns, int batchRows,
                                        BatchConsumer consumer) throws Exception {
        List<ColumnVector> vectors = new ArrayList<>(columns.length);
        Column[] sources = new Column[columns.length];
        for (int i = 0; i < columns.length; i++) {
            sources[i] = part.column(columns[i]);
            vectors.add(new ColumnVector(sources[i].type(), batchRows));
        }
        Batch batch = new Batch(index, List.copyOf(vectors), batchRows);
        long[] selection = result.selection();
        int filled = 0;
        long bytes = 0;
        for (int w = 0; w < selection.length; w++) {
            long bits = selection[w];
            while (bits != 0) {
                long row = ((long) w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                for (int i = 0; i < columns.length; i++) {
                    bytes += decode(sources[i], row, vectors.get(i), filled);
                }
                if (++filled == batchRows) {
                    emit(ctx, consumer, batch, vectors, filled);
                    filled = 0;
                }
            }
        }
        for (int d : result.deltaMatches()) {
            Object[] row = part.delta().row(d);
            for (int i = 0; i < columns.length; i++) {
                setBoxed(vectors.get(i), filled, row[columns[i]]);
            }
            if (++filled == batchRows) {
                emit(ctx, consumer, batch, vectors, filled);
                filled = 0;
            }
        }
        if (filled > 0) {
            emit(ctx, consumer, batch, vectors, filled);
        }
        ctx.bytes().addDictionary(bytes);
    }

    private static void emit(TaskContext ctx, BatchConsumer consumer, Batch batch, List<ColumnVector> vectors,
                             int rows) throws Exception {
        for (ColumnVector v : vectors) {
            v.setSize(rows);
        }
        consumer.accept(ctx, batch);
        for (ColumnVector v : vectors) {
            v.reset();
        }
        ctx.checkCancelled();
    }

    /** Decodes one row of {@code column} into slot {@code slot}; returns the dictionary bytes read. */
    private static long decode(Column column, long row, ColumnVector target, int slot) {
        PackedCodes codes = column.codes();
        int id = codes.get(row);
        if (id == 0) {
            target.setNull(slot);
            return 0;
        }
        Dictionary dictionary = column.dictionary();
        switch (dictionary) {
            case LongDictionary d -> {
                target.setLong(slot, d.value(id));
                return Long.BYTES;
            }
            case DoubleDictionary d -> {
                target.setDouble(slot, d.value(id));
                return Double.BYTES;
            }
            case StringDictionary d -> {
                String value = d.value(id);
                target.setString(slot, value);
                return value.length();
            }
        }
    }

    private static void setBoxed(ColumnVector target, int slot, Object value) {
        if (value == null) {
            target.setNull(slot);
        } else if (target.longs() != null) {
            target.setLong(slot, ((Number) value).longValue());
        } else if (target.doubles() != null) {
            target.setDouble(slot, ((Number) value).doubleValue());
        } else {
            target.setString(slot, (String) value);
        }
    }
}
