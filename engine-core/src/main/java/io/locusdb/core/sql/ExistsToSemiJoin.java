package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Correlated {@code EXISTS} and {@code NOT EXISTS} conjuncts of a WHERE clause as SEMI and ANTI joins, before
 * Calcite removes sub-queries: {@code WHERE EXISTS (SELECT * FROM t WHERE t.k = o.k AND t.s <> o.s)} is
 * {@code o SEMI JOIN t ON t.k = o.k AND t.s <> o.s}. Calcite's own removal turns such a sub-query into a correlate
 * that its decorrelator then answers by computing the outer query once more per sub-query (TPC-H Q21 scanned
 * lineitem eight times); the join reads each input once, and the executor builds whichever side is smaller.
 *
 * <p>Only what a join expresses exactly is rewritten: a sub-query that is, under any projections and a LIMIT of at
 * least one row (neither decides whether a row exists), filters over an input that does not refer to the outer
 * query, whose conditions refer to the outer row only through this filter's correlation variables, with at least
 * one equality between the two sides (else the join would compare every pair). A condition that is NULL for a
 * pair is no match, as in EXISTS. Everything else is left to Calcite.
 */
final class ExistsToSemiJoin {
    private ExistsToSemiJoin() {
    }

    static RelNode rewrite(RelNode root) {
        return root.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                return visited instanceof LogicalFilter filter ? rewrite(filter) : visited;
            }
        });
    }

    private static RelNode rewrite(LogicalFilter filter) {
        Set<CorrelationId> ids = filter.getVariablesSet();
        if (ids.isEmpty()) {
            return filter;
        }
        RexBuilder rex = filter.getCluster().getRexBuilder();
        RelNode input = filter.getInput();
        List<RexNode> rest = new ArrayList<>();
        List<Semi> semis = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            boolean not = conjunct.getKind() == SqlKind.NOT;
            RexNode inner = not ? ((RexCall) conjunct).getOperands().getFirst() : conjunct;
            Semi semi = inner instanceof RexSubQuery subQuery && subQuery.getKind() == SqlKind.EXISTS
                    ? semiJoin(subQuery.rel, ids, input, rex, not) : null;
            if (semi == null) {
                rest.add(conjunct);
            } else {
                semis.add(semi);
            }
        }
        if (semis.isEmpty()) {
            return filter;
        }
        // The other conjuncts filter first (they may still hold sub-queries Calcite removes); SEMI and ANTI joins
        // keep the left row as it is, so the joins on top leave the row type unchanged.
        RelNode result = rest.isEmpty() ? input
                : filter.copy(filter.getTraitSet(), input, RexUtil.composeConjunction(rex, rest));
        for (Semi semi : semis) {
            result = LogicalJoin.create(result, semi.input(), List.of(), semi.condition(), Set.of(),
                    semi.anti() ? JoinRelType.ANTI : JoinRelType.SEMI);
        }
        return result;
    }

    /** A join's right input, its condition (left fields, then right), and whether it is ANTI (NOT EXISTS). */
    private record Semi(RelNode input, RexNode condition, boolean anti) {
    }

    /** The join that answers {@code EXISTS (subQuery)} for {@code outer}'s rows, or null where none does exactly. */
    private static Semi semiJoin(RelNode subQuery, Set<CorrelationId> ids, RelNode outer, RexBuilder rex,
                                 boolean anti) {
        RelNode node = subQuery;
        while (node instanceof Project || node instanceof Sort sort && atLeastOneRow(sort)) {
            node = node.getInput(0);
        }
        List<RexNode> conditions = new ArrayList<>();
        while (node instanceof Filter f) {
            if (!f.getVariablesSet().isEmpty()) {
                return null;
            }
            conditions.add(f.getCondition());
            node = f.getInput();
        }
        RelNode inner = node;
        if (conditions.isEmpty() || usesCorrelation(inner)) {
            return null;
        }
        RexNode condition = RexUtil.composeConjunction(rex, conditions);
        int outerFields = outer.getRowType().getFieldCount();
        List<RelDataTypeField> outerRow = outer.getRowType().getFieldList();
        boolean[] correlated = {false};
        boolean[] unsupported = {false};
        RexNode joinCondition = condition.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(ref.getIndex() + outerFields, ref.getType());
            }

            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable variable && ids.contains(variable.id)
                        && variable.getType().getFieldCount() == outerFields) {
                    correlated[0] = true;
                    int field = access.getField().getIndex();
                    return rex.makeInputRef(outerRow.get(field).getType(), field);
                }
                unsupported[0] = true;
                return access;
            }

            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                unsupported[0] = true;
                return variable;
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                unsupported[0] = true;
                return subQuery;
            }
        });
        if (!correlated[0] || unsupported[0]) {
            return null;
        }
        if (JoinInfo.of(outer, inner, joinCondition).leftKeys.isEmpty()) {
            return null;
        }
        return new Semi(inner, joinCondition, anti);
    }

    /** A sort with no offset and no limit, or a limit of one row or more: it keeps a row if there is one. */
    private static boolean atLeastOneRow(Sort sort) {
        if (sort.offset != null) {
            return false;
        }
        return sort.fetch == null || sort.fetch instanceof RexLiteral literal
                && literal.getValueAs(Long.class) != null && literal.getValueAs(Long.class) >= 1;
    }

    /** Whether {@code node} or anything below it refers to a correlation variable or holds a sub-query. */
    private static boolean usesCorrelation(RelNode node) {
        boolean[] found = {false};
        node.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                other.accept(new RexShuttle() {
                    @Override
                    public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                        found[0] = true;
                        return variable;
                    }

                    @Override
                    public RexNode visitSubQuery(RexSubQuery subQuery) {
                        found[0] = true;
                        return subQuery;
                    }
                });
                return super.visit(other);
            }
        });
        return found[0];
    }
}
