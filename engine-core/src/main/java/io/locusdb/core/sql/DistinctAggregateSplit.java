package io.locusdb.core.sql;

import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.rules.AggregateExpandDistinctAggregatesRule;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.Optionality;

/**
 * Turns a DISTINCT aggregate into two plain aggregations: the first groups by the query's keys plus the distinct
 * argument (so every distinct value is one group), the second groups the first's groups by the query's keys. Both
 * then run as the engine's parallel, hash-partitioned aggregation instead of one set of values per group. Taken only
 * where Calcite's rule makes exactly those two aggregations: every DISTINCT call on one and the same argument, and
 * the other calls ones that can be split in two (COUNT, SUM, MIN, MAX); other shapes keep their DISTINCT calls,
 * which the engine evaluates per group.
 */
final class DistinctAggregateSplit extends RelOptRule {
    static final DistinctAggregateSplit INSTANCE = new DistinctAggregateSplit();

    private static final RelOptRule EXPAND = AggregateExpandDistinctAggregatesRule.Config.JOIN.toRule();

    private DistinctAggregateSplit() {
        super(operand(LogicalAggregate.class, any()), "DistinctAggregateSplit");
    }

    @Override
    public boolean matches(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        return aggregate.getGroupType() == Aggregate.Group.SIMPLE && aggregate.containsDistinctCall()
                && splitsInTwo(aggregate.getAggCallList());
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        EXPAND.onMatch(call);
    }

    private static boolean splitsInTwo(List<AggregateCall> calls) {
        List<Integer> distinctArgument = null;
        int distinctCalls = 0;
        for (AggregateCall call : calls) {
            if (call.filterArg >= 0 || call.getArgList().size() > 1) {
                return false;
            }
            if (call.isDistinct()) {
                if (call.getArgList().isEmpty()
                        || distinctArgument != null && !distinctArgument.equals(call.getArgList())) {
                    return false;
                }
                distinctArgument = call.getArgList();
                distinctCalls++;
            }
        }
        boolean othersIgnoreDistinct = true;
        for (AggregateCall call : calls) {
            if (call.isDistinct()) {
                continue;
            }
            SqlKind kind = call.getAggregation().getKind();
            if (kind != SqlKind.COUNT && kind != SqlKind.SUM && kind != SqlKind.SUM0 && kind != SqlKind.MIN
                    && kind != SqlKind.MAX) {
                return false;
            }
            othersIgnoreDistinct &= call.getAggregation().getDistinctOptionality() == Optionality.IGNORED
                    && call.getArgList().equals(distinctArgument);
        }
        // Calcite's rule makes two aggregations when all calls read one argument as if DISTINCT, or when a single
        // DISTINCT call stands beside splittable ones; anything else it joins several aggregations.
        return distinctCalls == 1 || othersIgnoreDistinct;
    }
}
