package io.locusdb.core.storage.table;

import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.ValueParser;

/**
 * Checks and normalizes a row for writing: Long for integer, decimal (already scaled), date (epoch days) and
 * boolean (0/1) columns; Double for DOUBLE (-0.0 as 0.0); String for text, within its length and without NUL.
 */
public final class RowValues {
    private RowValues() {
    }

    public static Object[] normalize(Schema schema, Object[] row) {
        if (row.length != schema.size()) {
            throw new IllegalArgumentException("row has " + row.length + " values for " + schema.size() + " columns");
        }
        Object[] out = new Object[row.length];
        for (int c = 0; c < row.length; c++) {
            out[c] = value(schema.column(c), row[c]);
        }
        return out;
    }

    /** The key columns' values of {@code row} checked and normalized (the other columns are left null). */
    public static Object[] normalizeKey(Schema schema, Object[] row, int[] keyColumns) {
        Object[] out = new Object[schema.size()];
        for (int c : keyColumns) {
            out[c] = value(schema.column(c), row[c]);
        }
        return out;
    }

    private static Object value(ColumnDef def, Object v) {
        if (v == null) {
            if (!def.nullable()) {
                throw new NotNullViolationException(def.name());
            }
            return null;
        }
        return switch (def.type().physical()) {
            case LONG -> toLong(def, v);
            case DOUBLE -> {
                if (!(v instanceof Number n)) {
                    throw mismatch(def, v);
                }
                double d = n.doubleValue();
                yield d == 0.0 ? 0.0 : d;
            }
            case STRING -> {
                if (!(v instanceof String s)) {
                    throw mismatch(def, v);
                }
                try {
                    yield ValueParser.checkString(s, def.type());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("column " + def.name() + ": " + e.getMessage());
                }
            }
        };
    }

    private static Long toLong(ColumnDef def, Object v) {
        long value = switch (v) {
            case Boolean b -> b ? 1 : 0;
            case Long l -> l;
            case Integer i -> i;
            case Short s -> s;
            case Byte b -> b;
            default -> throw mismatch(def, v);
        };
        ColumnType type = def.type();
        switch (type.kind()) {
            case INTEGER -> {
                if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("column " + def.name() + ": " + value
                            + " is out of range for INTEGER");
                }
            }
            case BOOLEAN -> {
                if (value != 0 && value != 1) {
                    throw new IllegalArgumentException("column " + def.name() + ": " + value + " is not a BOOLEAN");
                }
            }
            case DECIMAL -> {
                if (Math.abs(value) >= ValueParser.powerOfTen(type.precision())) {
                    throw new IllegalArgumentException("column " + def.name() + ": scaled value " + value
                            + " is out of range for " + type);
                }
            }
            default -> {
            }
        }
        return value;
    }

    private static IllegalArgumentException mismatch(ColumnDef def, Object v) {
        return new IllegalArgumentException("column " + def.name() + " (" + def.type() + ") cannot hold "
                + v.getClass().getSimpleName() + " '" + v + "'");
    }
}
