package io.locusdb.core.storage.table;

import io.locusdb.core.storage.table.PartitionSpec;
import java.nio.charset.StandardCharsets;

/** Maps a row's partitioning key to a part index, for HASH and ROUND_ROBIN specs. */
public final class PartitionRouter {
    private PartitionRouter() {
    }

    /** A well-mixed 64-bit hash (murmur3 finalizer): partition by {@code floorMod(hash, parts)}. */
    public static long hash(long key) {
        long h = key;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    public static long hash(double key) {
        double v = key == 0.0 ? 0.0 : key;
        return hash(Double.doubleToLongBits(v));
    }

    public static long hash(String key) {
        long h = 0x9E3779B97F4A7C15L;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ b) * 0x100000001B3L;
        }
        return hash(h);
    }

    /** Part of a hash for {@code parts} parts; with parts doubled, part p's rows go to p or p + parts. */
    public static int part(long hash, int parts) {
        return (int) Math.floorMod(hash, (long) parts);
    }

    public static int hashPart(Object key, PartitionSpec.Hash spec) {
        long h = switch (key) {
            case null -> 0;
            case Long l -> hash(l);
            case Integer i -> hash(i.longValue());
            case Boolean b -> hash(b ? 1L : 0L);
            case Double d -> hash(d);
            case String s -> hash(s);
            default -> throw new IllegalArgumentException("cannot hash " + key.getClass().getSimpleName());
        };
        return part(h, spec.parts());
    }
}
