package io.locusdb.trino;

import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

/**
 * One table part on one LocusDB server, with the part count and division of the table's rows it had when listed,
 * so that a table repartitioned or merged meanwhile fails the split (SQLSTATE 40001) instead of reading another
 * division of its rows. Weighted by the part's rows. {@code node} is the NUMA node the server reported for the part,
 * for EXPLAIN and logs: the server schedules the read there on its own.
 */
public record LocusSplit(String server, String table, int part, int parts, long division, long rows, int node)
        implements ConnectorSplit {
    /** Rows of a split of standard weight (Trino schedules by weight). */
    private static final long STANDARD_ROWS = 1_000_000;

    @Override
    public SplitWeight getSplitWeight() {
        return SplitWeight.fromProportion(Math.clamp((double) rows / STANDARD_ROWS, 0.01, 1.0));
    }

    @Override
    public long getRetainedSizeInBytes() {
        return 64 + 2L * (server.length() + table.length());
    }
}
