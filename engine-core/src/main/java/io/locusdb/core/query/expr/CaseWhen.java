package io.locusdb.core.query.expr;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.storage.type.ColumnType;
import java.util.List;

/**
 * {@code CASE WHEN c1 THEN v1 ... ELSE e END}: the first true condition picks its value. Values are cast to the
 * CASE's type by the compiler, so rows copy between vectors of one physical kind.
 */
public final class CaseWhen extends Expr {
    private final List<Expr> conditions;
    private final List<Expr> values;
    private final Expr otherwise;

    public CaseWhen(ColumnType type, List<Expr> conditions, List<Expr> values, Expr otherwise) {
        super(type);
        this.conditions = List.copyOf(conditions);
        this.values = List.copyOf(values);
        this.otherwise = otherwise;
    }

    @Override
    public ColumnVector eval(ColumnVector[] inputs, int rows) {
        try {
            return evalAll(inputs, rows);
        } catch (LocusSqlException e) {
            // A branch failed (a CAST of a string, an overflow) perhaps on a row that does not choose it: evaluate
            // each branch only on its own rows, so only errors of chosen values surface.
            return evalChosen(inputs, rows);
        }
    }

    private ColumnVector evalChosen(ColumnVector[] inputs, int rows) {
        int n = conditions.size();
        int[] choice = new int[rows];
        java.util.Arrays.fill(choice, n);
        boolean[] decided = new boolean[rows];
        int[] open = new int[rows];
        for (int k = 0; k < n; k++) {
            int m = 0;
            for (int i = 0; i < rows; i++) {
                if (!decided[i]) {
                    open[m++] = i;
                }
            }
            if (m == 0) {
                break;
            }
            ColumnVector c = conditions.get(k).eval(gather(inputs, open, m), m);
            for (int j = 0; j < m; j++) {
                if (!c.isNull(j) && c.longs()[j] != 0) {
                    choice[open[j]] = k;
                    decided[open[j]] = true;
                }
            }
        }
        ColumnVector out = out(rows);
        int[] chosen = new int[rows];
        for (int k = 0; k <= n; k++) {
            int m = 0;
            for (int i = 0; i < rows; i++) {
                if (choice[i] == k) {
                    chosen[m++] = i;
                }
            }
            if (m == 0) {
                continue;
            }
            ColumnVector v = (k < n ? values.get(k) : otherwise).eval(gather(inputs, chosen, m), m);
            for (int j = 0; j < m; j++) {
                out.copyRow(v, j, chosen[j]);
            }
        }
        return out;
    }

    static ColumnVector[] gather(ColumnVector[] inputs, int[] rows, int count) {
        ColumnVector[] out = new ColumnVector[inputs.length];
        for (int c = 0; c < inputs.length; c++) {
            out[c] = inputs[c].gather(rows, count);
        }
        return out;
    }

    private ColumnVector evalAll(ColumnVector[] inputs, int rows) {
        int n = conditions.size();
        ColumnVector[] c = new ColumnVector[n];
        ColumnVector[] v = new ColumnVector[n];
        for (int k = 0; k < n; k++) {
            c[k] = conditions.get(k).eval(inputs, rows);
            v[k] = values.get(k).eval(inputs, rows);
        }
        ColumnVector e = otherwise.eval(inputs, rows);
        ColumnVector out = out(rows);
        for (int i = 0; i < rows; i++) {
            ColumnVector chosen = e;
            for (int k = 0; k < n; k++) {
                if (!c[k].isNull(i) && c[k].longs()[i] != 0) {
                    chosen = v[k];
                    break;
                }
            }
            out.copyRow(chosen, i, i);
        }
        return out;
    }

    @Override
    protected Expr copy(ExprCopier copier) {
        return new CaseWhen(type, copier.copyAll(conditions), copier.copyAll(values), copier.copy(otherwise));
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("CASE");
        for (int k = 0; k < conditions.size(); k++) {
            s.append(" WHEN ").append(conditions.get(k)).append(" THEN ").append(values.get(k));
        }
        return s.append(" ELSE ").append(otherwise).append(" END").toString();
    }
}
