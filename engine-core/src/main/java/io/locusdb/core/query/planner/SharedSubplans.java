package io.locusdb.core.query.planner;

import java.util.Collections;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.TransientTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * The parts of a query that occur in it more than once: a CTE or a view referenced twice, or the same subquery in
 * two places (TPC-H Q15's view, once joined and once under MAX; Q11's join, once grouped by part and once summed in
 * HAVING). Calcite expands each reference on its own, so the plan holds equal subtrees; each is computed once per
 * execution and read by every occurrence ({@link PlanDraft.Shared}). Only subtrees worth keeping are shared: those
 * with an aggregation, a join or a window (a filtered scan streams cheaper than it is kept), and none whose
 * expressions are not deterministic (two calls of {@code random()} are two values, as the query says).
 * <p>
 * Calcite trims each occurrence to what its reader needs, so the same CTE read once for a count and once for a sum
 * arrives as two aggregations of one input with the same grouping and different calls. Those are shared too: one
 * aggregation computes every call either occurrence asks for, and each occurrence projects its own.
 */
final class SharedSubplans {
    private final Map<RelNode, String> keys = new IdentityHashMap<>();
    /** Every subtree's number: equal subtrees have equal numbers ({@link NodeText}). */
    private final Map<RelNode, Integer> subtrees = new IdentityHashMap<>();
    private final Map<String, Integer> subtreeNumbers = new HashMap<>();
    private final Set<RelNode> breakers = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<String, Integer> counts = new HashMap<>();
    private final Map<String, Integer> ids = new HashMap<>();
    private final Map<Integer, PlanDraft> planned = new HashMap<>();
    /** Per key of shared aggregations: every occurrence, whose calls together are what the shared one computes. */
    private final Map<String, List<Aggregate>> aggregations = new HashMap<>();
    private final Map<String, Aggregate> merged = new HashMap<>();

    private SharedSubplans() {
    }

    static SharedSubplans of(RelNode root) {
        SharedSubplans shared = new SharedSubplans();
        shared.visit(root);
        return shared;
    }

    /**
     * Counts {@code node}'s subtree and those below it by their text; returns whether the subtree is deterministic
     * and, in {@code breakers}, whether it holds an aggregation, join or window.
     */
    private boolean visit(RelNode node) {
        boolean deterministic = deterministic(node);
        boolean breaker = node instanceof Aggregate || node instanceof Join || node instanceof Window;
        for (RelNode input : node.getInputs()) {
            deterministic &= visit(input);
            breaker |= breakers.contains(input);
        }
        if (breaker) {
            breakers.add(node);
        }
        String text = NodeText.of(node, subtrees::get);
        subtrees.put(node, subtreeNumbers.computeIfAbsent(text, t -> subtreeNumbers.size()));
        if (deterministic && breaker) {
            String key;
            if (node instanceof Aggregate a && Grouping.of(a) != null) {
                // Equal groupings of one input, whatever their calls and the columns trimmed for them: one
                // aggregation computes the calls of every occurrence.
                Grouping grouping = Grouping.of(a);
                key = "AGGREGATE BY " + grouping.keys() + " OF #" + subtrees.get(grouping.input());
                aggregations.computeIfAbsent(key, k -> new ArrayList<>()).add(a);
            } else {
                key = "#" + subtrees.get(node);
            }
            keys.put(node, key);
            counts.merge(key, 1, Integer::sum);
        }
        return deterministic;
    }

    /** The id of {@code node}'s subtree when it occurs more than once and is worth computing once, else null. */
    Integer idOf(RelNode node) {
        String key = keys.get(node);
        if (key == null || counts.get(key) < 2) {
            return null;
        }
        return ids.computeIfAbsent(key, k -> ids.size() + 1);
    }

    /**
     * An aggregation in a form where occurrences trimmed differently compare equal: the input below its
     * projection, the expressions it groups by (over that input), and its calls over the projected expressions.
     */
    private record Grouping(RelNode input, List<RexNode> expressions, List<String> keys, Aggregate aggregate) {
        /** Null for an aggregation this form does not cover (grouping sets, ordered or filtered-by-key calls). */
        static Grouping of(Aggregate a) {
            if (a.getGroupType() != Aggregate.Group.SIMPLE) {
                return null;
            }
            for (AggregateCall call : a.getAggCallList()) {
                if (!call.getCollation().getFieldCollations().isEmpty() || call.distinctKeys != null
                        || !call.rexList.isEmpty()) {
                    return null;
                }
            }
            RelNode input = a.getInput();
            List<RexNode> expressions;
            if (input instanceof Project p) {
                expressions = p.getProjects();
                input = p.getInput();
            } else {
                expressions = new ArrayList<>();
                for (RelDataTypeField f : input.getRowType().getFieldList()) {
                    expressions.add(new RexInputRef(f.getIndex(), f.getType()));
                }
            }
            List<String> keys = new ArrayList<>();
            for (int k : a.getGroupSet()) {
                keys.add(expressions.get(k).toString());
            }
            return new Grouping(input, expressions, keys, a);
        }
    }

