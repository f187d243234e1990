package io.locusdb.core.storage.table;

import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.Dictionary;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.natives.memory.NodeSegment;
import io.locusdb.natives.memory.PageLocations;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The catalog as rows, for the {@code system.*} views and the command line: tables, their parts with node and size,
 * and every column of every part with its encoding.
 */
public final class SystemViews {
    /** One row of system.tables. */
    public record TableRow(String name, String group, String partitioning, int parts, long rows, long bytes,
                           long division) {
    }

    /**
     * One row of system.parts; {@code pagesByNode} is where the part's pages really are (logical nodes);
     * {@code keyMin}/{@code keyMax} bound the part's values of an integer partitioning key (null without one, or
     * with no key in the part) and {@code keyNulls} counts its NULL keys (null without one).
     */
    public record PartRow(String table, int part, int homeNode, String memoryPolicy, long rows, long bytes,
                          long mappedBytes, long[] pagesByNode, Long keyMin, Long keyMax, Long keyNulls) {
    }

    /** One row of system.columns. */
    public record ColumnRow(String table, int part, String column, String type, int distinct, int codeBits,
                            String packing, long dictionaryBytes, long codeBytes) {
    }

    private final Catalog catalog;

    public SystemViews(Catalog catalog) {
        this.catalog = catalog;
    }

    public List<TableRow> tables() {
        List<TableRow> rows = new ArrayList<>();
        for (Table table : catalog.tables()) {
            try (TableSnapshot s = table.snapshot()) {
                rows.add(new TableRow(table.name(), table.group(), describe(s.version().spec()), s.parts().size(),
                        s.rows(), s.parts().stream().mapToLong(TablePart::byteSize).sum(), s.version().division()));
            }
        }
        return rows;
    }

    /** Parts with their page locations (one {@code move_pages} query per segment). */
    public List<PartRow> parts() {
        List<PartRow> rows = new ArrayList<>();
        int nodes = catalog.memory().topology().nodeCount();
        for (Table table : catalog.tables()) {
            try (TableSnapshot s = table.snapshot()) {
                int keyColumn = integerKey(table.schema(), s.version().spec());
                for (TablePart part : s.parts()) {
                    long[] pages = new long[nodes];
                    for (NodeSegment segment : part.memory().segments()) {
                        PageLocations where = catalog.memory().locate(segment.segment());
                        for (int n = 0; n < nodes; n++) {
                            pages[n] += where.known() ? where.pagesOnNode(n) : 0;
                        }
                    }
                    // On a fake topology virtual nodes share physical pages: count them once, on the home node.
                    if (catalog.memory().topology().isFake()) {
                        long total = java.util.Arrays.stream(pages).max().orElse(0);
                        java.util.Arrays.fill(pages, 0);
                        pages[part.homeNode()] = total;
                    }
                    long[] range = keyColumn < 0 ? null : keyRange(s, part, keyColumn);
                    rows.add(new PartRow(table.name(), part.index(), part.homeNode(),
                            part.placement().memoryPolicy().toString(), part.rows(), part.byteSize(),
                            part.memory().mappedBytes(), pages, range == null || range[2] == 0 ? null : range[0],
                            range == null || range[2] == 0 ? null : range[1], range == null ? null : range[3]));
                }
            }
        }
        return rows;
    }

    /** The partitioning key's column when it is INTEGER or BIGINT, else -1. */
    private static int integerKey(Schema schema, PartitionSpec spec) {
        if (spec.column() == null) {
            return -1;
        }
        int column = schema.indexOf(spec.column());
        TypeKind kind = schema.columns().get(column).type().kind();
        return kind == TypeKind.INTEGER || kind == TypeKind.BIGINT ? column : -1;
    }

    /**
     * {smallest key, largest key, whether there is any (1 or 0), NULL keys} of the part that {@code snapshot}
     * sees: the main dictionary's ends and NULL count, and every visible delta row. Deleted main rows are counted,
     * so the range may be wider than the live keys (and the NULLs more), never narrower.
     */
    private static long[] keyRange(TableSnapshot snapshot, TablePart part, int column) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long any = 0;
        long nulls = 0;
        if (part.rows() > 0) {
            Column main = part.column(column);
            Dictionary dictionary = main.dictionary();
            if (dictionary.size() > 0) {
                min = ((Number) dictionary.boxedValue(1)).longValue();
                max = ((Number) dictionary.boxedValue(dictionary.size())).longValue();
                any = 1;
            }
            nulls = main.nullCount();
        }
        int deltaRows = snapshot.deltaRows(part);
        for (int i = 0; i < deltaRows; i++) {
            if (part.delta().row(i)[column] instanceof Number key) {
                min = Math.min(min, key.longValue());
                max = Math.max(max, key.longValue());
                any = 1;
            } else {
                nulls++;
            }
        }
        return new long[] {min, max, any, nulls};
    }

    public List<ColumnRow> columns() {
        List<ColumnRow> rows = new ArrayList<>();
        for (Table table : catalog.tables()) {
            try (TableSnapshot s = table.snapshot()) {
                for (TablePart part : s.parts()) {
                    for (int c = 0; c < part.columns().size(); c++) {
                        Column column = part.column(c);
                        rows.add(new ColumnRow(table.name(), part.index(), table.schema().column(c).name(),
                                column.type().toString(), column.dictionary().size(),
                                column.codes().layout().codeBits(),
                                column.codes().layout().packing().name().toLowerCase(Locale.ROOT),
                                column.dictionary().byteSize(),
                                column.codes().byteSize()));
                    }
                }
            }
        }
        return rows;
    }

    static String describe(PartitionSpec spec) {
        return switch (spec) {
            case PartitionSpec.None n -> "NONE";
            case PartitionSpec.RoundRobin r -> "ROUND_ROBIN(" + r.parts() + ")";
            case PartitionSpec.Hash h -> "HASH(" + h.column() + ") PARTITIONS " + h.parts();
            case PartitionSpec.Range r -> "RANGE(" + r.column() + ") PARTITIONS " + r.parts();
        };
    }
}
