package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.rules.ReduceExpressionsRule;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

/**
 * Calcite's constant reduction of projections, without its assertion that a reduction always changes something.
 * With LocusDB's folder, which leaves alone what the engine cannot compute, a pass can end where it began (a
 * predicate's constant substituted and then not folded); Calcite asserts there, so a query would plan with
 * assertions off and fail with them on. Here such a pass simply changes nothing; and where Calcite's predicate
 * pull-up asserts on a comparison with a NULL literal, the reduction goes on without predicates.
 */
final class ProjectConstantReduction extends ReduceExpressionsRule.ProjectReduceExpressionsRule {
    static final ProjectConstantReduction INSTANCE = new ProjectConstantReduction();

    /**
     * Above more joins than this the projection is reduced without the predicates below it: pulling them up
     * through a join infers from every pair of its equalities, and over the 64-table joins of sqllogictest's
     * select5 that took most of a second a projection, for constants that such plans hardly ever have. A projection
     * that only picks columns takes them only with no join below ({@link #computes}).
     */
    static final int MAX_JOINS_FOR_PREDICATES = 12;

    private ProjectConstantReduction() {
        super(ProjectReduceExpressionsRuleConfig.DEFAULT);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Project project = call.rel(0);
        RelOptPredicateList predicates;
        try {
            predicates = joinsAtMost(project.getInput(), computes(project) ? MAX_JOINS_FOR_PREDICATES : 0)
                    ? call.getMetadataQuery().getPulledUpPredicates(project.getInput()) : RelOptPredicateList.EMPTY;
        } catch (AssertionError e) {
            // Calcite refuses predicates that compare with a NULL literal (HAVING NULL BETWEEN NULL AND NULL) by an
            // assertion; they only help to fold, so the projection is reduced without them.
            predicates = RelOptPredicateList.EMPTY;
        }
        List<RexNode> expressions = new ArrayList<>(project.getProjects());
        if (reduceExpressions(project, expressions, predicates, false, config.matchNullability(),
                config.treatDynamicCallsAsConstant()) && !project.getProjects().equals(expressions)) {
            call.transformTo(call.builder()
                    .push(project.getInput())
                    .project(expressions, project.getRowType().getFieldNames())
                    .build());
            call.getPlanner().prune(project);
        }
    }

    /**
     * Whether {@code project} computes anything. One that only picks columns (every join's input once the
     * projections are pushed below the joins) can only have a column replaced by a constant a predicate fixes it to;
     * that saves decoding the column when the predicate is a filter right below, and hardly ever through joins,
     * where pulling the predicates up infers from every pair of join keys for each such projection.
     */
    private static boolean computes(Project project) {
        for (RexNode e : project.getProjects()) {
            if (!(e instanceof RexInputRef)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the tree below {@code rel} has at most {@code limit} joins (it stops counting past the limit). */
    static boolean joinsAtMost(RelNode rel, int limit) {
        return countJoins(rel, limit + 1) <= limit;
    }

    private static int countJoins(RelNode rel, int stopAt) {
        RelNode node = rel instanceof HepRelVertex vertex ? vertex.getCurrentRel() : rel;
        int count = node instanceof Join ? 1 : 0;
        for (RelNode input : node.getInputs()) {
            if (count >= stopAt) {
                break;
            }
            count += countJoins(input, stopAt - count);
        }
        return count;
    }
}
