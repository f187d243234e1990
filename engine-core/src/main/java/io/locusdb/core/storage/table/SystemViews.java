package io.locusdb.core.storage.table;

import io.locusdb.core.storage.column.Column;
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

    /** One row of system.parts; {@code pagesByNode} is where the part's pages really are (logical nodes). */
    public record PartRow(String table, int part, int homeNode, String memoryPolicy, long rows, long bytes,
                          long mappedBytes, long[] pagesByNode) {
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
                    rows.add(new PartRow(table.name(), part.index(), part.homeNode(),
                            part.placement().memoryPolicy().toString(), part.rows(), part.byteSize(),
                            part.memory().mappedBytes(), pages));
                }
            }
        }
        return rows;
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
