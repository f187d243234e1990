package io.locusdb.core.query.expr;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.type.ColumnType;

/**
 * A compiled scalar expression evaluated a batch at a time: inputs are the batch's column vectors, the output a
 * vector of {@link #type()} in physical values. The planner compiles each expression once, into the plan; each
 * instance owns its output buffer, reused from batch to batch, so a task evaluates its own {@link ExprCopier copy}
 * of the plan's tree. Kernels throw on data only for errors SQL raises (overflow, division by zero, a bad CAST);
 * a CASE, AND or OR evaluates every operand on every row first and, where one fails, again on only the rows that
 * operand decides, so a guarded error ({@code CASE WHEN x <> 0 THEN 1 / x END}) raises nothing.
 */
public abstract class Expr {
    protected final ColumnType type;
    private ColumnVector out;

    protected Expr(ColumnType type) {
        this.type = type;
    }

    public ColumnType type() {
        return type;
    }

    public abstract ColumnVector eval(ColumnVector[] inputs, int rows);

    /** This expression's buffer, cleared for {@code rows} rows. */
    protected ColumnVector out(int rows) {
        if (out == null) {
            out = new ColumnVector(type, Math.max(rows, 16));
        }
        out.prepare(rows);
        return out;
    }

    /** Whether the value is the same for every row (literals, and parameters bound before compilation). */
    public boolean isConstant() {
        return false;
    }

    /**
     * This node again, with fresh buffers and its children copied by {@code copier} (which keeps shared subtrees
     * shared and may renumber inputs).
     */
    protected abstract Expr copy(ExprCopier copier);

    @Override
    public abstract String toString();
}
