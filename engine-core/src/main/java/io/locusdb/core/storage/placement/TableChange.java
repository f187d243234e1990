package io.locusdb.core.storage.placement;

/** A placement change installed on the table named {@code table}. */
public record TableChange(String table, PlacementChange change) {
}
