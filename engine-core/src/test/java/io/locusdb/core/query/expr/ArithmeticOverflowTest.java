package io.locusdb.core.query.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.storage.type.ColumnType;
import org.junit.jupiter.api.Test;

/** Exact arithmetic skips per-row overflow checks only when no row can overflow. */
class ArithmeticOverflowTest {
    private static final ColumnType DEC = ColumnType.decimal(18, 2);

    private static ColumnVector vector(long... values) {
        ColumnVector v = new ColumnVector(DEC, values.length);
        for (int i = 0; i < values.length; i++) {
            v.setLong(i, values[i]);
        }
        v.setSize(values.length);
        return v;
    }

    private static ColumnVector eval(Arithmetic.Op op, ColumnType type, ColumnVector a, ColumnVector b) {
        Arithmetic e = new Arithmetic(type, op, new InputRef(0, DEC, "a"), new InputRef(1, DEC, "b"));
        return e.eval(new ColumnVector[] {a, b}, a.size());
    }

    @Test
    void smallOperandsComputeExactly() {
        ColumnVector a = vector(150, -2, 7, 1L << 40);
        ColumnVector b = vector(3, 4, -5, 1L << 20);
        ColumnType product = ColumnType.decimal(18, 4);
        assertThat(eval(Arithmetic.Op.MULTIPLY, product, a, b).longs()).startsWith(450, -8, -35, 1L << 60);
        assertThat(eval(Arithmetic.Op.ADD, DEC, a, b).longs()).startsWith(153, 2, 2, (1L << 40) + (1L << 20));
        assertThat(eval(Arithmetic.Op.SUBTRACT, DEC, a, b).longs()).startsWith(147, -6, 12, (1L << 40) - (1L << 20));
    }

    @Test
    void largeOperandsStillOverflow() {
        ColumnType product = ColumnType.decimal(18, 4);
        assertThatThrownBy(() -> eval(Arithmetic.Op.MULTIPLY, product, vector(1, 1L << 32), vector(1, 1L << 31)))
                .isInstanceOf(LocusSqlException.class);
        assertThatThrownBy(() -> eval(Arithmetic.Op.ADD, DEC, vector(0, Long.MAX_VALUE - 1), vector(0, 2)))
                .isInstanceOf(LocusSqlException.class);
        assertThatThrownBy(() -> eval(Arithmetic.Op.SUBTRACT, DEC, vector(0, Long.MIN_VALUE + 1), vector(0, 2)))
                .isInstanceOf(LocusSqlException.class);
        // Large but fitting: the checked path gives the exact result.
        assertThat(eval(Arithmetic.Op.MULTIPLY, product, vector(1L << 31), vector(1L << 31)).longs()[0])
                .isEqualTo(1L << 62);
    }
}
