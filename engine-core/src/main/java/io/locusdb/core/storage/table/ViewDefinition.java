package io.locusdb.core.storage.table;

/**
 * A view: its name, the text of its query, and the columns that query had when the view was created (names, and
 * types as the planner saw them), which is the row type statements plan against. The query is planned again, into
 * each statement that reads the view.
 */
public record ViewDefinition(String name, String sql, Schema columns) {
}
