package io.locusdb.core.storage.placement;

import java.util.Locale;

/**
 * What a placement operation did and what it cost. {@code pages} are the 4 KiB pages written on the target
 * node(s); µs/page is the placer's "move speed" (or "repartition speed").
 */
public record PlacementReport(String operation, String table, int partsBefore, int partsAfter, long rows,
                              long pages, long nanos) {
    public double microsPerPage() {
        return pages == 0 ? Double.NaN : nanos / 1000.0 / pages;
    }

    public double millis() {
        return nanos / 1e6;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s %s: %d→%d parts, %d rows, %d pages in %.1f ms (%.3f µs/page)",
                operation, table, partsBefore, partsAfter, rows, pages, millis(), microsPerPage());
    }
}
