package io.locusdb.core.query;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Planned queries by statement text, so that an ad-hoc statement sent again costs what a prepared one costs. An
 * entry holds the catalog epoch it was planned at and is used only at that epoch (DDL, a dropped and re-created
 * table, or a new table version from a placement change or a merge end it). A plan is taken out while it runs, so
 * no two statements share one (the planner's cluster and metadata caches are not thread-safe); a concurrent copy of
 * the same statement plans afresh. Least recently used entries go first.
 */
final class PlanCache<P> {
    private record Entry<P>(long epoch, P plan) {
    }

    private final int capacity;
    private final Map<String, Entry<P>> entries;
    private long hits;
    private long misses;

    PlanCache(int capacity) {
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true);
    }

    /** The plan for {@code sql} at {@code epoch}, taken out of the cache; null when there is none. */
    synchronized P take(String sql, long epoch) {
        Entry<P> entry = entries.remove(sql);
        if (entry != null && entry.epoch() == epoch) {
            hits++;
            return entry.plan();
        }
        misses++;
        return null;
    }

    /** Puts a plan (back) after its statement ran. */
    synchronized void put(String sql, long epoch, P plan) {
        if (capacity == 0) {
            return;
        }
        entries.putIfAbsent(sql, new Entry<>(epoch, plan));
        while (entries.size() > capacity) {
            entries.remove(entries.keySet().iterator().next());
        }
    }

    synchronized long hits() {
        return hits;
    }

    synchronized long misses() {
        return misses;
    }
}
