package io.locusdb.core.query.expr;

import io.locusdb.core.vector.ColumnVector;

/**
 * A subexpression used more than once (TPC-H Q1's {@code l_extendedprice * (1 - l_discount)}): evaluated once
 * per batch, the result reused while the same inputs are presented again.
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

    @Override
    protected Expr copy(ExprCopier copier) {
        return new Shared(copier.copy(input));
    }

    @Override
    public String toString() {
        return input.toString();
    }
}
