package io.locusdb.core.query.expr;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.IntUnaryOperator;

/**
 * Copies compiled expression trees. A task evaluates its own copy of the plan's expressions, because every node
 * owns the buffer it writes; the copier stays with the task's copies and is told of each new chunk. One copier copies a node once, so that a subexpression shared between a filter and
 * the outputs ({@link Shared}) stays shared in the copy. Input references may be renumbered on the way, to the
 * positions of the columns a scan decodes.
 */
public final class ExprCopier {
    private final Map<Expr, Expr> copies = new IdentityHashMap<>();
    private final List<Shared> shared = new ArrayList<>();
    private final IntUnaryOperator inputs;

    private ExprCopier(IntUnaryOperator inputs) {
        this.inputs = inputs;
    }

    /** A copier for one task: same inputs. */
    public static ExprCopier forTask() {
        return new ExprCopier(IntUnaryOperator.identity());
    }

    /** A copier that renumbers input {@code i} to {@code position.applyAsInt(i)}. */
    public static ExprCopier renumbering(IntUnaryOperator position) {
        return new ExprCopier(position);
    }

    public Expr copy(Expr expr) {
        if (expr == null) {
            return null;
        }
        Expr copy = copies.get(expr);
        if (copy == null) {
            copy = expr.copy(this);
            copies.put(expr, copy);
        }
        return copy;
    }

    public List<Expr> copyAll(List<Expr> exprs) {
        List<Expr> out = new ArrayList<>(exprs.size());
        for (Expr e : exprs) {
            out.add(copy(e));
        }
        return out;
    }

    /** The inputs {@code exprs} read, in ascending order. */
    public static int[] inputsOf(List<Expr> exprs) {
        TreeSet<Integer> used = new TreeSet<>();
        // A renumbering copy visits every input reference once; the copy itself is dropped.
        ExprCopier visitor = renumbering(i -> {
            used.add(i);
            return i;
        });
        for (Expr e : exprs) {
            visitor.copy(e);
        }
        return used.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Says that the copies are about to be evaluated on a new chunk: shared subexpressions forget the result they
     * computed for the last one. A task calls it before each chunk it evaluates its copies on.
     */
    public void newChunk() {
        for (Shared s : shared) {
            s.forget();
        }
    }

    void register(Shared copy) {
        shared.add(copy);
    }

    int input(int index) {
        return inputs.applyAsInt(index);
    }
}
