package io.locusdb.core.query.pipeline;

import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.expr.Expr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a scan under an aggregation must produce: only the outputs the group keys and aggregate arguments read,
 * with keys and arguments renumbered to them. Also says whether the aggregation is a bare COUNT(*), which phase 1
 * answers alone.
 */
record AggregateInput(List<Expr> outputs, int[] keys, List<AggregateCall> calls) {

    static AggregateInput of(PhysicalPlan.Scan scan, PhysicalPlan.Aggregate aggregate) {
        TreeSet<Integer> used = new TreeSet<>();
        for (int k : aggregate.keys()) {
            used.add(k);
        }
        for (AggregateCall call : aggregate.calls()) {
            if (call.argument() >= 0) {
                used.add(call.argument());
            }
        }
        Map<Integer, Integer> position = new TreeMap<>();
        List<Expr> outputs = new ArrayList<>();
        for (int i : used) {
            position.put(i, outputs.size());
            outputs.add(scan.outputs().get(i));
        }
        int[] keys = new int[aggregate.keys().length];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = position.get(aggregate.keys()[k]);
        }
        List<AggregateCall> calls = new ArrayList<>();
        for (AggregateCall c : aggregate.calls()) {
            calls.add(c.withArgument(c.argument() < 0 ? -1 : position.get(c.argument())));
        }
        return new AggregateInput(outputs, keys, calls);
    }

    /** COUNT(*) only, no grouping, no residual filter: the phase-1 counts are the answer. */
    boolean countsOnly(Expr residual) {
        return keys.length == 0 && residual == null && calls.stream()
                .allMatch(c -> c.function() == AggregateCall.Function.COUNT && c.argument() < 0);
    }
}
