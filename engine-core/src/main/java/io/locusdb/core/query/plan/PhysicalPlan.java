package io.locusdb.core.query.plan;

import io.locusdb.core.query.scan.ScanPredicate;
import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.ExprCopier;
import io.locusdb.core.query.join.JoinType;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.type.ColumnType;
import java.util.List;

/**
 * A query as LocusDB executes it: a source (a table scan with its filters and projections folded in, literal rows,
 * or a join of two plans), then operators over the source's rows. An aggregation right above a scan runs in
 * parallel, per part and node; everything after it works on the (small) aggregated relation.
 * <p>
 * The plan is LocusDB's own and immutable: expressions are compiled once, by the planner, with parameters bound;
 * scan conditions are already split into the ranges phase 1 evaluates on packed codes and a residual. A task
 * evaluates its own {@link ExprCopier copy} of an expression, since every expression
 * node owns its output buffer.
 */
public record PhysicalPlan(Source source, List<Op> ops, List<ResultColumn> columns) {

    public sealed interface Source permits Scan, Values, Rows, Join {
    }

    /**
     * A hash join of two plans on {@code leftKeys[i] = rightKeys[i]} (NULL keys never match) and the
     * {@code residual} condition over the joined row (left columns, then right; null when there is none).
     * {@code leftRows} and {@code rightRows} are the planner's estimates of the inputs' rows (table row counts and
     * filter selectivities), which choose the build side.
     */
    public record Join(PhysicalPlan left, PhysicalPlan right, JoinType type, int[] leftKeys, int[] rightKeys,
                       Expr residual, List<String> names, double leftRows, double rightRows) implements Source {
    }

    /**
     * A scan of {@code table}: rows within every one of {@code ranges} (on table columns, evaluated on packed codes)
     * for which {@code residual} (null: none) is true, as {@code outputs}. The residual and the outputs are
     * expressions over the table's columns; they may share subexpressions.
     */
    public record Scan(Table table, List<ScanPredicate> ranges, Expr residual, List<Expr> outputs,
                       List<String> names) implements Source {
    }

    /** Literal rows (SELECT without FROM), as physical values: Long, Double, String, or null. */
    public record Values(List<Object[]> rows, List<ColumnType> types, List<String> names) implements Source {
    }

    /**
     * Rows computed while planning (a system table's state at this execution), as Java values of {@code types}: Long
     * for the integer types and BOOLEAN (1/0), Double, String; null for NULL.
     */
    public record Rows(String table, List<Object[]> rows, List<ColumnType> types, List<String> names)
            implements Source {
    }

    public sealed interface Op permits Filter, Project, Aggregate, Sort {
    }

    public record Filter(Expr condition) implements Op {
    }

    public record Project(List<Expr> exprs, List<String> names) implements Op {
    }

    /** GROUP BY {@code keys} (input columns) computing {@code calls}; output: keys, then aggregates. */
    public record Aggregate(int[] keys, List<AggregateCall> calls, List<ColumnType> outputTypes,
                            List<String> names) implements Op {
    }

    /** ORDER BY {@code keys}, then OFFSET and FETCH ({@code fetch} -1 when absent). */
    public record Sort(List<SortKey> keys, long offset, long fetch) implements Op {
    }

    /** One ORDER BY key: an input column, its direction and where its NULLs go. */
    public record SortKey(int column, boolean descending, boolean nullsFirst) {
    }
}
