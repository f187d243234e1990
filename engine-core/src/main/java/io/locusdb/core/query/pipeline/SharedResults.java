package io.locusdb.core.query.pipeline;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The results of a query's shared subplans ({@code PhysicalPlan.Shared}) in one execution, by id: the first
 * occurrence to need one computes it, every other reads the same relation (relations are not changed by the
 * operators that read them). Kept with the query's context, so they go when the query does.
 */
final class SharedResults {
    private final Map<Integer, Relation> results = new HashMap<>();

    /** Shared result {@code id}, computed by {@code compute} unless an occurrence did so already. */
    Relation get(int id, Supplier<Relation> compute) {
        synchronized (results) {
            Relation known = results.get(id);
            if (known != null) {
                return known;
            }
        }
        // Computed outside the lock: it runs pipelines, which may need other shared results. Two occurrences
        // racing compute it twice, and both read the first one kept.
        Relation computed = compute.get();
        synchronized (results) {
            Relation raced = results.putIfAbsent(id, computed);
            return raced != null ? raced : computed;
        }
    }
}
