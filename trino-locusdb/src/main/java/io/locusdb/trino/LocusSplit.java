package io.locusdb.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

/**
 * One table part on one LocusDB server: the server reads it on the NUMA node that holds it ({@code node}, as the
 * server reported it), with the part count it had when listed, so that a table repartitioned meanwhile fails the
 * split (SQLSTATE 40001) instead of reading another division of its rows. Weighted by the part's rows.
 */
public record LocusSplit(String server, String table, int part, int parts, long rows, int node)
        implements ConnectorSplit {
    /** Rows of a split of standard weight (Trino schedules by weight). */
    private static final long STANDARD_ROWS = 1_000_000;

    @JsonCreator
    public LocusSplit(@JsonProperty("server") String server, @JsonProperty("table") String table,
                      @JsonProperty("part") int part, @JsonProperty("parts") int parts,
                      @JsonProperty("rows") long rows, @JsonProperty("node") int node) {
        this.server = server;
        this.table = table;
        this.part = part;
        this.parts = parts;
        this.rows = rows;
        this.node = node;
    }

    @Override
    @JsonProperty
    public String server() {
        return server;
    }

    @Override
    @JsonProperty
    public String table() {
        return table;
    }

    @Override
    @JsonProperty
    public int part() {
        return part;
    }

    @Override
    @JsonProperty
    public int parts() {
        return parts;
    }

    @Override
    @JsonProperty
    public long rows() {
        return rows;
    }

    @Override
    @JsonProperty
    public int node() {
        return node;
    }

    @Override
    public SplitWeight getSplitWeight() {
        return SplitWeight.fromProportion(Math.clamp((double) rows / STANDARD_ROWS, 0.01, 1.0));
    }

    @Override
    public long getRetainedSizeInBytes() {
        return 64 + 2L * (server.length() + table.length());
    }
}
