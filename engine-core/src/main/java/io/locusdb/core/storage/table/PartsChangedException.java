package io.locusdb.core.storage.table;

/**
 * A read of one part of a table whose parts were counted by the caller, refused because the table has been
 * divided anew since (repartitioned or merged): reading "part p" of another division could skip or repeat rows.
 * Moves keep a table's division, so they never cause this. The caller lists the parts again and retries.
 */
public final class PartsChangedException extends RuntimeException {
    private final String table;

    PartsChangedException(String table, int part, int expectedParts, int parts) {
        super("table " + table + " has " + parts + " part" + (parts == 1 ? "" : "s") + " now; part " + part + " of "
                + expectedParts + " was asked for (the table was repartitioned since its parts were listed): list"
                + " its parts again");
        this.table = table;
    }

    public String table() {
        return table;
    }
}
