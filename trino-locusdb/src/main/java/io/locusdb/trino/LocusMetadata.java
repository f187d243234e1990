package io.locusdb.trino;

import io.trino.spi.TrinoException;
import io.trino.spi.StandardErrorCode;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.LimitApplicationResult;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SortItem;
import io.trino.spi.connector.SortOrder;
import io.trino.spi.connector.TopNApplicationResult;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.DoubleType;
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
 * by the page source, which asks only for the columns Trino reads. Aggregations are not pushed down: a pushed-down
 * aggregation is not merged across splits by Trino, so it would be wrong for tables of more than one split.
 */
final class LocusMetadata implements ConnectorMetadata {
    static final String SCHEMA = "default";
    private final LocusCatalog catalog;

    LocusMetadata(LocusCatalog catalog) {
        this.catalog = catalog;
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
        return catalog.tables().contains(table) ? LocusTableHandle.of(table) : null;
    }

    @Override
    public ConnectorTableMetadata getTableMetadata(ConnectorSession session, ConnectorTableHandle handle) {
        String table = ((LocusTableHandle) handle).table();
        List<ColumnMetadata> columns = new ArrayList<>();
        for (LocusColumnHandle c : columns(table)) {
            columns.add(c.metadata());
        }
        return new ConnectorTableMetadata(new SchemaTableName(SCHEMA, table), columns);
    }

    @Override
    public List<SchemaTableName> listTables(ConnectorSession session, Optional<String> schema) {
        if (schema.isPresent() && !schema.get().equals(SCHEMA)) {
            return List.of();
        }
        return catalog.tables().stream().map(t -> new SchemaTableName(SCHEMA, t)).toList();
    }

    @Override
    public Map<String, ColumnHandle> getColumnHandles(ConnectorSession session, ConnectorTableHandle handle) {
        Map<String, ColumnHandle> handles = new LinkedHashMap<>();
        for (LocusColumnHandle c : columns(((LocusTableHandle) handle).table())) {
            handles.put(c.name(), c);
        }
        return handles;
    }

    private List<LocusColumnHandle> columns(String table) {
        List<LocusColumnHandle> columns = catalog.columns(table);
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
        if (handle.limit().isPresent()) {
            // A filter below a limit would change which rows the limit keeps.
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
        if (combined.equals(handle.constraint())) {
            return Optional.empty();
        }
        return Optional.of(new ConstraintApplicationResult<>(handle.withConstraint(combined), remaining,
                constraint.getExpression(), false));
    }

    @Override
    public Optional<LimitApplicationResult<ConnectorTableHandle>> applyLimit(ConnectorSession session,
                                                                             ConnectorTableHandle table, long limit) {
        LocusTableHandle handle = (LocusTableHandle) table;
        if (handle.limit().isPresent() && handle.limit().getAsLong() <= limit) {
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
        if (handle.limit().isPresent()) {
            return Optional.empty();
        }
        List<LocusTableHandle.SortKey> keys = new ArrayList<>();
        for (SortItem item : sortItems) {
            LocusColumnHandle column = (LocusColumnHandle) assignments.get(item.getName());
            if (column == null || column.type() == DoubleType.DOUBLE
                    || !PredicateSql.pushable(Domain.all(column.type()))) {
                // An order LocusDB might not sort as Trino does (CHAR's padding, NaN among doubles) stays with Trino.
                return Optional.empty();
            }
            SortOrder order = item.getSortOrder();
            keys.add(new LocusTableHandle.SortKey(column.name(), order.isAscending(), order.isNullsFirst()));
        }
        return Optional.of(new TopNApplicationResult<>(handle.withLimit(topNCount, keys), false, false));
    }
}
