package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryCancelledException;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import java.util.ArrayList;
import java.util.List;

/**
 * The last pipeline's end when its rows go straight to the client: each chunk copied into a result batch of its
 * own (the task reuses its vectors) and queued to the reader; the task waits, as inactive, while the reader is
 * behind, so the connection's pace holds the pipeline back and a large result is never held whole.
 */
public final class StreamSink implements PipelineSink {
    private final NumaExecutor executor;
    private final QueryContext query;
    private final StreamingSource target;
    private final List<ResultColumn> columns;
    private final List<ColumnType> types;

    StreamSink(NumaExecutor executor, QueryContext query, StreamingSource target, List<ResultColumn> columns,
               List<ColumnType> types) {
        this.executor = executor;
        this.query = query;
        this.target = target;
        this.columns = columns;
        this.types = types;
    }

    @Override
    public String describe() {
        return "stream to the client";
    }

    @Override
    public TaskStep local() {
        return new TaskStep() {
            @Override
            public void push(TaskContext ctx, Chunk chunk) {
                int rows = chunk.rows();
                List<ColumnVector> copies = new ArrayList<>(chunk.width());
                for (int c = 0; c < chunk.width(); c++) {
                    copies.add(RelationOps.copy(chunk.column(c), types.get(c), rows));
                }
                ResultBatch out = new ResultBatch(columns, copies, rows);
                try {
                    executor.blocking().inactive(() -> {
                        target.queue().put(out);
                        return null;
                    });
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new QueryCancelledException(query, "interrupted while waiting for the reader");
                }
            }

            @Override
            public void finish(TaskContext ctx) {
            }
        };
    }

    /** The rows went to the reader: nothing is left here. */
    @Override
    public Relation result() {
        return Relation.empty(types, columns.stream().map(ResultColumn::name).toList());
    }
}
