package io.locusdb.core.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * GROUPING SETS, ROLLUP and CUBE as a UNION ALL of one plain aggregation per grouping set: each groups the input by
 * its set, puts NULL where a key is not in it, and gives {@code GROUPING(...)} / {@code GROUPING_ID(...)} as the
 * constant that set has (a bit per argument, set where the argument is not grouped). Every aggregation is then the
 * engine's parallel one; the input is read once per grouping set.
 */
final class GroupingSetsToUnion extends RelOptRule {
    static final GroupingSetsToUnion INSTANCE = new GroupingSetsToUnion();

    private GroupingSetsToUnion() {
        super(operand(LogicalAggregate.class, any()), "GroupingSetsToUnion");
    }

    @Override
    public boolean matches(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        return aggregate.getGroupType() != Aggregate.Group.SIMPLE;
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        RelBuilder b = call.builder();
        RexBuilder rex = b.getRexBuilder();
        ImmutableBitSet all = aggregate.getGroupSet();
        List<Integer> keys = all.asList();
        List<RelDataType> outputTypes = aggregate.getRowType().getFieldList().stream().map(f -> f.getType())
                .toList();
        for (ImmutableBitSet set : aggregate.getGroupSets()) {
            b.push(aggregate.getInput());
            List<RelBuilder.AggCall> calls = new ArrayList<>();
            for (AggregateCall c : aggregate.getAggCallList()) {
                if (!isGrouping(c)) {
                    calls.add(b.aggregateCall(c));
                }
            }
            if (set.isEmpty() && calls.isEmpty()) {
                // The grand total of nothing is one row, whatever the input holds. (RelBuilder makes that row
                // itself but leaves the input on its stack, which then joins the union.)
                b.build();
                b.values(new String[] {"row"}, true);
            } else {
                b.aggregate(b.groupKey(set), calls);
            }
            List<RexNode> exprs = new ArrayList<>();
            List<Integer> grouped = set.asList();
            for (int k = 0; k < keys.size(); k++) {
                int position = grouped.indexOf(keys.get(k));
                RelDataType type = outputTypes.get(k);
                exprs.add(position < 0 ? rex.makeNullLiteral(type)
                        : rex.makeCast(type, b.field(position), true, false));
            }
            int next = grouped.size();
            for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
                AggregateCall c = aggregate.getAggCallList().get(i);
                RelDataType type = outputTypes.get(keys.size() + i);
                if (isGrouping(c)) {
                    long bits = 0;
                    for (int argument : c.getArgList()) {
                        bits = bits << 1 | (set.get(argument) ? 0 : 1);
                    }
                    exprs.add(rex.makeExactLiteral(BigDecimal.valueOf(bits), type));
                } else {
                    exprs.add(rex.makeCast(type, b.field(next++), true, false));
                }
            }
            b.project(exprs, aggregate.getRowType().getFieldNames(), true);
        }
        b.union(true, aggregate.getGroupSets().size());
        call.transformTo(b.build());
    }

    private static boolean isGrouping(AggregateCall c) {
        SqlKind kind = c.getAggregation().getKind();
        return kind == SqlKind.GROUPING || kind == SqlKind.GROUPING_ID;
    }
}
