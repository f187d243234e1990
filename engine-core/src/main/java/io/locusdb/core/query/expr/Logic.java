package io.locusdb.core.query.expr;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.type.ColumnType;
import java.util.List;
import java.util.stream.Collectors;

/** Boolean connectives with SQL's three-valued logic, and the IS [NOT] NULL/TRUE/FALSE tests. */
public final class Logic extends Expr {
    public enum Op {
        AND, OR, NOT, IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE
    }

    private final Op op;
    private final List<Expr> operands;

    public Logic(Op op, List<Expr> operands) {
        super(ColumnType.BOOLEAN);
        this.op = op;
        this.operands = List.copyOf(operands);
    }

    @Override
    public ColumnVector eval(ColumnVector[] inputs, int rows) {
        return switch (op) {
            case AND, OR -> connective(inputs, rows, op == Op.AND);
            default -> unary(inputs, rows);
        };
    }

    /** AND: false wins over NULL, NULL over true. OR: the dual. */
    private ColumnVector connective(ColumnVector[] inputs, int rows, boolean and) {
        ColumnVector[] values = new ColumnVector[operands.size()];
        for (int k = 0; k < values.length; k++) {
            values[k] = operands.get(k).eval(inputs, rows);
        }
        ColumnVector out = out(rows);
        long[] r = out.longs();
        boolean[] nulls = out.nulls();
        long decisive = and ? 0 : 1;
        for (int i = 0; i < rows; i++) {
            boolean sawNull = false;
            boolean decided = false;
            for (ColumnVector v : values) {
                if (v.isNull(i)) {
                    sawNull = true;
                } else if (v.longs()[i] == decisive) {
                    decided = true;
                    break;
                }
            }
            if (decided) {
                r[i] = decisive;
            } else if (sawNull) {
                nulls[i] = true;
            } else {
                r[i] = 1 - decisive;
            }
        }
        out.refreshNulls();
        return out;
    }

    private ColumnVector unary(ColumnVector[] inputs, int rows) {
        ColumnVector v = operands.getFirst().eval(inputs, rows);
        ColumnVector out = out(rows);
        long[] r = out.longs();
        for (int i = 0; i < rows; i++) {
            boolean isNull = v.isNull(i);
            boolean isTrue = !isNull && v.longs() != null && v.longs()[i] != 0;
            switch (op) {
                case NOT -> {
                    if (isNull) {
                        out.setNull(i);
                    } else {
                        r[i] = isTrue ? 0 : 1;
                    }
                }
                case IS_NULL -> r[i] = isNull ? 1 : 0;
                case IS_NOT_NULL -> r[i] = isNull ? 0 : 1;
                case IS_TRUE -> r[i] = isTrue ? 1 : 0;
                case IS_NOT_TRUE -> r[i] = isTrue ? 0 : 1;
                case IS_FALSE -> r[i] = !isNull && !isTrue ? 1 : 0;
                case IS_NOT_FALSE -> r[i] = isNull || isTrue ? 1 : 0;
                default -> throw new IllegalStateException(op.name());
            }
        }
        return out;
    }

    @Override
    protected Expr copy(ExprCopier copier) {
        return new Logic(op, copier.copyAll(operands));
    }

    @Override
    public String toString() {
        return switch (op) {
            case AND, OR -> operands.stream().map(Object::toString)
                    .collect(Collectors.joining(" " + op + " ", "(", ")"));
            case NOT -> "NOT " + operands.getFirst();
            default -> operands.getFirst() + " " + op.name().replace('_', ' ');
        };
    }
}
