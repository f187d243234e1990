package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.logical.LogicalIntersect;
import org.apache.calcite.rel.logical.LogicalMinus;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.tools.RelBuilder;

/**
 * INTERSECT and EXCEPT (without ALL) as one UNION ALL and one aggregation: every input's rows carry a count column
 * per input (1 in its own, 0 in the others), the union is grouped by all the row's columns summing those counts,
 * and a filter keeps the rows the set operation keeps (INTERSECT: counted by every input; EXCEPT: by the first and
 * no other). Grouping treats NULLs as equal, as set operations must, where a join on the columns would drop them;
 * and the union and the aggregation run as the engine's parallel pipelines. Calcite's own rule for EXCEPT needs
 * {@code COUNT(*) FILTER (...)}; these sums need nothing but SUM.
 */
final class SetOpToAggregate extends RelOptRule {
    static final SetOpToAggregate INTERSECT = new SetOpToAggregate(LogicalIntersect.class, "IntersectToAggregate");
    static final SetOpToAggregate EXCEPT = new SetOpToAggregate(LogicalMinus.class, "ExceptToAggregate");

    private SetOpToAggregate(Class<? extends SetOp> type, String name) {
        super(operand(type, any()), name);
    }

    @Override
    public boolean matches(RelOptRuleCall call) {
        return !((SetOp) call.rel(0)).all;
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        SetOp setOp = call.rel(0);
        boolean intersect = setOp instanceof LogicalIntersect;
        RelBuilder builder = call.builder();
        int inputs = setOp.getInputs().size();
        int width = setOp.getRowType().getFieldCount();
        for (int i = 0; i < inputs; i++) {
            RelNode input = setOp.getInput(i);
            builder.push(input);
            List<RexNode> columns = new ArrayList<>(builder.fields());
            for (int j = 0; j < inputs; j++) {
                columns.add(builder.literal(i == j ? 1 : 0));
            }
            builder.project(columns);
        }
        builder.union(true, inputs);
        List<RelBuilder.AggCall> counts = new ArrayList<>();
        for (int j = 0; j < inputs; j++) {
            counts.add(builder.sum(builder.field(width + j)));
        }
        List<RexNode> keys = new ArrayList<>();
        for (int c = 0; c < width; c++) {
            keys.add(builder.field(c));
        }
        builder.aggregate(builder.groupKey(keys), counts);
        List<RexNode> conditions = new ArrayList<>();
        for (int j = 0; j < inputs; j++) {
            RexNode count = builder.field(width + j);
            conditions.add(intersect || j == 0 ? builder.greaterThan(count, builder.literal(0))
                    : builder.equals(count, builder.literal(0)));
        }
        builder.filter(conditions);
        builder.project(new ArrayList<>(builder.fields().subList(0, width)));
        // The row type's names and nullability stay the set operation's.
        builder.convert(setOp.getRowType(), true);
        call.transformTo(builder.build());
    }
}
