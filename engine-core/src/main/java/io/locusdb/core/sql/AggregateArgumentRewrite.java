package io.locusdb.core.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.RelBuilder;

/**
 * Aggregates the engine computes from simpler ones, rewritten over a projection below the aggregation:
 * <ul>
 *   <li>{@code agg(x) FILTER (WHERE c)} is {@code agg(CASE WHEN c THEN x END)} (and {@code COUNT(*) FILTER} counts
 *       {@code CASE WHEN c THEN 1 END}): every aggregate here skips NULLs, so rows the filter rejects count for
 *       nothing, and the aggregation stays one parallel pass;</li>
 *   <li>{@code VAR_POP}, {@code VAR_SAMP}, {@code STDDEV_POP}, {@code STDDEV_SAMP} (and {@code VARIANCE},
 *       {@code STDDEV}) from {@code SUM(x)}, {@code SUM(x * x)} and {@code COUNT(x)} in DOUBLE, as DuckDB computes
 *       them in floating point: {@code (SUM(x²) - SUM(x)² / n) / (n or n - 1)}, NULL where n (or n - 1) is 0.</li>
 * </ul>
 */
final class AggregateArgumentRewrite extends RelOptRule {
    static final AggregateArgumentRewrite INSTANCE = new AggregateArgumentRewrite();

    private static final Set<SqlKind> SKIP_NULLS = EnumSet.of(SqlKind.COUNT, SqlKind.SUM, SqlKind.SUM0, SqlKind.AVG,
            SqlKind.MIN, SqlKind.MAX, SqlKind.STDDEV_POP, SqlKind.STDDEV_SAMP, SqlKind.VAR_POP, SqlKind.VAR_SAMP,
            SqlKind.MODE);
    private static final Set<SqlKind> VARIANCES = EnumSet.of(SqlKind.STDDEV_POP, SqlKind.STDDEV_SAMP,
            SqlKind.VAR_POP, SqlKind.VAR_SAMP);

    private AggregateArgumentRewrite() {
        super(operand(LogicalAggregate.class, any()), "AggregateArgumentRewrite");
    }

