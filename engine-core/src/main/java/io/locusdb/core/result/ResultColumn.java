package io.locusdb.core.result;

import io.locusdb.core.storage.type.ColumnType;

/** A result column: its name and SQL type (DECIMAL carries precision and scale). */
public record ResultColumn(String name, ColumnType type) {
}
