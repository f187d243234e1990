package io.locusdb.core.query.expr;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.type.ColumnType;

/** Column {@code index} of the input batch, passed through without a copy. */
public final class InputRef extends Expr {
    private final int index;
    private final String name;

    public InputRef(int index, ColumnType type, String name) {
        super(type);
        this.index = index;
        this.name = name;
    }

    public int index() {
        return index;
    }

    @Override
    public ColumnVector eval(ColumnVector[] inputs, int rows) {
        return inputs[index];
    }

    @Override
    protected Expr copy(ExprCopier copier) {
        return new InputRef(copier.input(index), type, name);
    }

    @Override
    public String toString() {
        return name;
    }
}
