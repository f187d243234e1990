package io.locusdb.core.system;

import io.locusdb.core.placer.PlacerEvent;
import io.locusdb.core.placer.PlacerService;
import io.locusdb.core.placer.UtilizationTracker;
import io.locusdb.core.query.QueryLog;
import io.locusdb.core.sql.PlanningTime;
import io.locusdb.core.sql.SystemTable;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.SystemViews;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.natives.topology.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * The database's own state as tables, computed at each execution: {@code locus_tables}, {@code locus_parts} (where
 * each part's pages really are, from page-location queries, and its recent utilization), {@code locus_columns},
 * {@code locus_nodes} (recent thread and memory-throughput utilization per node, table memory by kind),
 * {@code locus_memory} (where the process's memory is: tables per node, the JVM's areas, resident memory),
 * {@code locus_placer_events} and {@code locus_query_log} (the last statements, with where their time went). Names
 * starting with {@code locus_} are reserved for them.
 */
public final class SystemTables {
    private final Catalog catalog;
    private final PlacerService placer;
    private final SystemViews views;
    private final QueryLog queryLog;

    public SystemTables(Catalog catalog, PlacerService placer) {
        this(catalog, placer, new QueryLog(0));
    }

    public SystemTables(Catalog catalog, PlacerService placer, QueryLog queryLog) {
        this.catalog = catalog;
        this.placer = placer;
        this.views = new SystemViews(catalog);
        this.queryLog = queryLog;
    }

    public List<SystemTable> all() {
        return List.of(tables(), parts(), columns(), nodes(), memory(), placerEvents(), queryLog());
    }

    private SystemTable queryLog() {
        return new SystemTable("locus_query_log", List.of(bigint("seq"),
                ColumnDef.notNull("start_time", ColumnType.VARCHAR), bigint("epoch_ms"),
                ColumnDef.notNull("statement", ColumnType.VARCHAR), ColumnDef.notNull("plan", ColumnType.VARCHAR),
                real("parse_ms"), real("validate_ms"), real("convert_ms"), real("rewrite_ms"), real("planning_ms"),
                real("physical_ms"), real("run_ms"), real("total_ms"), bigint("row_count"), text("error")),
                () -> queryLog.entries().stream().map(SystemTables::queryRow).toList());
    }

    private static Object[] queryRow(QueryLog.Entry e) {
        PlanningTime p = e.planning();
        return new Object[] {e.sequence(), e.started().toString(), e.started().toEpochMilli(), e.sql(),
                e.source().label(), p.parseNanos() / 1e6, p.validateNanos() / 1e6, p.convertNanos() / 1e6,
                p.rewriteNanos() / 1e6, p.totalNanos() / 1e6, e.physicalNanos() / 1e6, e.runNanos() / 1e6,
                (p.totalNanos() + e.physicalNanos() + e.runNanos()) / 1e6, e.rows(), e.error()};
    }

    private static ColumnDef text(String name) {
        return ColumnDef.of(name, ColumnType.VARCHAR);
    }

    private static ColumnDef bigint(String name) {
        return ColumnDef.notNull(name, ColumnType.BIGINT);
    }

    private static ColumnDef integer(String name) {
        return ColumnDef.notNull(name, ColumnType.INTEGER);
    }

    private static ColumnDef real(String name) {
        return ColumnDef.notNull(name, ColumnType.DOUBLE);
    }

    private SystemTable tables() {
        return new SystemTable("locus_tables", List.of(ColumnDef.notNull("table_name", ColumnType.VARCHAR),
                text("table_group"), text("partitioning"), integer("parts"), bigint("row_count"), bigint("bytes"),
                bigint("division")),
                () -> views.tables().stream().map(t -> new Object[] {t.name(), t.group(), t.partitioning(),
                        t.parts(), t.rows(), t.bytes(), t.division()}).toList());
    }

    private SystemTable parts() {
        int nodes = topology().nodeCount();
        List<ColumnDef> columns = new ArrayList<>(List.of(ColumnDef.notNull("table_name", ColumnType.VARCHAR),
                integer("part"), integer("node"), text("memory_policy"), bigint("row_count"), bigint("bytes"),
                bigint("mapped_bytes"), bigint("pages")));
        for (int n = 0; n < nodes; n++) {
            columns.add(bigint("pages_on_node_" + n));
        }
        // Bounds of an integer partitioning key in the part: what a client that routes keys to parts (the Trino
        // connector) needs to know that tables' parts line up across servers.
        columns.add(ColumnDef.of("key_min", ColumnType.BIGINT));
        columns.add(ColumnDef.of("key_max", ColumnType.BIGINT));
        columns.add(ColumnDef.of("key_nulls", ColumnType.BIGINT));
        columns.add(text("placement_unit"));
        columns.add(real("recent_threads"));
        columns.add(real("recent_memory_bytes_per_s"));
        return new SystemTable("locus_parts", columns, () -> {
            UtilizationTracker tracker = placer.tracker();
            List<Object[]> rows = new ArrayList<>();
            for (SystemViews.PartRow p : views.parts()) {
                Table table = catalog.find(p.table()).orElse(null);
                String owner = table == null ? null : UtilizationTracker.ownerKey(table);
                int parts = table == null ? 0 : table.version().parts().size();
                UtilizationTracker.PartUsage usage = owner == null || p.part() >= parts ? null
                        : tracker.usage(owner, p.part(), parts);
                Object[] row = new Object[columns.size()];
                int c = 0;
                row[c++] = p.table();
                row[c++] = p.part();
                row[c++] = p.homeNode();
                row[c++] = p.memoryPolicy();
                row[c++] = p.rows();
                row[c++] = p.bytes();
                row[c++] = p.mappedBytes();
                long total = 0;
                for (long pages : p.pagesByNode()) {
                    total += pages;
                }
                row[c++] = total;
                for (int n = 0; n < nodes; n++) {
                    row[c++] = n < p.pagesByNode().length ? p.pagesByNode()[n] : 0L;
                }
                row[c++] = p.keyMin();
                row[c++] = p.keyMax();
                row[c++] = p.keyNulls();
                row[c++] = owner;
                row[c++] = usage == null ? 0.0 : usage.threads().recentAverage();
                row[c] = usage == null ? 0.0 : usage.memory().recentAverage();
                rows.add(row);
            }
            return rows;
        });
    }

