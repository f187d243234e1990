package io.locusdb.core.storage.table;

import java.util.List;

/** What a DELETE or UPDATE does to a table: rows removed (by value) and rows added, in one commit. */
public record Replacement(List<Object[]> removed, List<Object[]> added) {
}
