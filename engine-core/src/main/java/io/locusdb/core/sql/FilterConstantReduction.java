package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.rules.ReduceExpressionsRule;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * Calcite's constant reduction of filter conditions, except above many joins: there the condition is reduced
 * without the predicates pulled up from below. Pulling predicates up through a join infers from every pair of its
 * equalities, which over sqllogictest's 64-table joins cost a quarter of the planning time, for the constants such
 * conditions hardly ever let it fold; the same bound as {@link ProjectConstantReduction} applies.
 */
final class FilterConstantReduction extends ReduceExpressionsRule.FilterReduceExpressionsRule {
    static final FilterConstantReduction INSTANCE = new FilterConstantReduction();

    private FilterConstantReduction() {
        super(FilterReduceExpressionsRuleConfig.DEFAULT);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Filter filter = call.rel(0);
        if (ProjectConstantReduction.joinsAtMost(filter.getInput(),
                ProjectConstantReduction.MAX_JOINS_FOR_PREDICATES)) {
            super.onMatch(call);
            return;
        }
        List<RexNode> conditions = new ArrayList<>(List.of(filter.getCondition()));
        boolean reduced = reduceExpressions(filter, conditions, RelOptPredicateList.EMPTY, true,
                config.matchNullability(), config.treatDynamicCallsAsConstant());
        RexNode condition = conditions.getFirst();
        RelNode replacement;
        if (condition.isAlwaysTrue()) {
            replacement = filter.getInput();
        } else if (condition.isAlwaysFalse() || RexLiteral.isNullLiteral(condition)) {
            replacement = call.builder().push(filter.getInput()).empty().build();
        } else if (reduced && !condition.equals(filter.getCondition())) {
            replacement = call.builder().push(filter.getInput()).filter(filter.getVariablesSet(), condition).build();
        } else {
            return;
        }
        call.transformTo(replacement);
        call.getPlanner().prune(filter);
    }
}
