package io.locusdb.core.eris;

import java.util.Arrays;

/**
 * A data object's range partition table (ERIS §3.2): AEU {@code owners[i]} holds the keys from {@code lows[i]}
 * up to the next low. Immutable: the balancer installs a new one, every router reads whichever is current. Small
 * enough to stay in every node's caches.
 */
public record RangeTable(long[] lows, int[] owners) {
    public RangeTable {
        if (lows.length == 0 || lows.length != owners.length || lows[0] != Long.MIN_VALUE) {
            throw new IllegalArgumentException("a range table starts at Long.MIN_VALUE and names an owner per range");
        }
        for (int i = 1; i < lows.length; i++) {
            if (lows[i] <= lows[i - 1]) {
                throw new IllegalArgumentException("range lows must ascend: " + Arrays.toString(lows));
            }
        }
        lows = lows.clone();
        owners = owners.clone();
    }

    /** {@code aeus} equal ranges of the keys {@code [0, keys)}, AEU i holding the i-th (the first from MIN_VALUE). */
    public static RangeTable even(int aeus, long keys) {
        long[] lows = new long[aeus];
        int[] owners = new int[aeus];
        for (int i = 0; i < aeus; i++) {
            lows[i] = i == 0 ? Long.MIN_VALUE : keys * i / aeus;
            owners[i] = i;
        }
        return new RangeTable(lows, owners);
    }

    /** The AEU that owns {@code key}. */
    public int ownerOf(long key) {
        int i = Arrays.binarySearch(lows, key);
        return owners[i >= 0 ? i : -i - 2];
    }

    /** Range i's lowest key. */
    public long low(int i) {
        return lows[i];
    }

    /** Range i's highest key. */
    public long high(int i) {
        return i + 1 < lows.length ? lows[i + 1] - 1 : Long.MAX_VALUE;
    }

    public int ranges() {
        return lows.length;
    }

    /** The range AEU {@code aeu} owns, as {lo, hi}, or null (each AEU owns one contiguous range here). */
    public long[] rangeOf(int aeu) {
        for (int i = 0; i < owners.length; i++) {
            if (owners[i] == aeu) {
                return new long[] {low(i), high(i)};
            }
        }
        return null;
    }
}
