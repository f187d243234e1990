package io.locusdb.core.query.planner;

import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.join.JoinType;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.type.ColumnType;
import java.util.List;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;

/**
 * The planner's working form of a {@link PhysicalPlan}: the same shape, with Calcite row expressions (parameters
 * bound), so that filters can still be moved and conditions estimated. {@link PlanLowering} compiles it into the
 * plan that runs; nothing below the planner sees this type.
 */
record PlanDraft(Source source, List<Op> ops, List<ResultColumn> columns, RexBuilder rex) {

    sealed interface Source permits Scan, Values, Rows, SetFunction, Join, Union, Shared, RepeatUnion,
            WorkingTable, Lateral {
    }

    /** A set-returning function per row of {@code input} (see {@link PhysicalPlan.Lateral}). */
    public record Lateral(PlanDraft input, PhysicalPlan.SetFunctionKind function, List<RexNode> args, boolean outer,
                          List<ColumnType> types, List<String> names) implements Source {
    }

    /** WITH RECURSIVE (see {@link PhysicalPlan.RepeatUnion}): both inputs already of the union's column types. */
    public record RepeatUnion(PlanDraft seed, PlanDraft step, boolean all, String table, int limit,
                              List<String> names) implements Source {
    }

    /** The rows the last round of a recursion added (see {@link PhysicalPlan.WorkingTable}). */
    public record WorkingTable(String table, List<ColumnType> types, List<String> names) implements Source {
    }

    /** A part of the query that occurs in it more than once, planned once (see {@link PhysicalPlan.Shared}). */
    public record Shared(int id, PlanDraft plan) implements Source {
    }

    /**
     * A hash join of two plans on {@code leftKeys[i] = rightKeys[i]} (NULL keys never match) and the
     * {@code residual} condition over the joined row (left columns, then right; null when there is none).
     * {@code leftRows} and {@code rightRows} are the planner's estimates of the inputs' rows (table row counts and
     * filter selectivities), which choose the build side.
     */
    public record Join(PlanDraft left, PlanDraft right, JoinType type, int[] leftKeys, int[] rightKeys,
                       RexNode residual, List<String> names, double leftRows, double rightRows) implements Source {
    }

    /**
     * A scan of {@code table}: rows passing every filter, as {@code outputs} (expressions over the table's
     * columns).
     */
    public record Scan(Table table, RexNode condition, List<RexNode> outputs, List<String> names)
            implements Source {
    }

    /** UNION ALL: the rows of every input, each already of the union's column types. */
    public record Union(List<PlanDraft> inputs, List<String> names) implements Source {
    }

    /** A set-returning function over arguments that need no input row (see {@link PhysicalPlan.SetFunction}). */
    public record SetFunction(PhysicalPlan.SetFunctionKind function, List<RexNode> args, boolean ordinality,
                              List<ColumnType> types, List<String> names) implements Source {
    }

    /** Literal rows (SELECT without FROM). */
    public record Values(List<List<RexNode>> rows, List<ColumnType> types, List<String> names) implements Source {
    }

    /**
     * Rows computed while planning (a system table's state at this execution), as Java values of {@code types}: Long
     * for the integer types and BOOLEAN (1/0), Double, String; null for NULL.
     */
    public record Rows(String table, List<Object[]> rows, List<ColumnType> types, List<String> names)
            implements Source {
    }

    sealed interface Op permits Filter, Project, Aggregate, Sort, Window {
    }

    /** Window functions, as they run: nothing in them is an expression. */
    public record Window(PhysicalPlan.Window window) implements Op {
    }

    public record Filter(RexNode condition) implements Op {
    }

    public record Project(List<RexNode> exprs, List<String> names) implements Op {
    }

    /** GROUP BY {@code keys} (input columns) computing {@code calls}; output: keys, then aggregates. */
    public record Aggregate(int[] keys, List<AggregateCall> calls, List<ColumnType> outputTypes,
                            List<String> names) implements Op {
    }

    /** ORDER BY, OFFSET and FETCH ({@code fetch} -1 when absent). */
    public record Sort(List<RelFieldCollation> collations, long offset, long fetch) implements Op {
    }
}
