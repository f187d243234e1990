package io.locusdb.trino;

import io.trino.spi.TrinoException;
import io.trino.spi.StandardErrorCode;
import io.trino.spi.connector.AggregateFunction;
import io.trino.spi.connector.AggregationApplicationResult;
import io.trino.spi.connector.Assignment;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorPartitioningHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTablePartitioning;
import io.trino.spi.connector.ConnectorTableProperties;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.LimitApplicationResult;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SortItem;
import io.trino.spi.connector.SortOrder;
import io.trino.spi.connector.TopNApplicationResult;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.expression.Variable;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The catalog's one schema, {@code default}, holding every table of every server; and what Trino may push down:
 * filters LocusDB evaluates exactly (see {@link PredicateSql}), a LIMIT and a top N per split. Columns are pruned
 * by the page source, which asks only for the columns Trino reads. An aggregation is pushed down only where no group
 * can span two splits (Trino does not merge a pushed-down aggregation across splits: trinodb/trino 14582, 22768):
 * the table is on one server and in one part there, or partitioned there by a column it is grouped by, or has a
 * layout across servers ({@link TableLayouts}) by a column it is grouped by. That layout is also the table's
 * partitioning for Trino, so co-partitioned tables join, and tables group by their key, without an exchange.
 */
final class LocusMetadata implements ConnectorMetadata {
    static final String SCHEMA = "default";
    /** Layouts found while planning recent queries: Trino asks for a table's properties many times per query. */
    private static final int LAYOUTS_KEPT = 256;
    private final LocusCatalog catalog;
    private final TableLayouts tableLayouts;
    private final boolean pushdown;
    private final boolean partitioning;
    private final Map<String, Optional<KeyedLayout>> layouts = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Optional<KeyedLayout>> eldest) {
            return size() > LAYOUTS_KEPT;
        }
    };

    LocusMetadata(LocusCatalog catalog, boolean pushdown, boolean partitioning) {
        this.catalog = catalog;
        this.tableLayouts = new TableLayouts(catalog);
        this.pushdown = pushdown;
        this.partitioning = partitioning;
    }

    /** A table's layout with the handle of the column it is partitioned by. */
    private record KeyedLayout(LocusPartitioningHandle handle, LocusColumnHandle key) {
    }

    /** The layout of {@code table}, found once per query: every call of one query sees the same. */
    private Optional<KeyedLayout> layout(ConnectorSession session, String table) {
        String cacheKey = session.getQueryId() + "/" + table;
        synchronized (layouts) {
            Optional<KeyedLayout> known = layouts.get(cacheKey);
            if (known != null) {
                return known;
            }
        }
        Optional<KeyedLayout> layout = tableLayouts.of(catalog.state(session.getQueryId()), table)
                .flatMap(l -> columns(session, table).stream()
                .filter(c -> c.name().equals(l.keyColumn())).findFirst()
                .map(c -> new KeyedLayout(l.handle(), c)));
        synchronized (layouts) {
            layouts.put(cacheKey, layout);
        }
        return layout;
    }

    /**
     * The table's partitioning across servers and parts where every key provably lives in one of them (see
     * {@link TableLayouts}), once {@link #applyPartitioning} asked for it; nothing for a table whose pushed-down
     * aggregation no longer outputs the key.
     */
    @Override
    public ConnectorTableProperties getTableProperties(ConnectorSession session, ConnectorTableHandle table) {
        LocusTableHandle handle = (LocusTableHandle) table;
        if (!handle.partitioned()) {
            return new ConnectorTableProperties();
        }
        Optional<KeyedLayout> layout = layout(session, handle.table());
        if (layout.isEmpty() || handle.aggregated() && !handle.groupBy().contains(layout.get().key().name())) {
            return new ConnectorTableProperties();
        }
        return new ConnectorTableProperties(TupleDomain.all(), Optional.of(new ConnectorTablePartitioning(
                layout.get().handle(), List.of(layout.get().key()))), Optional.empty(), List.of());
    }

    /**
     * Reads the table bucket by bucket where Trino has a use for it: a join or grouping above wants its rows
     * partitioned on {@code columns}, the table's layout is by one of them, and, when Trino names the partitioning
     * it wants (the other side's), it is this table's. Elsewhere (a scan whose rows are exchanged anyway) the table
     * stays a plain split source: reading bucket by bucket fixes each split to one Trino task, which costs
     * parallelism and buys nothing there.
     */
    @Override
    public Optional<ConnectorTableHandle> applyPartitioning(ConnectorSession session, ConnectorTableHandle table,
                                                           Optional<ConnectorPartitioningHandle> wanted,
                                                           List<ColumnHandle> columns) {
        LocusTableHandle handle = (LocusTableHandle) table;
        if (!partitioning) {
            return Optional.empty();
        }
        Optional<KeyedLayout> layout = layout(session, handle.table());
        if (layout.isEmpty() || !columns.contains(layout.get().key())
                || wanted.isPresent() && !wanted.get().equals(layout.get().handle())
                || handle.aggregated() && !handle.groupBy().contains(layout.get().key().name())) {
            return Optional.empty();
        }
        return Optional.of(handle.partitioned() ? handle : handle.withPartitioning());
    }

    @Override
    public List<String> listSchemaNames(ConnectorSession session) {
        return List.of(SCHEMA);
    }

    @Override
    public ConnectorTableHandle getTableHandle(ConnectorSession session, SchemaTableName name,
                                               Optional<ConnectorTableVersion> startVersion,
                                               Optional<ConnectorTableVersion> endVersion) {
        if (startVersion.isPresent() || endVersion.isPresent()) {
            throw new TrinoException(StandardErrorCode.NOT_SUPPORTED, "LocusDB tables have no versions to read");
        }
        if (!name.getSchemaName().equals(SCHEMA)) {
            return null;
        }
        String table = name.getTableName().toLowerCase(Locale.ROOT);
        return catalog.state(session.getQueryId()).tables().contains(table) ? LocusTableHandle.of(table) : null;
    }

    @Override
    public ConnectorTableMetadata getTableMetadata(ConnectorSession session, ConnectorTableHandle handle) {
        String table = ((LocusTableHandle) handle).table();
        List<ColumnMetadata> columns = new ArrayList<>();
        for (LocusColumnHandle c : columns(session, table)) {
            columns.add(c.metadata());
        }
        return new ConnectorTableMetadata(new SchemaTableName(SCHEMA, table), columns);
    }

    @Override
    public List<SchemaTableName> listTables(ConnectorSession session, Optional<String> schema) {
        if (schema.isPresent() && !schema.get().equals(SCHEMA)) {
            return List.of();
        }
        return catalog.state(session.getQueryId()).tables().stream().map(t -> new SchemaTableName(SCHEMA, t))
                .toList();
    }

    @Override
    public Map<String, ColumnHandle> getColumnHandles(ConnectorSession session, ConnectorTableHandle handle) {
        Map<String, ColumnHandle> handles = new LinkedHashMap<>();
        for (LocusColumnHandle c : columns(session, ((LocusTableHandle) handle).table())) {
            handles.put(c.name(), c);
        }
        return handles;
    }

    private List<LocusColumnHandle> columns(ConnectorSession session, String table) {
        List<LocusColumnHandle> columns = catalog.state(session.getQueryId()).columns(table);
        if (columns == null) {
            throw new TrinoException(StandardErrorCode.TABLE_NOT_FOUND, "no LocusDB server of the catalog holds"
                    + " table " + table + " any more");
        }
        return columns;
    }

    @Override
    public ColumnMetadata getColumnMetadata(ConnectorSession session, ConnectorTableHandle table,
                                            ColumnHandle column) {
        return ((LocusColumnHandle) column).metadata();
    }

    @Override
    public Optional<ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(ConnectorSession session,
                                                                                   ConnectorTableHandle table,
                                                                                   Constraint constraint) {
        LocusTableHandle handle = (LocusTableHandle) table;
        if (!pushdown || handle.limit().isPresent() || handle.aggregated()) {
            // A filter below a limit or an aggregation would change which rows they keep.
            return Optional.empty();
        }
        TupleDomain<ColumnHandle> summary = constraint.getSummary();
        TupleDomain<ColumnHandle> pushed;
        TupleDomain<ColumnHandle> remaining;
        if (summary.isNone()) {
            pushed = TupleDomain.none();
            remaining = TupleDomain.all();
        } else {
            Map<ColumnHandle, Domain> take = new HashMap<>();
            Map<ColumnHandle, Domain> leave = new HashMap<>();
            for (Map.Entry<ColumnHandle, Domain> e : summary.getDomains().orElseThrow().entrySet()) {
                (PredicateSql.pushable(e.getValue()) ? take : leave).put(e.getKey(), e.getValue());
            }
            pushed = TupleDomain.withColumnDomains(take);
            remaining = TupleDomain.withColumnDomains(leave);
        }
        TupleDomain<ColumnHandle> combined = handle.constraint().intersect(pushed);
        List<String> filters = new ArrayList<>(handle.filters());
        List<ConnectorExpression> left = new ArrayList<>();
        for (ConnectorExpression conjunct : LikeSql.conjuncts(constraint.getExpression())) {
            String sql = LikeSql.of(conjunct, constraint.getAssignments());
            if (sql == null) {
                left.add(conjunct);
            } else if (!filters.contains(sql)) {
                filters.add(sql);
            }
        }
        if (combined.equals(handle.constraint()) && filters.equals(handle.filters())) {
            return Optional.empty();
        }
        return Optional.of(new ConstraintApplicationResult<>(handle.withConstraint(combined, filters), remaining,
                LikeSql.and(left), false));
    }

    @Override
    public Optional<LimitApplicationResult<ConnectorTableHandle>> applyLimit(ConnectorSession session,
                                                                             ConnectorTableHandle table, long limit) {
        LocusTableHandle handle = (LocusTableHandle) table;
        if (!pushdown || handle.aggregated() || handle.limit().isPresent() && handle.limit().getAsLong() <= limit) {
            return Optional.empty();
        }
        // Each split keeps at most this many rows; Trino still applies the limit to the splits together.
        return Optional.of(new LimitApplicationResult<>(handle.withLimit(limit, handle.topN()), false, false));
    }

    @Override
    public Optional<TopNApplicationResult<ConnectorTableHandle>> applyTopN(ConnectorSession session,
                                                                           ConnectorTableHandle table, long topNCount,
                                                                           List<SortItem> sortItems,
                                                                           Map<String, ColumnHandle> assignments) {
        LocusTableHandle handle = (LocusTableHandle) table;
        if (!pushdown || handle.limit().isPresent() || handle.aggregated()) {
            return Optional.empty();
        }
        List<LocusTableHandle.SortKey> keys = new ArrayList<>();
        for (SortItem item : sortItems) {
            LocusColumnHandle column = (LocusColumnHandle) assignments.get(item.getName());
            if (column == null || !PredicateSql.orderedAlike(column.type())) {
                return Optional.empty();
            }
            SortOrder order = item.getSortOrder();
            keys.add(new LocusTableHandle.SortKey(column.name(), order.isAscending(), order.isNullsFirst()));
        }
        return Optional.of(new TopNApplicationResult<>(handle.withLimit(topNCount, keys), false, false));
    }

    @Override
    public Optional<AggregationApplicationResult<ConnectorTableHandle>> applyAggregation(
            ConnectorSession session, ConnectorTableHandle table, List<AggregateFunction> aggregates,
            Map<String, ColumnHandle> assignments, List<List<ColumnHandle>> groupingSets) {
        LocusTableHandle handle = (LocusTableHandle) table;
        if (!pushdown || handle.aggregated() || handle.limit().isPresent() || groupingSets.size() != 1) {
            return Optional.empty();
        }
        List<String> keys = new ArrayList<>();
        for (ColumnHandle c : groupingSets.getFirst()) {
            keys.add(((LocusColumnHandle) c).name());
        }
        List<LocusTableHandle.Aggregate> calls = new ArrayList<>();
        List<ConnectorExpression> projections = new ArrayList<>();
        List<Assignment> outputs = new ArrayList<>();
        for (AggregateFunction f : aggregates) {
            String sql = aggregateSql(f, assignments);
            if (sql == null) {
                return Optional.empty();
            }
            String column = "_agg" + calls.size();
            calls.add(new LocusTableHandle.Aggregate(column, sql));
            LocusColumnHandle output = new LocusColumnHandle(column, f.getOutputType(), true);
            projections.add(new Variable(column, f.getOutputType()));
            outputs.add(new Assignment(column, output, f.getOutputType()));
        }
        if (keys.isEmpty() && calls.isEmpty() || !groupsStayInOneSplit(session, handle.table(), keys)) {
            return Optional.empty();
        }
        Map<ColumnHandle, ColumnHandle> grouping = new HashMap<>();
        for (ColumnHandle c : groupingSets.getFirst()) {
            grouping.put(c, c);
        }
        return Optional.of(new AggregationApplicationResult<>(handle.withAggregation(keys, calls), projections,
                outputs, grouping, false));
    }

    /**
     * LocusDB's SQL for an aggregate whose result has exactly Trino's type and value: COUNT, MIN and MAX of the
     * types filters are pushed for, SUM of integers; null for anything else (DISTINCT only under COUNT, no FILTER,
     * no ORDER BY).
     */
    private static String aggregateSql(AggregateFunction f, Map<String, ColumnHandle> assignments) {
        if (f.getFilter().isPresent() || !f.getSortItems().isEmpty()) {
            return null;
        }
        String name = f.getFunctionName();
        if (f.getArguments().isEmpty()) {
            return name.equals("count") && !f.isDistinct() ? "count(*)" : null;
        }
        if (f.getArguments().size() != 1 || !(f.getArguments().getFirst() instanceof Variable v)
                || !(assignments.get(v.getName()) instanceof LocusColumnHandle column)) {
            return null;
        }
        Type type = column.type();
        boolean ordered = PredicateSql.orderedAlike(type);
        // Equal in both engines: the ordered types, and VARCHAR (equality needs no order).
        boolean equalAlike = ordered || type instanceof VarcharType;
        String argument = PredicateSql.quote(column.name());
        return switch (name) {
            case "count" -> equalAlike || !f.isDistinct()
                    ? "count(" + (f.isDistinct() ? "DISTINCT " : "") + argument + ")" : null;
            case "min", "max" -> ordered && !f.isDistinct() && f.getOutputType().equals(type)
                    ? name + "(" + argument + ")" : null;
            case "sum" -> !f.isDistinct() && (type == BigintType.BIGINT || type == IntegerType.INTEGER)
                    && f.getOutputType() == BigintType.BIGINT ? "sum(" + argument + ")" : null;
            default -> null;
        };
    }

    /** Whether every group of {@code keys} lies in one split: see the class comment. */
    private boolean groupsStayInOneSplit(ConnectorSession session, String table, List<String> keys) {
        Optional<KeyedLayout> layout = layout(session, table);
        if (layout.isPresent() && keys.contains(layout.get().key().name())) {
            return true;
        }
        LocusCatalog.State state = catalog.state(session.getQueryId());
        List<LocusCatalog.Part> parts = state.parts(table);
        if (parts.stream().map(LocusCatalog.Part::server).distinct().count() != 1) {
            return false;
        }
        if (parts.size() == 1) {
            return true;
        }
        String key = state.partitionKey(parts.getFirst().server(), table);
        return key != null && keys.contains(key);
    }
}
