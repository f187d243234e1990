package io.locusdb.core.query.expr;

import io.locusdb.core.vector.ColumnVector;

/**
 * A subexpression used more than once (TPC-H Q1's {@code l_extendedprice * (1 - l_discount)}): evaluated once
 * per chunk, the result reused while the same inputs are presented again. Inputs are often the same vectors
 * refilled chunk after chunk, so the identity of the inputs cannot tell chunks apart: the task's
 * {@link ExprCopier#newChunk()} forgets the result.
 */
public final class Shared extends Expr {
    private final Expr input;
    private ColumnVector[] lastInputs;
    private int lastRows = -1;
    private ColumnVector last;

    public Shared(Expr input) {
        super(input.type());
        this.input = input;
    }

    @Override
    public ColumnVector eval(ColumnVector[] inputs, int rows) {
        if (inputs != lastInputs || rows != lastRows) {
            last = input.eval(inputs, rows);
            lastInputs = inputs;
            lastRows = rows;
        }
        return last;
    }

    /** The next evaluation computes the input again. */
    void forget() {
        lastInputs = null;
        lastRows = -1;
        last = null;
    }

    @Override
    protected Expr copy(ExprCopier copier) {
        Shared copy = new Shared(copier.copy(input));
        copier.register(copy);
        return copy;
    }

    @Override
    public String toString() {
        return input.toString();
    }
}
