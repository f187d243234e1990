package io.locusdb.core.storage.table;

/**
 * How rows are divided into table parts. Tables in one table group share a spec on a column of the same type, so
 * their parts with the same index hold matching keys and live on the same node.
 */
public sealed interface PartitionSpec {
    /** One part. */
    record None() implements PartitionSpec {
    }

    /** Rows dealt to parts in turn (or in load order chunks); no key. */
    record RoundRobin(int parts) implements PartitionSpec {
        public RoundRobin {
            PartitionSpec.checkParts(parts);
        }
    }

    /** Part = hash(column) mod parts. Doubling the parts splits each part p into p and p + parts. */
    record Hash(String column, int parts) implements PartitionSpec {
        public Hash {
            PartitionSpec.checkParts(parts);
        }
    }

    /** Parts hold consecutive ranges of {@code column}; boundaries are chosen at load time (equi-depth). */
    record Range(String column, int parts) implements PartitionSpec {
        public Range {
            PartitionSpec.checkParts(parts);
        }
    }

    int MAX_PARTS = 4096;

    static PartitionSpec none() {
        return new None();
    }

    default int parts() {
        return switch (this) {
            case None n -> 1;
            case RoundRobin r -> r.parts();
            case Hash h -> h.parts();
            case Range r -> r.parts();
        };
    }

    /** The partitioning column, or null for NONE and ROUND_ROBIN. */
    default String column() {
        return switch (this) {
            case Hash h -> h.column();
            case Range r -> r.column();
            default -> null;
        };
    }

    /** The same kind of spec with another part count. */
    default PartitionSpec withParts(int parts) {
        return switch (this) {
            case None n -> parts == 1 ? n : new RoundRobin(parts);
            case RoundRobin r -> parts == 1 ? new None() : new RoundRobin(parts);
            case Hash h -> new Hash(h.column(), parts);
            case Range r -> new Range(r.column(), parts);
        };
    }

    private static void checkParts(int parts) {
        if (parts < 1 || parts > MAX_PARTS) {
            throw new IllegalArgumentException("partition count " + parts + " is outside 1.." + MAX_PARTS);
        }
    }
}
