package io.locusdb.core.sql;

import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.ViewDefinition;
import io.locusdb.core.storage.type.ColumnType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The catalog as Calcite sees it: every table with its columns and SQL types, read from the catalog at each
 * lookup, so statements see tables created or dropped a moment ago. Calcite only plans against it; LocusDB's own
 * operators execute.
 */
public final class CatalogSchema extends AbstractSchema {
    private final Catalog catalog;
    private final List<SystemTable> systemTables;

    CatalogSchema(Catalog catalog, List<SystemTable> systemTables) {
        this.catalog = catalog;
        this.systemTables = List.copyOf(systemTables);
    }

    /**
     * PostgreSQL's names for the types LocusDB computes with, so that {@code x::text}, {@code CAST(x AS int8)} and
     * the casts drivers put around parameters read. OIDs ({@code oid}, {@code regclass}...) are BIGINT, which holds
     * PostgreSQL's unsigned 32-bit values.
     */
    static final Map<String, SqlTypeName> POSTGRES_TYPE_NAMES = Map.ofEntries(
            Map.entry("text", SqlTypeName.VARCHAR), Map.entry("name", SqlTypeName.VARCHAR),
            Map.entry("bpchar", SqlTypeName.VARCHAR), Map.entry("string", SqlTypeName.VARCHAR),
            Map.entry("int2", SqlTypeName.INTEGER), Map.entry("int4", SqlTypeName.INTEGER),
            Map.entry("int8", SqlTypeName.BIGINT), Map.entry("float4", SqlTypeName.DOUBLE),
            Map.entry("float8", SqlTypeName.DOUBLE), Map.entry("bool", SqlTypeName.BOOLEAN),
            Map.entry("oid", SqlTypeName.BIGINT), Map.entry("regclass", SqlTypeName.BIGINT),
            Map.entry("regproc", SqlTypeName.BIGINT), Map.entry("regtype", SqlTypeName.BIGINT),
            Map.entry("regnamespace", SqlTypeName.BIGINT), Map.entry("xid", SqlTypeName.BIGINT));

    static Map<String, RelProtoDataType> postgresTypes() {
        Map<String, RelProtoDataType> types = new LinkedHashMap<>();
        Map<String, SqlTypeName> elements = new LinkedHashMap<>(POSTGRES_TYPE_NAMES);
        elements.put("varchar", SqlTypeName.VARCHAR);
        elements.put("date", SqlTypeName.DATE);
        elements.put("timestamp", SqlTypeName.TIMESTAMP);
        elements.put("timestamptz", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
        elements.forEach((name, type) -> {
            if (POSTGRES_TYPE_NAMES.containsKey(name) || type == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
                RelProtoDataType proto = type == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                        ? factory -> factory.createSqlType(type, 6) : factory -> factory.createSqlType(type);
                types.put(name, proto);
                types.put(name.toUpperCase(Locale.ROOT), proto);
            }
            // PostgreSQL names an array type after its element with a leading underscore (_int4 is int4[]).
            RelProtoDataType array = factory -> factory.createArrayType(
                    factory.createTypeWithNullability(factory.createSqlType(type), true), -1);
            types.put("_" + name, array);
            types.put("_" + name.toUpperCase(Locale.ROOT), array);
        });
        return types;
    }

    @Override
    protected Map<String, Table> getTableMap() {
        Map<String, Table> tables = new LinkedHashMap<>();
        for (io.locusdb.core.storage.table.Table table : catalog.tables()) {
            tables.put(table.name(), new CatalogTable(table));
        }
        for (ViewDefinition view : catalog.views()) {
            tables.put(view.name(), new ViewCalciteTable(view));
        }
        // System names are reserved (CREATE TABLE refuses them), so these never hide a user's table.
        for (SystemTable table : systemTables) {
            tables.put(table.name(), calciteTable(table));
        }
        return tables;
    }

    /** The Calcite table of a system table: one that is always empty is planned as no rows at all. */
    static Table calciteTable(SystemTable table) {
        return table.alwaysEmpty() ? new EmptyCalciteTable(table) : new SystemCalciteTable(table);
    }

    /**
     * A system table that never holds a row, planned as empty VALUES: whatever reads it (in tools' catalog queries,
     * correlated array subqueries LocusDB could not run) is pruned away while planning, as its answer is no rows.
     */
    static final class EmptyCalciteTable extends AbstractTable implements TranslatableTable {
        private final SystemCalciteTable shape;

        EmptyCalciteTable(SystemTable table) {
            this.shape = new SystemCalciteTable(table);
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory types) {
            return shape.getRowType(types);
        }

        @Override
        public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
            return LogicalValues.createEmpty(context.getCluster(), relOptTable.getRowType());
        }
    }

