package io.locusdb.trino;

/**
 * The part LocusDB gives an integer key of a HASH-partitioned table (its {@code PartitionRouter}: a murmur3
 * finalizer, then the floor modulus); tested against LocusDB's own, which must not change without this.
 */
final class LocusHash {
    private LocusHash() {
    }

    static int part(long key, int parts) {
        long h = key;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) Math.floorMod(h, (long) parts);
    }
}
