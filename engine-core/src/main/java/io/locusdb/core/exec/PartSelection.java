package io.locusdb.core.exec;

import java.util.Locale;

/**
 * One table part that an execution reads in place of the whole table: part {@code part} of the {@code parts} parts
 * the caller saw when it listed them (a distributed engine reading one split), in division {@code division} of the
 * table's rows (as {@code locus_tables} lists it; negative: only the count is checked). Both are kept so that a table
 * repartitioned or merged in between is refused instead of read in another division, which could skip or repeat
 * rows.
 */
public record PartSelection(String table, int part, int parts, long division) {
    public PartSelection {
        table = table.toLowerCase(Locale.ROOT);
        if (parts < 1 || part < 0 || part >= parts) {
            throw new IllegalArgumentException("part " + part + " of " + parts + " does not exist");
        }
    }
}