    @Override
    public boolean matches(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            return false;
        }
        boolean any = false;
        for (AggregateCall c : aggregate.getAggCallList()) {
            boolean filtered = c.filterArg >= 0;
            boolean variance = VARIANCES.contains(c.getAggregation().getKind());
            if ((filtered || variance) && (!SKIP_NULLS.contains(c.getAggregation().getKind())
                    || c.getArgList().size() > 1 || variance && c.isDistinct())) {
                return false;
            }
            any |= filtered || variance;
        }
        return any;
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        RelBuilder b = call.builder();
        RexBuilder rex = b.getRexBuilder();
        b.push(aggregate.getInput());
        List<RexNode> projects = new ArrayList<>(b.fields());
        RelDataType doubleType = b.getTypeFactory().createTypeWithNullability(
                b.getTypeFactory().createSqlType(SqlTypeName.DOUBLE), true);
        // First the projection's extra columns, then the calls over the projection (fields by index resolve
        // against the top of the builder's stack).
        List<Integer> varianceColumns = new ArrayList<>();
        List<List<Integer>> arguments = new ArrayList<>();
        for (AggregateCall c : aggregate.getAggCallList()) {
            RexNode argument = c.getArgList().isEmpty() ? null : b.field(c.getArgList().getFirst());
            if (c.filterArg >= 0) {
                RexNode keep = rex.makeCall(SqlStdOperatorTable.IS_TRUE, b.field(c.filterArg));
                RexNode value = argument == null ? b.literal(1) : argument;
                argument = rex.makeCall(SqlStdOperatorTable.CASE, keep, value,
                        rex.makeNullLiteral(rex.getTypeFactory().createTypeWithNullability(value.getType(), true)));
            }
            if (VARIANCES.contains(c.getAggregation().getKind())) {
                RexNode x = rex.makeCast(doubleType, argument, true, false);
                varianceColumns.add(projects.size());
                arguments.add(null);
                projects.add(x);
                projects.add(rex.makeCall(SqlStdOperatorTable.MULTIPLY, x, x));
            } else if (c.filterArg >= 0) {
                varianceColumns.add(-1);
                arguments.add(List.of(projects.size()));
                projects.add(argument);
            } else {
                varianceColumns.add(-1);
                arguments.add(c.getArgList());
            }
        }
        b.project(projects);
        List<RelBuilder.AggCall> calls = new ArrayList<>();
        // Per original call: the new calls it is computed from.
        List<int[]> uses = new ArrayList<>();
        for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
            AggregateCall c = aggregate.getAggCallList().get(i);
            int at = varianceColumns.get(i);
            if (at >= 0) {
                int first = calls.size();
                calls.add(b.sum(b.field(at)));
                calls.add(b.sum(b.field(at + 1)));
                calls.add(b.count(b.field(at)));
                uses.add(new int[] {first, first + 1, first + 2});
                continue;
            }
            AggregateCall rewritten = AggregateCall.create(c.getParserPosition(), c.getAggregation(), c.isDistinct(),
                    c.isApproximate(), c.ignoreNulls(), c.rexList, arguments.get(i), -1, c.distinctKeys,
                    c.collation, c.getType(), c.getName());
            calls.add(b.aggregateCall(rewritten));
            uses.add(new int[] {calls.size() - 1});
        }
        b.aggregate(b.groupKey(aggregate.getGroupSet()), calls);
        int keys = aggregate.getGroupCount();
        List<RexNode> out = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            out.add(b.field(k));
        }
        for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
            AggregateCall c = aggregate.getAggCallList().get(i);
            int[] use = uses.get(i);
            RelDataType type = aggregate.getRowType().getFieldList().get(keys + i).getType();
            if (use.length == 1) {
                out.add(rex.ensureType(type, b.field(keys + use[0]), true));
                continue;
            }
            out.add(rex.makeCast(type, variance(c.getAggregation().getKind(), b.field(keys + use[0]),
                    b.field(keys + use[1]), b.field(keys + use[2]), rex, doubleType), true, false));
        }
        b.project(out, aggregate.getRowType().getFieldNames());
        call.transformTo(b.build());
    }

    private static RexNode variance(SqlKind kind, RexNode sum, RexNode sumOfSquares, RexNode count, RexBuilder rex,
                                    RelDataType doubleType) {
        RexNode n = rex.makeCast(doubleType, count, true, false);
        RexNode squaredSum = rex.makeCall(SqlStdOperatorTable.MULTIPLY, sum, sum);
        RexNode centered = rex.makeCall(SqlStdOperatorTable.MINUS, sumOfSquares,
                rex.makeCall(SqlStdOperatorTable.DIVIDE, squaredSum, n));
        boolean sample = kind == SqlKind.VAR_SAMP || kind == SqlKind.STDDEV_SAMP;
        RexNode divisor = sample ? rex.makeCall(SqlStdOperatorTable.MINUS, n, rex.makeExactLiteral(BigDecimal.ONE))
                : n;
        RexNode zero = rex.makeExactLiteral(BigDecimal.ZERO);
        // Rounding may leave a tiny negative sum of squares where every value is equal: never below 0.
        RexNode nonNegative = rex.makeCall(SqlStdOperatorTable.CASE,
                rex.makeCall(SqlStdOperatorTable.LESS_THAN, centered, zero), rex.makeCast(doubleType, zero, true,
                        false), centered);
        RexNode value = rex.makeCall(SqlStdOperatorTable.CASE,
                rex.makeCall(SqlStdOperatorTable.LESS_THAN_OR_EQUAL, divisor, zero),
                rex.makeNullLiteral(doubleType),
                rex.makeCall(SqlStdOperatorTable.DIVIDE, nonNegative, divisor));
        boolean root = kind == SqlKind.STDDEV_POP || kind == SqlKind.STDDEV_SAMP;
        return root ? rex.makeCall(SqlStdOperatorTable.SQRT, value) : value;
    }
}