    /**
     * What shared subtree {@code occurrence} computes once for all its occurrences: itself, or for an aggregation,
     * one aggregation of every call its occurrences ask for, over one projection of every expression they read.
     */
    RelNode shared(RelNode occurrence) {
        String key = keys.get(occurrence);
        List<Aggregate> occurrences = aggregations.get(key);
        return occurrences == null ? occurrence : merged.computeIfAbsent(key, k -> merge(occurrences));
    }

    private static Aggregate merge(List<Aggregate> occurrences) {
        Grouping first = Grouping.of(occurrences.getFirst());
        // The projection: the grouping keys first, then every other expression a call reads, once.
        List<RexNode> expressions = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (int k : first.aggregate().getGroupSet()) {
            expressions.add(first.expressions().get(k));
            texts.add(first.expressions().get(k).toString());
        }
        List<AggregateCall> calls = new ArrayList<>();
        for (Aggregate a : occurrences) {
            Grouping g = Grouping.of(a);
            for (AggregateCall call : a.getAggCallList()) {
                AggregateCall mapped = remap(call, g, expressions, texts);
                if (position(calls, mapped) < 0) {
                    calls.add(mapped);
                }
            }
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < expressions.size(); i++) {
            names.add("$s" + i);
        }
        RelNode projected = LogicalProject.create(first.input(), List.of(), expressions, names, Set.of());
        return LogicalAggregate.create(projected, List.of(), ImmutableBitSet.range(first.keys().size()), null, calls);
    }

    /** {@code call} of grouping {@code g} over the merged projection (adding the expressions it reads). */
    private static AggregateCall remap(AggregateCall call, Grouping g, List<RexNode> expressions, List<String> texts) {
        List<Integer> args = new ArrayList<>();
        for (int arg : call.getArgList()) {
            args.add(indexOf(g.expressions().get(arg), expressions, texts));
        }
        int filter = call.filterArg < 0 ? -1 : indexOf(g.expressions().get(call.filterArg), expressions, texts);
        return call.copy(args, filter);
    }

    private static int indexOf(RexNode expression, List<RexNode> expressions, List<String> texts) {
        String text = expression.toString();
        int at = texts.indexOf(text);
        if (at < 0) {
            expressions.add(expression);
            texts.add(text);
            at = expressions.size() - 1;
        }
        return at;
    }

    /**
     * For an aggregation shared with others, where each of its output columns is among the shared aggregation's:
     * its keys, then each of its calls' positions; null when it outputs exactly the shared columns.
     */
    int[] columnsOf(RelNode occurrence) {
        RelNode shared = shared(occurrence);
        if (shared == occurrence || !(occurrence instanceof Aggregate a)) {
            return null;
        }
        Grouping g = Grouping.of(a);
        Aggregate merged = (Aggregate) shared;
        List<RexNode> expressions = new ArrayList<>(((Project) merged.getInput()).getProjects());
        List<String> texts = new ArrayList<>(expressions.stream().map(RexNode::toString).toList());
        int keys = a.getGroupCount();
        int[] columns = new int[keys + a.getAggCallList().size()];
        for (int i = 0; i < keys; i++) {
            columns[i] = i;
        }
        boolean same = columns.length == shared.getRowType().getFieldCount();
        for (int i = 0; i < a.getAggCallList().size(); i++) {
            AggregateCall mapped = remap(a.getAggCallList().get(i), g, expressions, texts);
            columns[keys + i] = keys + position(merged.getAggCallList(), mapped);
            same &= columns[keys + i] == keys + i;
        }
        return same ? null : columns;
    }

    /** The position of a call computing what {@code call} does in {@code calls} (names aside), or -1. */
    private static int position(List<AggregateCall> calls, AggregateCall call) {
        for (int i = 0; i < calls.size(); i++) {
            AggregateCall c = calls.get(i);
            if (c.getAggregation().equals(call.getAggregation()) && c.isDistinct() == call.isDistinct()
                    && c.isApproximate() == call.isApproximate() && c.ignoreNulls() == call.ignoreNulls()
                    && c.getArgList().equals(call.getArgList()) && c.filterArg == call.filterArg
                    && c.getType().equals(call.getType())) {
                return i;
            }
        }
        return -1;
    }

    /** The plan of shared subtree {@code id}, made by {@code plan} the first time. */
    PlanDraft planned(int id, Supplier<PlanDraft> plan) {
        PlanDraft known = planned.get(id);
        if (known == null) {
            known = plan.get();
            planned.put(id, known);
        }
        return known;
    }

    private static boolean deterministic(RelNode node) {
        if (node instanceof TableScan scan && scan.getTable().unwrap(TransientTable.class) != null) {
            // A recursion's working table holds other rows each round: what reads it is computed anew each time.
            return false;
        }
        List<RexNode> expressions = switch (node) {
            case Project p -> p.getProjects();
            case Filter f -> List.of(f.getCondition());
            case Join j -> List.of(j.getCondition());
            default -> List.of();
        };
        for (RexNode e : expressions) {
            if (!RexUtil.isDeterministic(e)) {
                return false;
            }
        }
        return true;
    }
}
