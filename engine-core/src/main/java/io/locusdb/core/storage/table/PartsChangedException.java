package io.locusdb.core.storage.table;

/**
 * A read of one part of a table whose parts were listed by the caller, refused because the table has been divided
 * anew since (repartitioned or merged: another part count, or another division number): reading "part p" of
 * another division could skip or repeat rows. Moves keep a table's division, so they never cause this. The caller
 * lists the parts again and retries.
 */
public final class PartsChangedException extends RuntimeException {
    PartsChangedException(String table, int part, int expectedParts, int parts, long expectedDivision,
                          long division) {
        super("table " + table + " has " + parts + " part" + (parts == 1 ? "" : "s") + " in division " + division
                + " now; part " + part + " of " + expectedParts + (expectedDivision < 0 ? ""
                : " in division " + expectedDivision) + " was asked for (the table was repartitioned or merged"
                + " since its parts were listed): list its parts again");
    }
}
