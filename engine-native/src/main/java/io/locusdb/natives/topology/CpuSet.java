package io.locusdb.natives.topology;

import java.util.Arrays;
import java.util.BitSet;
import java.util.stream.IntStream;

/**
 * An immutable set of CPU (or node) ids, written and read in the kernel's list syntax ({@code "0-3,8,10-11"}).
 */
public final class CpuSet {
    private static final CpuSet EMPTY = new CpuSet(new BitSet());
    private final BitSet bits;

    private CpuSet(BitSet bits) {
        this.bits = bits;
    }

    public static CpuSet empty() {
        return EMPTY;
    }

    public static CpuSet of(int... ids) {
        BitSet bits = new BitSet();
        for (int id : ids) {
            if (id < 0) {
                throw new IllegalArgumentException("CPU ids are non-negative, got " + id);
            }
            bits.set(id);
        }
        return new CpuSet(bits);
    }

    public static CpuSet range(int fromInclusive, int toExclusive) {
        BitSet bits = new BitSet();
        bits.set(fromInclusive, toExclusive);
        return new CpuSet(bits);
    }

    /** From the words of a kernel {@code cpu_set_t}/node mask (bit i of word w is id 64·w+i). */
    public static CpuSet fromMaskWords(long[] words) {
        return new CpuSet(BitSet.valueOf(words));
    }

    /** Parses the kernel's list format; blank means empty. Throws with the offending token on bad input. */
    public static CpuSet parse(String list) {
        BitSet bits = new BitSet();
        String trimmed = list == null ? "" : list.trim();
        if (trimmed.isEmpty()) {
            return EMPTY;
        }
        for (String token : trimmed.split(",")) {
            String t = token.trim();
            int dash = t.indexOf('-');
            try {
                if (dash < 0) {
                    bits.set(nonNegative(Integer.parseInt(t), t));
                } else {
                    int from = nonNegative(Integer.parseInt(t.substring(0, dash).trim()), t);
                    int to = nonNegative(Integer.parseInt(t.substring(dash + 1).trim()), t);
                    if (to < from) {
                        throw new IllegalArgumentException("descending CPU range '" + t + "' in '" + list + "'");
                    }
                    bits.set(from, to + 1);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad CPU list token '" + t + "' in '" + list
                        + "' (expected e.g. 0-3,8)");
            }
        }
        return new CpuSet(bits);
    }

    private static int nonNegative(int id, String token) {
        if (id < 0) {
            throw new IllegalArgumentException("negative id in '" + token + "'");
        }
        return id;
    }

    public boolean contains(int id) {
        return id >= 0 && bits.get(id);
    }

    public int size() {
        return bits.cardinality();
    }

    public boolean isEmpty() {
        return bits.isEmpty();
    }

    /** Highest id + 1, or 0 when empty. */
    public int limit() {
        return bits.length();
    }

    public int first() {
        return bits.nextSetBit(0);
    }

    public IntStream stream() {
        return bits.stream();
    }

    public int[] toArray() {
        return bits.stream().toArray();
    }

    public CpuSet intersect(CpuSet other) {
        BitSet copy = (BitSet) bits.clone();
        copy.and(other.bits);
        return new CpuSet(copy);
    }

    public CpuSet union(CpuSet other) {
        BitSet copy = (BitSet) bits.clone();
        copy.or(other.bits);
        return new CpuSet(copy);
    }

    /** As cpu_set_t words, at least {@code minWords} long. */
    public long[] toMaskWords(int minWords) {
        long[] words = bits.toLongArray();
        return words.length >= minWords ? words : Arrays.copyOf(words, minWords);
    }

    /** Kernel list syntax, ranges collapsed: {@code 0-3,8}. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        int start = bits.nextSetBit(0);
        while (start >= 0) {
            int end = bits.nextClearBit(start) - 1;
            if (!out.isEmpty()) {
                out.append(',');
            }
            out.append(start);
            if (end > start) {
                out.append('-').append(end);
            }
            start = bits.nextSetBit(end + 1);
        }
        return out.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CpuSet other && bits.equals(other.bits);
    }

    @Override
    public int hashCode() {
        return bits.hashCode();
    }
}
