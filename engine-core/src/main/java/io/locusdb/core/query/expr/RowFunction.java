package io.locusdb.core.query.expr;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.type.ColumnType;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A scalar function applied row by row to boxed physical values (Long, Double, String): for the string and math
 * functions whose cost is in the function itself, not in the loop. NULL in gives NULL out unless the function
 * handles NULLs itself.
 */
public final class RowFunction extends Expr {
    @FunctionalInterface
    public interface Body {
        Object apply(Object[] args);
    }

    private final String name;
    private final List<Expr> args;
    private final Body body;
    private final boolean nullIn;

    public RowFunction(String name, ColumnType type, List<Expr> args, boolean handlesNulls, Body body) {
        super(type);
        this.name = name;
        this.args = List.copyOf(args);
        this.body = body;
        this.nullIn = handlesNulls;
    }

    @Override
    public ColumnVector eval(ColumnVector[] inputs, int rows) {
        ColumnVector[] values = new ColumnVector[args.size()];
        for (int k = 0; k < values.length; k++) {
            values[k] = args.get(k).eval(inputs, rows);
        }
        ColumnVector out = out(rows);
        Object[] row = new Object[values.length];
        for (int i = 0; i < rows; i++) {
            boolean anyNull = false;
            for (int k = 0; k < values.length; k++) {
                row[k] = values[k].boxed(i);
                anyNull |= row[k] == null;
            }
            Object result = anyNull && !nullIn ? null : body.apply(row);
            if (result == null) {
                out.setNull(i);
            } else if (out.longs() != null) {
                out.setLong(i, ((Number) result).longValue());
            } else if (out.doubles() != null) {
                out.setDouble(i, ((Number) result).doubleValue());
            } else {
                out.setString(i, (String) result);
            }
        }
        return out;
    }

    @Override
    protected Expr copy(ExprCopier copier) {
        return new RowFunction(name, type, copier.copyAll(args), nullIn, body);
    }

    @Override
    public String toString() {
        return name + args.stream().map(Object::toString).collect(Collectors.joining(", ", "(", ")"));
    }
}
