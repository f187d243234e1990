package io.locusdb.core.query.planner;

import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.join.JoinType;
import io.locusdb.core.result.ResultColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

/**
 * Sideways information passing for a join with an aggregation: where one input of a join is a table scan grouped
 * by the join key, the join drops that input's unmatched rows (an inner join either way; the right input of a left,
 * semi or anti join; the left input of a right join) and the other input is much smaller, the scan is first
 * semi-joined with the small input on that key, so that only the groups the join can match are aggregated. A decorrelated scalar subquery becomes
 * exactly this shape (TPC-H Q17: the average quantity of every one of 200,000 parts, of which the join keeps
 * 200), and so does a decorrelated NOT EXISTS (Q22: the distinct customers of all orders, for a few thousand
 * customers). Rows of a group all share its key, so whole groups are kept or dropped and every kept aggregate is
 * unchanged; NULL keys match nothing on either path. The small input is computed twice, once for the filter.
 */
final class SemiJoinReduction {
    /** The small input must be estimated this many times smaller than the scan. */
    private static final double RATIO = 8;

    private SemiJoinReduction() {
    }

    /**
     * {@code side} with its scan semi-joined with {@code other} on the keys, or {@code side} as it is when the shape
     * or the estimates do not fit.
     */
    static PlanDraft reduce(PlanDraft side, List<Integer> sideKeys, PlanDraft other, List<Integer> otherKeys) {
        if (!(side.source() instanceof PlanDraft.Scan scan) || side.ops().isEmpty()
                || !(side.ops().getFirst() instanceof PlanDraft.Aggregate aggregate)) {
            return side;
        }
        List<Integer> scanKeys = new ArrayList<>();
        List<Integer> otherMatched = new ArrayList<>();
        for (int k = 0; k < sideKeys.size(); k++) {
            int column = aggregateOutput(side, sideKeys.get(k));
            if (column >= 0 && column < aggregate.keys().length) {
                scanKeys.add(aggregate.keys()[column]);
                otherMatched.add(otherKeys.get(k));
            }
        }
        if (scanKeys.isEmpty()) {
            return side;
        }
        // The scan keeps only the columns the aggregation reads (below the semi join nothing prunes them).
        TreeSet<Integer> used = new TreeSet<>(scanKeys);
        for (int key : aggregate.keys()) {
            used.add(key);
        }
        for (AggregateCall call : aggregate.calls()) {
            if (call.argument() >= 0) {
                used.add(call.argument());
            }
        }
        List<Integer> kept = new ArrayList<>(used);
        List<RexNode> outputs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int column : kept) {
            outputs.add(scan.outputs().get(column));
            names.add(scan.names().get(column));
        }
        PlanDraft.Scan pruned = new PlanDraft.Scan(scan.table(), scan.condition(), outputs, names);
        PlanDraft scanOnly = new PlanDraft(pruned, List.of(), columns(pruned), side.rex());
        double scanRows = JoinEstimates.rows(scanOnly, Double.MAX_VALUE);
        double otherRows = JoinEstimates.rows(other, Double.MAX_VALUE);
        if (scanRows == Double.MAX_VALUE || otherRows == Double.MAX_VALUE || otherRows * RATIO > scanRows) {
            return side;
        }
        PlanDraft.Join semi = new PlanDraft.Join(scanOnly, other, JoinType.SEMI,
                scanKeys.stream().mapToInt(kept::indexOf).toArray(),
                otherMatched.stream().mapToInt(Integer::intValue).toArray(), null, names, scanRows, otherRows);
        int[] keys = new int[aggregate.keys().length];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = kept.indexOf(aggregate.keys()[k]);
        }
        List<AggregateCall> calls = new ArrayList<>();
        for (AggregateCall call : aggregate.calls()) {
            calls.add(call.withArgument(call.argument() < 0 ? -1 : kept.indexOf(call.argument())));
        }
        List<PlanDraft.Op> ops = new ArrayList<>(side.ops());
        ops.set(0, new PlanDraft.Aggregate(keys, calls, aggregate.outputTypes(), aggregate.names()));
        return new PlanDraft(semi, ops, side.columns(), side.rex());
    }

    /**
     * The aggregation's output column that output {@code column} of the plan is, through the filters and column
     * projections above the aggregation; -1 when a projection computes it.
     */
    private static int aggregateOutput(PlanDraft plan, int column) {
        List<PlanDraft.Op> ops = plan.ops();
        int at = column;
        for (int i = ops.size() - 1; i >= 1; i--) {
            switch (ops.get(i)) {
                case PlanDraft.Filter f -> {
                }
                case PlanDraft.Project p -> {
                    RexNode expr = p.exprs().get(at);
                    if (!(expr instanceof RexInputRef ref)) {
                        return -1;
                    }
                    at = ref.getIndex();
                }
                default -> {
                    return -1;
                }
            }
        }
        return at;
    }

    private static List<ResultColumn> columns(PlanDraft.Scan scan) {
        List<ResultColumn> columns = new ArrayList<>();
        for (int i = 0; i < scan.outputs().size(); i++) {
            columns.add(new ResultColumn(scan.names().get(i), SqlTypes.of(scan.outputs().get(i).getType())));
        }
        return columns;
    }
}
