package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;

/**
 * The projections between joins pulled up above them, in one pass from the leaves up, so that a chain of joins
 * becomes one MultiJoin whose order the cost model chooses. Calcite's JoinProjectTransposeRule does the same one join
 * at a time, and a HepPlanner repeats it and the merging of the projections to a fixed point: over a chain of n
 * joins it matched, rebuilt and merged the growing projection at every step, the largest single cost of planning
 * sqllogictest's joins of dozens of tables. What this pass leaves is what the rule leaves: a projection is not pulled
 * out of the side of a join that generates NULLs (its expressions would not turn NULL with the row), nor when it
 * computes a window or defines correlation variables; SEMI and ANTI joins keep theirs (their rows are one side's).
 */
final class JoinProjectionPullUp {
    /** How much larger stacked projections may grow by merging (Calcite's ProjectMergeRule default). */
    private static final int MERGE_BLOAT = 100;

    private JoinProjectionPullUp() {
    }

    /** {@code node} with the projections below each of its joins (and theirs) pulled up above the join. */
    static RelNode pull(RelNode node) {
        List<RelNode> inputs = node.getInputs();
        List<RelNode> pulled = new ArrayList<>(inputs.size());
        boolean changed = false;
        for (RelNode input : inputs) {
            RelNode p = pull(input);
            pulled.add(p);
            changed |= p != input;
        }
        RelNode current = changed ? node.copy(node.getTraitSet(), pulled) : node;
        return current instanceof LogicalJoin join && join.getJoinType().projectsRight() ? pullAbove(join) : current;
    }

    private static RelNode pullAbove(Join join) {
        JoinRelType type = join.getJoinType();
        Side left = Side.of(join.getLeft(), !type.generatesNullsOnLeft());
        Side right = Side.of(join.getRight(), !type.generatesNullsOnRight());
        if (left.expressions() == null && right.expressions() == null) {
            return join;
        }
        RexBuilder rex = join.getCluster().getRexBuilder();
        // The join's columns as expressions over the inputs below the projections, side by side.
        List<RexNode> columns = new ArrayList<>(left.columns(rex, 0));
        columns.addAll(right.columns(rex, left.input().getRowType().getFieldCount()));
        RexNode condition = join.getCondition().accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return columns.get(ref.getIndex());
            }
        });
        Join below = join.copy(join.getTraitSet(), condition, left.input(), right.input(), type,
                join.isSemiJoinDone());
        List<RexNode> outputs = columns;
        if (type != JoinRelType.INNER) {
            // The side that can be NULL is read from the outer join's row, whose types say so.
            List<RelDataTypeField> fields = below.getRowType().getFieldList();
            RexShuttle retype = new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                    return rex.makeInputRef(fields.get(ref.getIndex()).getType(), ref.getIndex());
                }
            };
            outputs = columns.stream().map(c -> c.accept(retype)).toList();
        }
        RelNode above = LogicalProject.create(below, List.of(), outputs, join.getRowType().getFieldNames(), Set.of());
        return RelOptUtil.areRowTypesEqual(above.getRowType(), join.getRowType(), false) ? above
                : RelOptUtil.createCastRel(above, join.getRowType(), false);
    }

    /**
     * One input of a join: the relation below its projections and, when they are pulled up, what they compute over
     * it (the stacked projections as one); {@code expressions} is null when nothing is pulled from this side.
     */
    private record Side(RelNode input, List<RexNode> expressions) {
        static Side of(RelNode input, boolean pullable) {
            List<RexNode> expressions = null;
            RelNode below = input;
            while (pullable && below instanceof LogicalProject p && !p.containsOver()
                    && p.getVariablesSet().isEmpty()) {
                List<RexNode> composed = expressions == null ? p.getProjects()
                        : RelOptUtil.pushPastProjectUnlessBloat(expressions, p, MERGE_BLOAT);
                if (composed == null) {
                    // Merging would copy large expressions many times: the rest stays below, as Calcite's merge
                    // leaves it.
                    break;
                }
                expressions = composed;
                below = p.getInput();
            }
            return new Side(below, expressions);
        }

        /** This side's columns over the join's inputs side by side, where this side's start at {@code offset}. */
        List<RexNode> columns(RexBuilder rex, int offset) {
            if (expressions == null) {
                List<RexNode> refs = new ArrayList<>();
                for (RelDataTypeField f : input.getRowType().getFieldList()) {
                    refs.add(rex.makeInputRef(f.getType(), f.getIndex() + offset));
                }
                return refs;
            }
            return offset == 0 ? expressions : expressions.stream().map(e -> RexUtil.shift(e, offset)).toList();
        }
    }
}
