package io.locusdb.core.sql;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/** A schema of system tables only ({@code pg_catalog}, {@code information_schema}), computed at each execution. */
final class SystemSchema extends AbstractSchema {
    private final Map<String, Table> tables = new LinkedHashMap<>();

    SystemSchema(List<SystemTable> systemTables) {
        for (SystemTable t : systemTables) {
            tables.put(t.name(), CatalogSchema.calciteTable(t));
        }
    }

    /** PostgreSQL's type names, so that {@code x::pg_catalog.text} reads as it does unqualified. */
    @Override
    protected Map<String, RelProtoDataType> getTypeMap() {
        return CatalogSchema.postgresTypes();
    }

    @Override
    protected Map<String, Table> getTableMap() {
        return tables;
    }
}
