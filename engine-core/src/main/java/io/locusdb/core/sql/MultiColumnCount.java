package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.rules.AggregateExpandDistinctAggregatesRule;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.RelBuilder;

/**
 * COUNT over several values, as the engine's one-argument aggregates compute it, in three steps that the planner
 * applies until none is left:
 * <ul>
 *   <li>{@code COUNT([DISTINCT] (a, b))}, PostgreSQL's and DuckDB's row: a row is never NULL, so rows with NULL
 *       fields count too. {@code COUNT((a, b))} is {@code COUNT(*)}; {@code COUNT(DISTINCT (a, b))} counts the
 *       distinct tuples {@code (a IS NULL, COALESCE(a, 0), b IS NULL, COALESCE(b, 0))}, none of them NULL, which
 *       tell the same rows apart as the row does (NULL fields equal, as DISTINCT has them).</li>
 *   <li>{@code COUNT(a, b)}, the standard's: rows in which no value is NULL, that is
 *       {@code COUNT(CASE WHEN a IS NOT NULL AND b IS NOT NULL THEN 1 END)} over a projection.</li>
 *   <li>{@code COUNT(DISTINCT a, b)}: Calcite's expansion, an aggregation grouping by the query's keys and
 *       {@code a, b} under one that counts its groups with {@code COUNT(a, b)} (the step above).</li>
 * </ul>
 */
final class MultiColumnCount extends RelOptRule {
    static final MultiColumnCount INSTANCE = new MultiColumnCount();

    private static final RelOptRule EXPAND = AggregateExpandDistinctAggregatesRule.Config.DEFAULT.toRule();

    private MultiColumnCount() {
        super(operand(LogicalAggregate.class, any()), "MultiColumnCount");
    }

    @Override
    public boolean matches(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            return false;
        }
        for (AggregateCall c : aggregate.getAggCallList()) {
            if (isCount(c) && (c.getArgList().size() > 1 || rowArgument(aggregate, c) != null)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        List<AggregateCall> calls = aggregate.getAggCallList();
        if (calls.stream().anyMatch(c -> isCount(c) && rowArgument(aggregate, c) != null)) {
            call.transformTo(expandRows(aggregate, call.builder()));
        } else if (calls.stream().anyMatch(c -> isCount(c) && !c.isDistinct() && c.getArgList().size() > 1)) {
            call.transformTo(countRowsWithoutNulls(aggregate, call.builder()));
        } else {
            EXPAND.onMatch(call);
        }
    }

    private static boolean isCount(AggregateCall c) {
        return c.getAggregation().getKind() == SqlKind.COUNT;
    }

    /** The ROW(...) call that the single argument of {@code c} is, where the input projects one; else null. */
    private static RexCall rowArgument(Aggregate aggregate, AggregateCall c) {
        // In the planner the input is a vertex holding the projection.
        if (c.getArgList().size() != 1 || !(aggregate.getInput().stripped() instanceof Project project)) {
            return null;
        }
        RexNode argument = project.getProjects().get(c.getArgList().getFirst());
        return argument instanceof RexCall row && row.getKind() == SqlKind.ROW ? row : null;
    }

    /** COUNT((a, b)) as COUNT(*), COUNT(DISTINCT (a, b)) as COUNT(DISTINCT of the never-NULL tuple). */
    private static RelNode expandRows(Aggregate aggregate, RelBuilder b) {
        RexBuilder rex = b.getRexBuilder();
        // The rows' fields are expressions over the projection's input: the new projection replaces it.
        Project project = (Project) aggregate.getInput().stripped();
        b.push(project.getInput());
        List<RexNode> projects = new ArrayList<>(project.getProjects());
        // The rows themselves are read by nothing now; the engine computes no row values, so they go.
        projects.replaceAll(p -> p.getType().isStruct()
                ? rex.makeNullLiteral(rex.getTypeFactory().createSqlType(SqlTypeName.BOOLEAN)) : p);
        List<List<Integer>> arguments = new ArrayList<>();
        for (AggregateCall c : aggregate.getAggCallList()) {
            RexCall row = isCount(c) ? rowArgument(aggregate, c) : null;
            if (row == null) {
                arguments.add(c.getArgList());
            } else if (!c.isDistinct()) {
                arguments.add(List.of());
            } else {
                List<Integer> tuple = new ArrayList<>();
                for (RexNode field : row.getOperands()) {
                    tuple.add(projects.size());
                    projects.add(rex.makeCall(SqlStdOperatorTable.IS_NULL, field));
                    tuple.add(projects.size());
                    projects.add(rex.makeCall(SqlStdOperatorTable.COALESCE, field,
                            rex.makeZeroLiteral(rex.getTypeFactory().createTypeWithNullability(field.getType(),
                                    false))));
                }
                arguments.add(tuple);
            }
        }
        return reaggregate(aggregate, b, projects, arguments);
    }

    /** COUNT(a, b) as COUNT(CASE WHEN a IS NOT NULL AND b IS NOT NULL THEN 1 END). */
    private static RelNode countRowsWithoutNulls(Aggregate aggregate, RelBuilder b) {
        RexBuilder rex = b.getRexBuilder();
        b.push(aggregate.getInput());
        List<RexNode> projects = new ArrayList<>(b.fields());
        List<List<Integer>> arguments = new ArrayList<>();
        for (AggregateCall c : aggregate.getAggCallList()) {
            if (!isCount(c) || c.isDistinct() || c.getArgList().size() < 2) {
                arguments.add(c.getArgList());
                continue;
            }
            List<RexNode> present = new ArrayList<>();
            for (int argument : c.getArgList()) {
                present.add(rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, b.field(argument)));
            }
            arguments.add(List.of(projects.size()));
            projects.add(rex.makeCall(SqlStdOperatorTable.CASE, rex.makeCall(SqlStdOperatorTable.AND, present),
                    b.literal(1), rex.makeNullLiteral(b.literal(1).getType())));
        }
        return reaggregate(aggregate, b, projects, arguments);
    }

    /** The aggregation again, over {@code projects} (the input's fields first), each call on its new arguments. */
    private static RelNode reaggregate(Aggregate aggregate, RelBuilder b, List<RexNode> projects,
                                       List<List<Integer>> arguments) {
        b.project(projects);
        List<RelBuilder.AggCall> calls = new ArrayList<>();
        for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
            AggregateCall c = aggregate.getAggCallList().get(i);
            calls.add(b.aggregateCall(AggregateCall.create(c.getParserPosition(), c.getAggregation(), c.isDistinct(),
                    c.isApproximate(), c.ignoreNulls(), c.rexList, arguments.get(i), c.filterArg, c.distinctKeys,
                    c.collation, c.getType(), c.getName())));
        }
        b.aggregate(b.groupKey(aggregate.getGroupSet()), calls);
        return b.build();
    }
}
