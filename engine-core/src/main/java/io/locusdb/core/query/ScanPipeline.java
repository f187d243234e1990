package io.locusdb.core.query;

import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import java.util.List;
import java.util.function.Consumer;

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
                                     List<ValueRange> ranges, MaterializeJob.Columns columns,
                                     MaterializeJob.ConsumerFactory consumers, Consumer<TaskRecord> trace) {
        List<TablePart> parts = snapshot.parts();
        TaskClass scan = executor.taskClass(PartScanJob.TASK_CLASS);
        TaskClass materialize = executor.taskClass(MaterializeJob.TASK_CLASS);
        TaskGraph graph = new TaskGraph("query " + query.label());
        TaskGraph.Node fork = graph.root(scan, TaskGraph.ANY_NODE, ctx -> { });
        int partCount = parts.size();
        for (int p = 0; p < partCount; p++) {
            TablePart part = parts.get(p);
            int index = p;
            graph.node(scan, part.homeNode(), ctx -> {
                PartScanJob.PartResult result = PartScanJob.scanPart(ctx, snapshot, part, index, ranges, true);
                trace.accept(new TaskRecord(PartScanJob.TASK_CLASS, index, part.homeNode(), ctx.node(),
                        ctx.stolen(), result.matches()));
                if (result.matches() == 0) {
                    return;
                }
                for (MaterializeJob.Chunk chunk : MaterializeJob.chunks(result, ctx.concurrencyHint(), partCount)) {
                    ctx.fork(materialize, part.homeNode(), c -> {
                        MaterializeJob.materialize(c, part, result, chunk, columns, consumers.forPart(index));
                        trace.accept(new TaskRecord(MaterializeJob.TASK_CLASS, index, part.homeNode(), c.node(),
                                c.stolen(), -1));
                    });
                }
            }, fork);
        }
        return executor.submit(graph, query);
    }
}
