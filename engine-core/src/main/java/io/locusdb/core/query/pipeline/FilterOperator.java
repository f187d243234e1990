package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.ExprCopier;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;

/** Rows for which a condition is true. */
public record FilterOperator(Expr condition) implements PipelineOperator {
    @Override
    public String describe() {
        return "filter " + condition;
    }

    @Override
    public TaskStep open(TaskStep next, int part) {
        ExprCopier copies = ExprCopier.forTask();
        Expr expr = copies.copy(condition);
        return new TaskStep() {
            private int[] selected = new int[1024];

            @Override
            public void push(TaskContext ctx, Chunk chunk) {
                ColumnVector[] columns = chunk.vectors();
                int rows = chunk.rows();
                copies.newChunk();
                ColumnVector keep = expr.eval(columns, rows);
                if (selected.length < rows) {
                    selected = new int[rows];
                }
                int n = Selection.trueRows(keep, rows, selected);
                if (n == rows) {
                    next.push(ctx, chunk);
                } else if (n > 0) {
                    ColumnVector[] out = new ColumnVector[columns.length];
                    for (int c = 0; c < columns.length; c++) {
                        out[c] = columns[c].gather(selected, n);
                    }
                    next.push(ctx, new Chunk(out, n));
                }
            }

            @Override
            public void finish(TaskContext ctx) {
                next.finish(ctx);
            }
        };
    }
}
