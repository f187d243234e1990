package io.locusdb.core.query.scan;

import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.exec.UtilizationTarget;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * Both phases of a scan as one task graph: per table part an "iv-scan" task on the part's node evaluates the
 * pushed-down ranges on the packed codes; when it finds rows it forks "materialize" tasks on the same node, as
 * many as the concurrency hint asks for at that moment, each decoding a chunk of the selection into batches for
 * its own consumer. The graph is returned unawaited, so a consumer may stream batches out while it runs.
 */
public final class ScanPipeline {
    private ScanPipeline() {
    }

    public static GraphHandle submit(NumaExecutor executor, QueryContext query, TableSnapshot snapshot,
                                     List<? extends ScanPredicate> ranges, MaterializeJob.Columns columns,
                                     MaterializeJob.ConsumerFactory consumers, Consumer<TaskRecord> trace) {
        return submit(executor, query, snapshot, ranges, columns, consumers, trace, PartTargets.NONE);
    }

    /** As above, each part's tasks accounted to its target (the placer's histories). */
    public static GraphHandle submit(NumaExecutor executor, QueryContext query, TableSnapshot snapshot,
                                     List<? extends ScanPredicate> ranges, MaterializeJob.Columns columns,
                                     MaterializeJob.ConsumerFactory consumers, Consumer<TaskRecord> trace,
                                     PartTargets targets) {
        int hint = executor.concurrencyHint();
        int partCount = snapshot.parts().size();
        return submit(executor, query, snapshot, ranges, columns, consumers, trace,
                part -> (int) Math.max(1, Math.min((hint + partCount - 1) / partCount,
                        part.rows() / MIN_SCAN_CHUNK_ROWS)), targets);
    }

    /** As above, with the number of phase-1 tasks per part chosen by {@code scanChunks} (tests force splits). */
    static GraphHandle submit(NumaExecutor executor, QueryContext query, TableSnapshot snapshot,
                              List<? extends ScanPredicate> ranges, MaterializeJob.Columns columns,
                              MaterializeJob.ConsumerFactory consumers, Consumer<TaskRecord> trace,
                              ToIntFunction<TablePart> scanChunks) {
        return submit(executor, query, snapshot, ranges, columns, consumers, trace, scanChunks, PartTargets.NONE);
    }

    static GraphHandle submit(NumaExecutor executor, QueryContext query, TableSnapshot snapshot,
                              List<? extends ScanPredicate> ranges, MaterializeJob.Columns columns,
                              MaterializeJob.ConsumerFactory consumers, Consumer<TaskRecord> trace,
                              ToIntFunction<TablePart> scanChunks, PartTargets targets) {
        List<TablePart> parts = snapshot.parts();
        TaskClass scan = executor.taskClass(PartScanJob.TASK_CLASS);
        TaskClass materialize = executor.taskClass(MaterializeJob.TASK_CLASS);
        TaskGraph graph = new TaskGraph("query " + query.label());
        TaskGraph.Node fork = graph.root(scan, TaskGraph.ANY_NODE, ctx -> { });
        int partCount = parts.size();
        for (int p = 0; p < partCount; p++) {
            TablePart part = parts.get(p);
            int index = p;
            int chunks = Math.max(1, scanChunks.applyAsInt(part));
            UtilizationTarget target = targets.of(snapshot, p);
            if (chunks > 1 && !ranges.isEmpty() && IndexScan.plan(snapshot, part, ranges) == null) {
                chunkedScan(graph, fork, scan, materialize, snapshot, part, index, partCount, chunks, ranges,
                        columns, consumers, trace, target);
                continue;
            }
            graph.node(scan, part.homeNode(), target, ctx -> {
                PartScanJob.PartResult result = PartScanJob.scanPart(ctx, snapshot, part, index, ranges, true);
                trace.accept(new TaskRecord(PartScanJob.TASK_CLASS, index, part.homeNode(), ctx.node(),
                        ctx.stolen(), result.matches()));
                forkMaterialize(ctx, materialize, part, index, partCount, result, columns, consumers, trace,
                        target);
            }, fork);
        }
        return executor.submit(graph, query);
    }

    /** Below this many rows per chunk, phase 1 of a part stays one task. */
    private static final long MIN_SCAN_CHUNK_ROWS = 256 * 1024;

    /**
     * Phase 1 of a large part split into row chunks (as many as the concurrency hint asks for), each an iv-scan
     * task on the part's node writing its own words of the part's selection; the last one to finish completes the
     * part and forks its materialize tasks.
     */
    private static void chunkedScan(TaskGraph graph, TaskGraph.Node fork, TaskClass scan, TaskClass materialize,
                                    TableSnapshot snapshot, TablePart part, int index, int partCount, int chunks,
                                    List<? extends ScanPredicate> ranges, MaterializeJob.Columns columns,
                                    MaterializeJob.ConsumerFactory consumers, Consumer<TaskRecord> trace,
                                    UtilizationTarget target) {
        long rows = part.rows();
        long align = PartScanJob.alignment(part, ranges);
        long step = ((rows + chunks - 1) / chunks + align - 1) / align * align;
        long[] selection = new long[(int) ((rows + 63) >>> 6)];
        int count = (int) ((rows + step - 1) / step);
        AtomicInteger remaining = new AtomicInteger(count);
        AtomicLong bytes = new AtomicLong();
        for (long from = 0; from < rows; from += step) {
            long start = from;
            long end = Math.min(rows, from + step);
            graph.node(scan, part.homeNode(), target, ctx -> {
                PartScanJob.selectRows(ctx, part, ranges, start, end, selection);
                bytes.addAndGet(ctx.bytes().total());
                trace.accept(new TaskRecord(PartScanJob.TASK_CLASS, index, part.homeNode(), ctx.node(),
                        ctx.stolen(), end - start));
                if (remaining.decrementAndGet() == 0) {
                    PartScanJob.PartResult result = PartScanJob.finishPart(ctx, snapshot, part, index, ranges,
                            selection, bytes.get());
                    forkMaterialize(ctx, materialize, part, index, partCount, result, columns, consumers, trace,
                            target);
                }
            }, fork);
        }
    }

    private static void forkMaterialize(TaskContext ctx, TaskClass materialize, TablePart part, int index,
                                        int partCount, PartScanJob.PartResult result,
                                        MaterializeJob.Columns columns, MaterializeJob.ConsumerFactory consumers,
                                        Consumer<TaskRecord> trace, UtilizationTarget target) {
        if (result.matches() == 0) {
            return;
        }
        for (MaterializeJob.SelectionRange chunk : MaterializeJob.chunks(result, ctx.concurrencyHint(), partCount)) {
            ctx.fork(materialize, part.homeNode(), target, c -> {
                MaterializeJob.materialize(c, part, result, chunk, columns, consumers.forPart(index));
                trace.accept(new TaskRecord(MaterializeJob.TASK_CLASS, index, part.homeNode(), c.node(),
                        c.stolen(), -1));
            });
        }
    }
}
