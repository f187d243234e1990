package io.locusdb.core.exec;

import java.util.Locale;

/**
 * One table part that an execution reads in place of the whole table: part {@code part} of the {@code parts} parts
 * the caller saw when it listed them (a distributed engine reading one split). The count is kept so that a table
 * repartitioned in between is refused instead of read in another division, which could skip or repeat rows.
 */
public record PartSelection(String table, int part, int parts) {
    public PartSelection {
        table = table.toLowerCase(Locale.ROOT);
        if (parts < 1 || part < 0 || part >= parts) {
            throw new IllegalArgumentException("part " + part + " of " + parts + " does not exist");
        }
    }
}
