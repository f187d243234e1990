package io.locusdb.core.storage.load;

import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.type.ColumnType;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchColumnType;
import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.List;

/**
 * The TPC-H schemas as LocusDB types: identifiers BIGINT, money and quantities DECIMAL(15,2) (exact, from the
 * generator's cents), dates DATE, text VARCHAR(n). Every TPC-H column is NOT NULL, and every table has the primary
 * key the benchmark's schema gives it.
 */
public final class TpchSchemas {
    private TpchSchemas() {
    }

    public static Schema schemaOf(TpchTable<?> table) {
        List<ColumnDef> columns = new ArrayList<>();
        for (TpchColumn<?> column : table.getColumns()) {
            columns.add(ColumnDef.notNull(column.getColumnName(), typeOf(column.getType())));
        }
        Schema schema = new Schema(columns);
        return schema.withPrimaryKey(primaryKey(table).stream().map(schema::indexOf).toList());
    }

    /** The primary key TPC-H's schema declares for the table (clause 1.4.2.2). */
    public static List<String> primaryKey(TpchTable<?> table) {
        return switch (table.getTableName()) {
            case "lineitem" -> List.of("l_orderkey", "l_linenumber");
            case "orders" -> List.of("o_orderkey");
            case "customer" -> List.of("c_custkey");
            case "part" -> List.of("p_partkey");
            case "partsupp" -> List.of("ps_partkey", "ps_suppkey");
            case "supplier" -> List.of("s_suppkey");
            case "nation" -> List.of("n_nationkey");
            case "region" -> List.of("r_regionkey");
            default -> List.of();
        };
    }

    static ColumnType typeOf(TpchColumnType type) {
        return switch (type.getBase()) {
            case IDENTIFIER -> ColumnType.BIGINT;
            case INTEGER -> ColumnType.INTEGER;
            case DATE -> ColumnType.DATE;
            case DOUBLE -> ColumnType.decimal(15, 2);
            case VARCHAR -> ColumnType.varchar(type.getPrecision().orElse(0L).intValue());
        };
    }

    /** The key each table is range-partitioned on: the generator emits it in ascending chunks. */
    public static String partitionKey(TpchTable<?> table) {
        return switch (table.getTableName()) {
            case "lineitem", "orders" -> table.getTableName().equals("orders") ? "o_orderkey" : "l_orderkey";
            case "customer" -> "c_custkey";
            case "part" -> "p_partkey";
            case "partsupp" -> "ps_partkey";
            case "supplier" -> "s_suppkey";
            default -> null;
        };
    }

    /** Table groups of co-partitioned TPC-H tables. */
    public static String groupOf(TpchTable<?> table) {
        return switch (table.getTableName()) {
            case "lineitem", "orders" -> "tpch_orders";
            case "part", "partsupp" -> "tpch_parts";
            default -> null;
        };
    }

    /** Approximate rows at a scale factor, for progress bars. */
    public static long expectedRows(TpchTable<?> table, double scaleFactor) {
        return switch (table.getTableName()) {
            case "lineitem" -> (long) (6_001_215 * scaleFactor);
            case "orders" -> (long) (1_500_000 * scaleFactor);
            case "partsupp" -> (long) (800_000 * scaleFactor);
            case "part" -> (long) (200_000 * scaleFactor);
            case "customer" -> (long) (150_000 * scaleFactor);
            case "supplier" -> (long) (10_000 * scaleFactor);
            case "nation" -> 25;
            case "region" -> 5;
            default -> 0;
        };
    }
}
