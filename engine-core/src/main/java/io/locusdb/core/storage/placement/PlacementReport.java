package io.locusdb.core.storage.placement;

import java.util.Locale;

/**
 * What a placement operation did and what it cost. {@code pages} are the 4 KiB pages written on the target
 * node(s); µs/page is the placer's "move speed" (or "repartition speed"). {@code method} says how the data got
 * there: {@code copy} (new parts built on the target node) or {@code migrate} (the kernel moved the pages in place),
 * and why a migration was copied instead. {@code change} is what a restart redoes (null for a delta merge, which
 * changes no placement).
 */
public record PlacementReport(String operation, String method, String table, int partsBefore, int partsAfter, long rows,
                              long pages, long nanos, PlacementChange change) {
    public double microsPerPage() {
        return pages == 0 ? Double.NaN : nanos / 1000.0 / pages;
    }

    public double millis() {
        return nanos / 1e6;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s (%s) %s: %d→%d parts, %d rows, %d pages in %.1f ms (%.3f µs/page)",
                operation, method, table, partsBefore, partsAfter, rows, pages, millis(), microsPerPage());
    }
}