    /** A system table as Calcite plans against it; the physical planner reads its rows. */
    public static final class SystemCalciteTable extends AbstractTable {
        private final SystemTable table;

        SystemCalciteTable(SystemTable table) {
            this.table = table;
        }

        public SystemTable table() {
            return table;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory types) {
            RelDataTypeFactory.Builder row = types.builder();
            for (ColumnDef column : table.columns()) {
                ColumnType element = table.arrays().get(column.name());
                RelDataType type = element == null ? CatalogTable.sqlType(types, column.type())
                        : types.createArrayType(types.createTypeWithNullability(CatalogTable.sqlType(types, element),
                        true), -1);
                row.add(column.name(), types.createTypeWithNullability(type, column.nullable()));
            }
            return row.build();
        }
    }

    /**
     * A view as Calcite plans against it: the row type it had when created; its query expanded into the statement
     * that reads it, with casts where the query's types have changed since (a table replaced under it).
     */
    public static final class ViewCalciteTable extends AbstractTable implements TranslatableTable {
        private final ViewDefinition view;

        ViewCalciteTable(ViewDefinition view) {
            this.view = view;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory types) {
            RelDataTypeFactory.Builder row = types.builder();
            for (ColumnDef column : view.columns().columns()) {
                row.add(column.name(), types.createTypeWithNullability(CatalogTable.sqlType(types, column.type()),
                        true));
            }
            return row.build();
        }

        @Override
        public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable table) {
            RelDataType rowType = table.getRowType();
            RelNode rel = context.expandView(rowType, view.sql(), List.of(SqlFrontEnd.SCHEMA),
                    List.of(SqlFrontEnd.SCHEMA, view.name())).rel;
            if (!RelOptUtil.areRowTypesEqual(rowType, rel.getRowType(), false)) {
                rel = RelOptUtil.createCastRel(rel, rowType, true);
            }
            return rel;
        }
    }

    /** One catalog table; {@link #table()} is what the physical planner scans. */
    public static final class CatalogTable extends AbstractTable {
        private final io.locusdb.core.storage.table.Table table;

        CatalogTable(io.locusdb.core.storage.table.Table table) {
            this.table = table;
        }

        public io.locusdb.core.storage.table.Table table() {
            return table;
        }

        /** The row count storage knows, for the join order (the cost of a join grows with its inputs). */
        @Override
        public Statistic getStatistic() {
            return Statistics.of(table.version().parts().stream().mapToLong(p -> p.rows() + p.delta().visibleRows(Long.MAX_VALUE))
                    .sum(), List.of());
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory types) {
            RelDataTypeFactory.Builder row = types.builder();
            for (ColumnDef column : table.schema().columns()) {
                row.add(column.name(), types.createTypeWithNullability(sqlType(types, column.type()),
                        column.nullable()));
            }
            return row.build();
        }

        static RelDataType sqlType(RelDataTypeFactory types, ColumnType type) {
            return switch (type.kind()) {
                case BOOLEAN -> types.createSqlType(SqlTypeName.BOOLEAN);
                case INTEGER -> types.createSqlType(SqlTypeName.INTEGER);
                case BIGINT -> types.createSqlType(SqlTypeName.BIGINT);
                case DOUBLE -> types.createSqlType(SqlTypeName.DOUBLE);
                case DECIMAL -> types.createSqlType(SqlTypeName.DECIMAL, type.precision(), type.scale());
                case DATE -> types.createSqlType(SqlTypeName.DATE);
                case TIMESTAMP -> types.createSqlType(SqlTypeName.TIMESTAMP, 6);
                case TIMESTAMP_TZ -> types.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6);
                case VARCHAR -> type.length() > 0 ? types.createSqlType(SqlTypeName.VARCHAR, type.length())
                        : types.createSqlType(SqlTypeName.VARCHAR);
                case CHAR -> types.createSqlType(SqlTypeName.CHAR, Math.max(1, type.length()));
                case INTERVAL_DAY_TIME -> types.createSqlIntervalType(new SqlIntervalQualifier(TimeUnit.DAY,
                        TimeUnit.SECOND, SqlParserPos.ZERO));
                case INTERVAL_YEAR_MONTH -> types.createSqlIntervalType(new SqlIntervalQualifier(TimeUnit.YEAR,
                        TimeUnit.MONTH, SqlParserPos.ZERO));
            };
        }
    }
}
