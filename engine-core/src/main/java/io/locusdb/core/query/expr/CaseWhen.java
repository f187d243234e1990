package io.locusdb.core.query.expr;

import io.locusdb.core.query.ColumnVector;
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
    public String toString() {
        StringBuilder s = new StringBuilder("CASE");
        for (int k = 0; k < conditions.size(); k++) {
            s.append(" WHEN ").append(conditions.get(k)).append(" THEN ").append(values.get(k));
        }
        return s.append(" ELSE ").append(otherwise).append(" END").toString();
    }
}
