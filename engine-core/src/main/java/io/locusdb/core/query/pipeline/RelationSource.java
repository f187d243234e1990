package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A computed input (the result of a breaker below): its rows cut into ranges, as many as the concurrency hint asks
 * for (at least one batch each), each run by a task of its own. The rows are on the heap of no particular node, so
 * the tasks may run anywhere.
 */
public final class RelationSource implements PipelineSource {
    /** Rows per batch pushed into the pipeline. */
    static final int BATCH_ROWS = 4096;

    private final PipelineContext context;
    private final Relation relation;
    private final String taskClass;

    /** A source whose tasks are of class {@code taskClass}. */
    RelationSource(PipelineContext context, Relation relation, String taskClass) {
        this.context = context;
        this.relation = relation;
        this.taskClass = taskClass;
    }

    @Override
    public String describe() {
        return "computed rows (" + taskClass + " tasks)";
    }

    @Override
    public void run(IntFunction<TaskStep> chains) {
        int rows = relation.rows();
        if (rows == 0) {
            return;
        }
        int tasks = (int) Math.max(1, Math.min(context.executor().concurrencyHint(),
                (rows + BATCH_ROWS - 1) / BATCH_ROWS));
        int step = (rows + tasks - 1) / tasks;
        ColumnVector[] columns = relation.chunk().vectors();
        TaskClass taskType = context.executor().taskClass(taskClass);
        TaskGraph graph = new TaskGraph(taskClass);
        TaskGraph.Node root = graph.root(taskType, TaskGraph.ANY_NODE, ctx -> { });
        for (int start = 0; start < rows; start += step) {
            int first = start;
            int end = Math.min(rows, start + step);
            int range = start / step;
            graph.node(taskType, TaskGraph.ANY_NODE, ctx -> {
                TaskStep head = chains.apply(-1);
                int[] selected = new int[BATCH_ROWS];
                ColumnVector[] batch = new ColumnVector[columns.length];
                Chunk chunk = new Chunk(batch, 0);
                for (int from = first; from < end; from += BATCH_ROWS) {
                    int n = Math.min(BATCH_ROWS, end - from);
                    for (int i = 0; i < n; i++) {
                        selected[i] = from + i;
                    }
                    for (int c = 0; c < columns.length; c++) {
                        batch[c] = columns[c].gather(selected, n);
                    }
                    chunk.rows(n);
                    head.push(ctx, chunk);
                }
                head.finish(ctx);
                context.trace().accept(new TaskRecord(taskClass, range, TaskGraph.ANY_NODE, ctx.node(),
                        ctx.stolen(), end - first));
            }, root);
        }
        context.executor().submit(graph, context.query()).await();
    }

    @Override
    public List<Integer> nodes() {
        return List.of();
    }

    @Override
    public int nodeOf(int part) {
        return -1;
    }
}
