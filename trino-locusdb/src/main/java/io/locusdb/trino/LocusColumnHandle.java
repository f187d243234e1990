package io.locusdb.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.type.Type;

/** A column of a LocusDB table: its name there and its Trino type. */
public record LocusColumnHandle(String name, Type type, boolean nullable) implements ColumnHandle {
    @JsonCreator
    public LocusColumnHandle(@JsonProperty("name") String name, @JsonProperty("type") Type type,
                             @JsonProperty("nullable") boolean nullable) {
        this.name = name;
        this.type = type;
        this.nullable = nullable;
    }

    @Override
    @JsonProperty
    public String name() {
        return name;
    }

    @Override
    @JsonProperty
    public Type type() {
        return type;
    }

    @Override
    @JsonProperty
    public boolean nullable() {
        return nullable;
    }

    ColumnMetadata metadata() {
        return ColumnMetadata.builder().setName(name).setType(type).setNullable(nullable).build();
    }
}
