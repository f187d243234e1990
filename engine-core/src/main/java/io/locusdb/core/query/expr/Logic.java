package io.locusdb.core.query.expr;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.type.ColumnType;
import java.util.ArrayList;
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
        long decisive = and ? 0 : 1;
        List<Integer> failed = null;
        LocusSqlException error = null;
        for (int k = 0; k < values.length; k++) {
            try {
                values[k] = operands.get(k).eval(inputs, rows);
            } catch (LocusSqlException e) {
                failed = failed == null ? new ArrayList<>() : failed;
                failed.add(k);
                error = error == null ? e : error;
            }
        }
        if (failed != null) {
            if (failed.size() == values.length) {
                throw error;
            }
            // An operand failed (x <> 0 AND 10 / x > 1), perhaps on rows another operand decides: evaluated again
            // on the rows the others left open, in turn, so only errors of rows it decides surface.
            for (int k : failed) {
                values[k] = onOpenRows(k, values, inputs, rows, decisive);
            }
        }
        ColumnVector out = out(rows);
        long[] r = out.longs();
        boolean[] nulls = out.nulls();
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

    /** Operand {@code k} on the rows no evaluated operand decides, NULL on the others. */
    private ColumnVector onOpenRows(int k, ColumnVector[] values, ColumnVector[] inputs, int rows, long decisive) {
        int[] open = new int[rows];
        int m = 0;
        for (int i = 0; i < rows; i++) {
            boolean decided = false;
            for (ColumnVector v : values) {
                if (v != null && !v.isNull(i) && v.longs()[i] == decisive) {
                    decided = true;
                    break;
                }
            }
            if (!decided) {
                open[m++] = i;
            }
        }
        ColumnVector all = new ColumnVector(ColumnType.BOOLEAN, Math.max(1, rows));
        for (int i = 0; i < rows; i++) {
            all.setNull(i);
        }
        if (m > 0) {
            ColumnVector some = operands.get(k).eval(CaseWhen.gather(inputs, open, m), m);
            for (int j = 0; j < m; j++) {
                all.copyRow(some, j, open[j]);
            }
        }
        all.setSize(rows);
        return all;
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
