package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.ExprCopier;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import java.util.List;

/** Expressions over each row. */
public record ProjectOperator(List<Expr> exprs) implements PipelineOperator {
    @Override
    public String describe() {
        return "project " + exprs.size() + " column" + (exprs.size() == 1 ? "" : "s");
    }

    @Override
    public TaskStep open(TaskStep next, int part) {
        ExprCopier copies = ExprCopier.forTask();
        List<Expr> compiled = copies.copyAll(exprs);
        return new TaskStep() {
            private final ColumnVector[] out = new ColumnVector[compiled.size()];
            private final Chunk chunk = new Chunk(out, 0);

            @Override
            public void push(TaskContext ctx, Chunk in) {
                copies.newChunk();
                for (int i = 0; i < out.length; i++) {
                    out[i] = compiled.get(i).eval(in.vectors(), in.rows());
                }
                chunk.rows(in.rows());
                next.push(ctx, chunk);
            }

            @Override
            public void finish(TaskContext ctx) {
                next.finish(ctx);
            }
        };
    }
}