    private SystemTable columns() {
        return new SystemTable("locus_columns", List.of(ColumnDef.notNull("table_name", ColumnType.VARCHAR),
                integer("part"), ColumnDef.notNull("column_name", ColumnType.VARCHAR),
                ColumnDef.notNull("column_type", ColumnType.VARCHAR), integer("distinct_values"), integer("code_bits"),
                text("packing"), bigint("dictionary_bytes"), bigint("code_bytes")),
                () -> views.columns().stream().map(c -> new Object[] {c.table(), c.part(), c.column(), c.type(),
                        c.distinct(), c.codeBits(), c.packing(), c.dictionaryBytes(), c.codeBytes()}).toList());
    }

    private SystemTable nodes() {
        return new SystemTable("locus_nodes", List.of(integer("node"), integer("cpus"), real("recent_threads"),
                real("threads_last_minute"), real("recent_memory_bytes_per_s"), real("memory_bytes_per_s_last_minute"),
                bigint("memory_in_use_bytes"), integer("parts"), bigint("code_bytes"), bigint("dictionary_bytes"),
                bigint("key_index_bytes"), bigint("delta_bytes_estimate"), bigint("decoded_values_bytes_estimate")),
                () -> {
            UtilizationTracker tracker = placer.tracker();
            List<NodeMemoryUse.Use> use = NodeMemoryUse.of(catalog);
            MemoryAccount account = MemoryAccount.now(catalog);
            List<Object[]> rows = new ArrayList<>();
            for (int n = 0; n < topology().nodeCount(); n++) {
                rows.add(new Object[] {n, topology().nodes().get(n).cpus().size(),
                        tracker.nodeThreads(n).recentAverage(), tracker.nodeThreads(n).average(60_000_000),
                        tracker.nodeMemory(n).recentAverage(), tracker.nodeMemory(n).average(60_000_000),
                        use.get(n).mappedBytes(), use.get(n).parts(), account.total(MemoryAccount.CODES, n),
                        account.total(MemoryAccount.DICTIONARIES, n), account.total(MemoryAccount.KEY_INDEXES, n),
                        account.total(MemoryAccount.DELTA_ROWS, n), account.total(MemoryAccount.DECODED_VALUES, n)});
            }
            return rows;
        });
    }

    private SystemTable memory() {
        return new SystemTable("locus_memory", List.of(ColumnDef.notNull("area", ColumnType.VARCHAR),
                ColumnDef.of("node", ColumnType.INTEGER), bigint("bytes"),
                ColumnDef.notNull("counted_as", ColumnType.VARCHAR), text("detail")),
                () -> MemoryAccount.now(catalog).lines().stream().map(l -> new Object[] {l.area(),
                        l.node() < 0 ? null : l.node(), l.bytes(), l.measure(), l.detail()}).toList());
    }

    private SystemTable placerEvents() {
        return new SystemTable("locus_placer_events", List.of(bigint("seq"),
                ColumnDef.notNull("event_time", ColumnType.VARCHAR), bigint("epoch_ms"),
                ColumnDef.notNull("action", ColumnType.VARCHAR), ColumnDef.notNull("source", ColumnType.VARCHAR),
                ColumnDef.notNull("owner", ColumnType.VARCHAR), ColumnDef.notNull("is_group", ColumnType.BOOLEAN),
                integer("part"), integer("parts_before"), integer("parts_after"), integer("from_node"),
                integer("to_node"), bigint("pages"), real("millis"), text("reason"), text("moved_by"), text("error")),
                () -> placer.events().events().stream().map(SystemTables::eventRow).toList());
    }

    private static Object[] eventRow(PlacerEvent e) {
        return new Object[] {e.sequence(), e.time().toString(), e.time().toEpochMilli(), e.action().label(),
                e.source(), e.owner(), e.group(), e.part(), e.partsBefore(), e.partsAfter(), e.fromNode(),
                e.toNode(), e.pages(), e.millis(), e.reason(), e.method(), e.error()};
    }

    private Topology topology() {
        return catalog.memory().topology();
    }
}
