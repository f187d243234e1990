package io.locusdb.trino;

import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorPartitioningHandle;
import java.util.List;

/**
 * Where each value of an integer key lives across the catalog: bucket {@code s * partsPerServer + p} is part p on
 * server s (of {@code servers}). Servers, and with RANGE partitioning parts too, hold disjoint key ranges, listed
 * in key order: {@code ranges}. With HASH partitioning a range names a server (its first bucket) and the part
 * within it is LocusDB's hash of the key. Two tables with equal handles hold any key in the same bucket, so Trino
 * joins or groups them bucket by bucket without moving rows between workers. Keys outside every range (no row
 * holds them) go to the nearest range below, or the first: any fixed bucket serves a key no row has.
 */
public record LocusPartitioningHandle(boolean hashed, List<String> servers, int partsPerServer,
                                      List<KeyRange> ranges) implements ConnectorPartitioningHandle {
    public LocusPartitioningHandle {
        servers = List.copyOf(servers);
        ranges = List.copyOf(ranges);
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException("a partitioning needs at least one key range");
        }
    }

    /** Keys {@code low..high} (inclusive) are in {@code bucket} (with HASH partitioning: the server's first). */
    public record KeyRange(long low, long high, int bucket) {
    }

    int bucketCount() {
        return servers.size() * partsPerServer;
    }

    /** The bucket that holds {@code key}. */
    int bucketOf(long key) {
        int lo = 0;
        int hi = ranges.size() - 1;
        // The last range whose low end is at most the key; the first when the key is below them all.
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (ranges.get(mid).low() <= key) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        int bucket = ranges.get(lo).bucket();
        return hashed ? bucket + LocusHash.part(key, partsPerServer) : bucket;
    }

    /** The bucket of a split: part {@code part} of {@code parts} on {@code server}. */
    int bucketOf(String server, int part, int parts) {
        int s = servers.indexOf(server);
        if (s < 0 || parts != partsPerServer || part < 0 || part >= parts) {
            throw new TrinoException(LocusServers.Error.LOCUSDB_CATALOG_MISMATCH, "part " + part + " of " + parts
                    + " on LocusDB server " + server + " is not where the query was planned to find its rows ("
                    + servers + ", " + partsPerServer + " parts each): the table changed meanwhile; run it again");
        }
        return s * partsPerServer + part;
    }
}
