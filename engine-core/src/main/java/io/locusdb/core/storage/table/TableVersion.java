package io.locusdb.core.storage.table;

import java.util.List;

/**
 * One immutable state of a table: its partitioning and parts. Placement operations install a new version; queries
 * read whichever version they snapshotted.
 *
 * @param division    which division of the rows into parts this is: the same number while parts only move or
 *                    fold their deltas in (part i holds the same rows), a new one after a repartition or merge,
 *                    so that a reader of "part i" listed earlier can tell that part i now holds other rows
 * @param rangeBounds for RANGE partitioning, the lowest key of parts 1..n-1 (part 0 takes everything below);
 *                    empty otherwise
 */
public record TableVersion(long number, long division, PartitionSpec spec, List<TablePart> parts,
                           List<Long> rangeBounds) {
    public TableVersion {
        parts = List.copyOf(parts);
        rangeBounds = List.copyOf(rangeBounds);
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i).index() != i) {
                throw new IllegalArgumentException("part at position " + i + " has index " + parts.get(i).index());
            }
        }
        if (spec instanceof PartitionSpec.Range && rangeBounds.size() != parts.size() - 1) {
            throw new IllegalArgumentException(parts.size() + " range parts need " + (parts.size() - 1)
                    + " bounds, got " + rangeBounds.size());
        }
    }

    public long rows() {
        return parts.stream().mapToLong(TablePart::rows).sum();
    }
}
