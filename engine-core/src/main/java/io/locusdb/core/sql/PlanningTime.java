package io.locusdb.core.sql;

/**
 * Where a statement's planning went, in nanoseconds: Calcite's parser, its validator against the catalog, the
 * conversion to relational algebra (with decorrelation), and the rewrites (for joins, field trimming and the join
 * order; constant folding and the finishing program for every query).
 */
public record PlanningTime(long parseNanos, long validateNanos, long convertNanos, long rewriteNanos) {
    public static final PlanningTime NONE = new PlanningTime(0, 0, 0, 0);

    public long totalNanos() {
        return parseNanos + validateNanos + convertNanos + rewriteNanos;
    }
}
