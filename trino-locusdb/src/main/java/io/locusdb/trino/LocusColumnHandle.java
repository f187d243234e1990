package io.locusdb.trino;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.type.Type;

/**
 * A column of a LocusDB table, or an output of a pushed-down aggregation: its name there and its Trino type. A
 * record: Trino's JSON mapper writes and reads records by their components.
 */
public record LocusColumnHandle(String name, Type type, boolean nullable) implements ColumnHandle {
    ColumnMetadata metadata() {
        return ColumnMetadata.builder().setName(name).setType(type).setNullable(nullable).build();
    }
}
