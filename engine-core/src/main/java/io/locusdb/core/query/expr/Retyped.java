package io.locusdb.core.query.expr;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.type.ColumnType;

/** Same values, another type with the same representation (e.g. INTEGER widened to BIGINT). */
public final class Retyped extends Expr {
    private final Expr input;

    public Retyped(ColumnType type, Expr input) {
        super(type);
        this.input = input;
    }

    @Override
    public ColumnVector eval(ColumnVector[] inputs, int rows) {
        return input.eval(inputs, rows);
    }

    @Override
    protected Expr copy(ExprCopier copier) {
        return new Retyped(type, copier.copy(input));
    }

    @Override
    public String toString() {
        return input.toString();
    }
}
