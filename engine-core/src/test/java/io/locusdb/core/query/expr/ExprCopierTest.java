package io.locusdb.core.query.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.ColumnVector;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A task evaluates its own copy of the plan's expressions: buffers apart, shared subexpressions still shared. */
class ExprCopierTest {
    private static final ColumnType INT = ColumnType.BIGINT;

    private static void fill(ColumnVector v, long... values) {
        v.reset();
        for (int i = 0; i < values.length; i++) {
            v.setLong(i, values[i]);
        }
        v.setSize(values.length);
    }

    private static ColumnVector vector(long... values) {
        ColumnVector v = new ColumnVector(INT, 16);
        fill(v, values);
        return v;
    }

    /** {@code a * b} once, used by {@code a * b} and {@code a * b + 1}. */
    private static List<Expr> planned() {
        Expr product = new Shared(new Arithmetic(INT, Arithmetic.Op.MULTIPLY, new InputRef(0, INT, "a"),
                new InputRef(1, INT, "b")));
        return List.of(product, new Arithmetic(INT, Arithmetic.Op.ADD, product, new Literal(INT, 1L)));
    }

    @Test
    void copiesOfOneTaskKeepSharingTheirSubexpression() {
        ExprCopier copier = ExprCopier.forTask();
        List<Expr> copies = copier.copyAll(planned());
        ColumnVector[] inputs = {vector(2, 3), vector(5, 7)};

        copier.newChunk();
        ColumnVector product = copies.get(0).eval(inputs, 2);
        ColumnVector plusOne = copies.get(1).eval(inputs, 2);

        assertThat(product.longs()).startsWith(10, 21);
        assertThat(plusOne.longs()).startsWith(11, 22);
    }

    @Test
    void aChunkRefilledInPlaceIsComputedAgain() {
        ExprCopier copier = ExprCopier.forTask();
        List<Expr> copies = copier.copyAll(planned());
        ColumnVector[] inputs = {vector(2, 3), vector(5, 7)};
        copier.newChunk();
        copies.get(1).eval(inputs, 2);

        // The same vectors in the same array, new values: what a materialize task does chunk after chunk.
        fill(inputs[0], 4, 6);
        fill(inputs[1], 10, 10);
        copier.newChunk();

        assertThat(copies.get(1).eval(inputs, 2).longs()).startsWith(41, 61);
        assertThat(copies.get(0).eval(inputs, 2).longs()).startsWith(40, 60);
    }

    @Test
    void twoTasksCopiesDoNotShareBuffers() {
        List<Expr> plan = planned();
        Expr first = ExprCopier.forTask().copy(plan.get(1));
        Expr second = ExprCopier.forTask().copy(plan.get(1));

        ColumnVector a = first.eval(new ColumnVector[] {vector(1), vector(1)}, 1);
        ColumnVector b = second.eval(new ColumnVector[] {vector(3), vector(3)}, 1);

        assertThat(a).isNotSameAs(b);
        assertThat(a.longs()[0]).isEqualTo(2);
        assertThat(b.longs()[0]).isEqualTo(10);
    }

    @Test
    void renumberingMovesInputsToTheDecodedColumns() {
        // Over table columns 3 and 7, decoded as columns 0 and 1.
        Expr product = new Arithmetic(INT, Arithmetic.Op.MULTIPLY, new InputRef(3, INT, "a"),
                new InputRef(7, INT, "b"));
        assertThat(ExprCopier.inputsOf(List.of(product))).containsExactly(3, 7);

        Expr renumbered = ExprCopier.renumbering(i -> i == 3 ? 0 : 1).copy(product);

        assertThat(renumbered.eval(new ColumnVector[] {vector(6), vector(7)}, 1).longs()[0]).isEqualTo(42);
        assertThat(renumbered).hasToString(product.toString());
    }
}
