package io.locusdb.core.query.expr;

import io.locusdb.core.storage.type.PhysicalText;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.vector.ColumnVector;
import java.time.LocalDate;

/** A constant in physical form (Long, Double, String, or null), repeated for every row. */
public final class Literal extends Expr {
    private final Object value;

    public Literal(ColumnType type, Object value) {
        super(type);
        this.value = value;
    }

    public Object value() {
        return value;
    }

    @Override
    public boolean isConstant() {
        return true;
    }

    private ColumnVector filled;
    private int filledRows;

    @Override
    public ColumnVector eval(ColumnVector[] inputs, int rows) {
        // A constant: fill the buffer once and reuse it while batches are no longer than what was filled.
        if (filled != null && rows <= filledRows) {
            filled.setSize(rows);
            return filled;
        }
        ColumnVector out = out(rows);
        filled = out;
        filledRows = rows;
        for (int i = 0; i < rows; i++) {
            if (value == null) {
                out.setNull(i);
            } else if (value instanceof Long l) {
                out.setLong(i, l);
            } else if (value instanceof Double d) {
                out.setDouble(i, d);
            } else {
                out.setString(i, (String) value);
            }
        }
        return out;
    }

    @Override
    protected Expr copy(ExprCopier copier) {
        return new Literal(type, value);
    }

    @Override
    public String toString() {
        if (value == null) {
            return "NULL";
        }
        return switch (type.kind()) {
            case DECIMAL -> java.math.BigDecimal.valueOf((Long) value, type.scale()).toPlainString();
            case DATE -> "DATE '" + LocalDate.ofEpochDay((Long) value) + "'";
            case TIMESTAMP -> "TIMESTAMP '" + Timestamps.format((Long) value) + "'";
            case TIMESTAMP_TZ -> PhysicalText.literal(type, value);
            case BOOLEAN -> ((Long) value) != 0 ? "TRUE" : "FALSE";
            case VARCHAR, CHAR -> "'" + value + "'";
            default -> value.toString();
        };
    }
}
