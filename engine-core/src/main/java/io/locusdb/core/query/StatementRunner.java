package io.locusdb.core.query;

import io.locusdb.core.durable.DurableStore;
import io.locusdb.core.durable.LogRecord;
import io.locusdb.core.placer.PlacementActions;
import io.locusdb.core.placer.PlacerEvent;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.type.PhysicalText;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.BatchSource;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.sql.Statement;
import io.locusdb.core.sql.StatementParser;
import io.locusdb.core.sql.SystemTable;
import io.locusdb.core.storage.load.DelimitedFileLoader;
import io.locusdb.core.storage.load.DelimitedFormat;
import io.locusdb.core.storage.load.LoadException;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.placement.TableRewrite;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.ColumnDefault;
import io.locusdb.core.storage.table.CommitHook;
import io.locusdb.core.storage.table.IndexDefinition;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.KeyViolationException;
import io.locusdb.core.storage.table.NotNullViolationException;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Replacement;
import io.locusdb.core.storage.table.RowsChangedException;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TableGroup;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.table.ViewDefinition;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Intervals;
import io.locusdb.core.query.expr.SessionTimeZone;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.ZonedTimestamps;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.storage.type.ValueParser;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * DDL, INSERT ... VALUES, LOAD TPCH and COPY ... FROM: parsed by {@link StatementParser}, run against the catalog.
 * Parts of new tables are placed round-robin over the nodes. Every failure leaves the catalog as it was.
 */
final class StatementRunner {
    private final Catalog catalog;
    private final int loadThreads;

    private final PlacementActions placement;
    private final DurableStore store;

    private final Function<String, QueryResult> queries;

    /**
     * @param store   where changes are logged, null when the database lives in memory only
     * @param queries runs a query (INSERT ... SELECT, and the rows an UPDATE or DELETE reads)
     */
    StatementRunner(Catalog catalog, int loadThreads, PlacementActions placement, DurableStore store,
                    Function<String, QueryResult> queries) {
        this.queries = queries;
        this.placement = placement;
        this.store = store;
        this.catalog = catalog;
        this.loadThreads = loadThreads;
    }

    /** The statement's plan, or null when it is a query (for Calcite). */
    PreparedStatementPlan prepare(String sql) {
        Statement statement = StatementParser.parse(sql);
        if (statement == null) {
            return null;
        }
        Statement written = statement instanceof Statement.Returning r ? r.statement() : statement;
        int parameterCount = written instanceof Statement.Insert i ? i.parameterCount() : 0;
        List<ResultColumn> returned = statement instanceof Statement.Returning r ? returningColumns(r) : List.of();
        return new PreparedStatementPlan() {
            @Override
            public int parameterCount() {
                return parameterCount;
            }

            @Override
            public List<ResultColumn> columns() {
                return returned;
            }

            @Override
            public QueryResult execute(Object[] parameters) {
                if (parameters.length != parameterCount) {
                    throw new LocusSqlException(SqlState.INVALID_PARAMETER, parameterCount == 0
                            ? "this statement takes no parameters" : "the statement has " + parameterCount
                            + " parameter(s), " + parameters.length + " given");
                }
                if (statement instanceof Statement.Returning r) {
                    return returning(new Statement.Returning(parameterCount == 0 ? r.statement()
                            : bind((Statement.Insert) r.statement(), parameters), r.table(), r.alias(), r.list()));
                }
                return QueryResult.updateCount(run(parameterCount == 0 ? statement
                        : bind((Statement.Insert) statement, parameters)));
            }
        };
    }

    /** Rows a statement under RETURNING inserted, updated (their new values) or deleted, in the table's layout. */
    private static final ScopedValue<List<Object[]>> AFFECTED = ScopedValue.newInstance();
    /** Rows per query that evaluates a RETURNING list: the rows travel as a VALUES list. */
    private static final int RETURNING_CHUNK = 1_000;

    private static void affected(List<Object[]> rows) {
        if (AFFECTED.isBound()) {
            AFFECTED.get().addAll(rows);
        }
    }

    /**
     * Runs the statement, then its RETURNING list over the rows it changed: the rows, as typed literals, are the
     * VALUES of a query that names them as the table (or its alias), {@value #RETURNING_CHUNK} rows per query, the
     * next query run when the client has read the previous one's rows.
     */
    private QueryResult returning(Statement.Returning r) {
        List<Object[]> rows = new ArrayList<>();
        ScopedValue.where(AFFECTED, rows).call(() -> run(r.statement()));
        Schema schema = table(r.table()).schema();
        List<ResultColumn> columns = returningColumns(r);
        BatchSource source = new BatchSource() {
            private int next;
            private QueryResult current;

            @Override
            public ResultBatch next() {
                while (true) {
                    if (current != null) {
                        ResultBatch batch = current.nextBatch();
                        if (batch != null) {
                            return batch;
                        }
                        current.close();
                        current = null;
                    }
                    if (next >= rows.size()) {
                        return null;
                    }
                    List<Object[]> chunk = rows.subList(next, Math.min(rows.size(), next + RETURNING_CHUNK));
                    next += chunk.size();
                    current = queries.apply(returningQuery(r, schema, chunk));
                }
            }

            @Override
            public void close() {
                if (current != null) {
                    current.close();
                }
                next = rows.size();
            }
        };
        return QueryResult.rows(columns, source);
    }

    /** The RETURNING list's columns: its query over none of the table's rows. */
    private List<ResultColumn> returningColumns(Statement.Returning r) {
        try (QueryResult empty = queries.apply(returningQuery(r, table(r.table()).schema(), List.of()))) {
            return empty.columns();
        }
    }

    private String returningQuery(Statement.Returning r, Schema schema, List<Object[]> rows) {
        String name = quoted(r.alias() != null ? r.alias() : r.table());
        // The list may end in a line comment: FROM goes on a line of its own.
        StringBuilder sql = new StringBuilder("SELECT ").append(r.list()).append("\nFROM ");
        if (rows.isEmpty()) {
            return sql.append("(SELECT * FROM ").append(quoted(table(r.table()).name())).append(" WHERE FALSE) AS ")
                    .append(name).toString();
        }
        sql.append("(VALUES ");
        for (int i = 0; i < rows.size(); i++) {
            sql.append(i == 0 ? "(" : ", (");
            Object[] row = rows.get(i);
            for (int c = 0; c < row.length; c++) {
                sql.append(c == 0 ? "" : ", ").append(PhysicalText.literal(schema.column(c).type(), row[c]));
            }
            sql.append(')');
        }
        sql.append(") AS ").append(name).append(" (");
        for (int c = 0; c < schema.size(); c++) {
            sql.append(c == 0 ? "" : ", ").append(quoted(schema.column(c).name()));
        }
        return sql.append(')').toString();
    }

    private long run(Statement statement) {
        try {
            return switch (statement) {
                case Statement.CreateTable c -> logged(() -> createTable(c), created -> {
                    if (created == null) {
                        return List.of();
                    }
                    List<LogRecord> records = new ArrayList<>();
                    records.add(new LogRecord.CreateTable(created.name(), created.schema(), created.spec(),
                            created.group(), created.version().rangeBounds()));
                    if (!created.defaults().isEmpty()) {
                        records.add(new LogRecord.ColumnDefaults(created.name(), created.defaults()));
                    }
                    for (IndexDefinition index : created.indexes()) {
                        records.add(new LogRecord.CreateIndex(index));
                    }
                    return records;
                });
                case Statement.CreateIndex i -> logged(() -> createIndex(i),
                        index -> index == null ? List.of() : List.of(new LogRecord.CreateIndex(index)));
                case Statement.DropIndex d -> logged(() -> dropIndexes(d),
                        names -> names.stream().<LogRecord>map(LogRecord.DropIndex::new).toList());
                case Statement.CreateGroup g -> logged(() -> {
                    if (catalog.findGroup(g.name()).isPresent()) {
                        throw new LocusSqlException(SqlState.DUPLICATE_TABLE, "table group '" + g.name()
                                + "' already exists");
                    }
                    return catalog.createGroup(g.name()).name();
                }, name -> List.of(new LogRecord.CreateGroup(name)));
                case Statement.DropTable d -> logged(() -> {
                    Table table = catalog.find(d.name()).orElse(null);
                    if (table == null) {
                        if (d.ifExists()) {
                            return null;
                        }
                        throw new LocusSqlException(SqlState.UNDEFINED_TABLE, "table '" + d.name()
                                + "' does not exist");
                    }
                    catalog.drop(d.name());
                    return table.name();
                }, name -> name == null ? List.of() : List.of(new LogRecord.DropTable(name)));
                case Statement.CreateView v -> logged(() -> createView(v),
                        view -> List.of(new LogRecord.CreateView(view)));
                case Statement.DropView d -> logged(() -> {
                    ViewDefinition view = catalog.findView(d.name()).orElse(null);
                    if (view == null) {
                        if (d.ifExists()) {
                            return null;
                        }
                        throw new LocusSqlException(SqlState.UNDEFINED_TABLE, "view '" + d.name()
                                + "' does not exist");
                    }
                    catalog.dropView(view.name());
                    return view.name();
                }, name -> name == null ? List.of() : List.of(new LogRecord.DropView(name)));
                case Statement.DropGroup g -> logged(() -> {
                    String name = catalog.group(g.name()).name();
                    catalog.dropGroup(g.name());
                    return name;
                }, name -> List.of(new LogRecord.DropGroup(name)));
                case Statement.Insert i -> insert(i);
                case Statement.InsertSelect i -> insertSelect(i);
                case Statement.CreateTableAs c -> createTableAs(c);
                case Statement.Delete d -> replace(d.table(), d.alias(), null, List.of(), d.condition(), d.with());
                case Statement.Truncate t -> truncate(t);
                case Statement.Update u -> u.from() == null
                        ? replace(u.table(), u.alias(), u.columns(), u.expressions(), u.condition(), u.with())
                        : updateFrom(u);
                case Statement.AlterPlacement a -> alterPlacement(a);
                case Statement.AlterTable a -> alterTable(a);
                case Statement.LoadTpch l -> loadTpch(l);
                case Statement.CopyFrom c -> copy(c);
                case Statement.Returning r -> run(r.statement());
            };
        } catch (LoadException e) {
            throw new LocusSqlException(SqlState.INVALID_CAST, e.getMessage(), 0, 0, e);
        } catch (RowsChangedException e) {
            throw new LocusSqlException(SqlState.INVALID_STATE, e.getMessage(), 0, 0, e);
        } catch (KeyViolationException e) {
            throw new LocusSqlException(SqlState.UNIQUE_VIOLATION, e.getMessage(), 0, 0, e);
        } catch (NotNullViolationException e) {
            throw new LocusSqlException(SqlState.NOT_NULL_VIOLATION, e.getMessage(), 0, 0, e);
        } catch (IllegalArgumentException e) {
            throw new LocusSqlException(SqlState.SEMANTIC_ERROR, e.getMessage(), 0, 0, e);
        }
    }

    /**
     * Runs a catalog change and, with a data directory, logs its records (none for a change that changed nothing)
     * before the statement is acknowledged. The statement's result is 0 rows.
     */
    /**
     * A view: its query planned now, against the tables and views as they are, for its columns; then the view is
     * put in place and read once, so that a definition that cannot be planned (one that reads itself through OR
     * REPLACE) is refused and the previous one kept.
     */
    private ViewDefinition createView(Statement.CreateView v) {
        if (catalog.find(v.name()).isPresent()) {
            throw new LocusSqlException(SqlState.DUPLICATE_TABLE, "a table named '" + v.name() + "' already exists");
        }
        ViewDefinition previous = catalog.findView(v.name()).orElse(null);
        if (previous != null && !v.orReplace()) {
            throw new LocusSqlException(SqlState.DUPLICATE_TABLE, "view '" + v.name() + "' already exists");
        }
        List<ResultColumn> columns;
        try (QueryResult probe = queries.apply("SELECT * FROM (" + v.query() + ") AS locus_view LIMIT 0")) {
            columns = probe.columns();
        }
        if (!v.columns().isEmpty() && v.columns().size() != columns.size()) {
            throw new LocusSqlException(SqlState.SEMANTIC_ERROR, "view '" + v.name() + "' names " + v.columns().size()
                    + " column(s), its query has " + columns.size());
        }
        List<ColumnDef> defs = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < columns.size(); i++) {
            String name = v.columns().isEmpty() ? columns.get(i).name() : v.columns().get(i);
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                throw new LocusSqlException(SqlState.SEMANTIC_ERROR, "view '" + v.name() + "' has two columns named '"
                        + name + "': name them with AS or a column list");
            }
            defs.add(ColumnDef.of(name, columns.get(i).type()));
        }
        ViewDefinition view = new ViewDefinition(previous == null ? v.name() : previous.name(), v.query(),
                new Schema(defs));
        catalog.createView(view, true);
        try (QueryResult check = queries.apply("SELECT * FROM " + quoted(view.name()) + " LIMIT 0")) {
            check.columns();
        } catch (RuntimeException e) {
            if (previous == null) {
                catalog.dropView(view.name());
            } else {
                catalog.createView(previous, true);
            }
            throw e;
        }
        return view;
    }

    private static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    private <T> long logged(Supplier<T> change, Function<T, List<LogRecord>> records) {
        if (store == null) {
            change.get();
        } else {
            store.change(change, records);
        }
        return 0;
    }

    /**
     * Puts a bulk load's tables in place. Bulk loads are not logged row by row: with a data directory the change
     * happens at a checkpoint's cut and the statement is acknowledged once that checkpoint is on disk.
     */
    private void putInPlace(Runnable change) {
        if (store == null) {
            change.run();
        } else {
            store.checkpointWith(change);
        }
    }

    private long loadTpch(Statement.LoadTpch l) {
        List<Table> tables = new TpchLoader(catalog.memory(), loadThreads).generateAll(catalog, l.scaleFactor(),
                l.parts(), l.slice(), l.slices(), new InitialPlacement.RoundRobin(), LoadProgress.NONE);
        try {
            putInPlace(() -> {
                for (Table t : tables) {
                    if (catalog.find(t.name()).isPresent()) {
                        throw new IllegalArgumentException("table '" + t.name() + "' already exists");
                    }
                }
                TpchLoader.registerAll(catalog, tables);
            });
        } catch (RuntimeException e) {
            for (Table t : tables) {
                if (catalog.find(t.name()).orElse(null) != t) {
                    t.version().parts().forEach(TablePart::release);
                }
            }
            throw e;
        }
        return tables.stream().mapToLong(t -> t.version().parts().stream().mapToLong(p -> p.rows()).sum()).sum();
    }

    /** The new table, or null when IF NOT EXISTS found one. */
    private Table createTable(Statement.CreateTable c) {
        checkNotReserved(c.name());
        if (catalog.find(c.name()).isPresent()) {
            if (c.ifNotExists()) {
                return null;
            }
            throw new LocusSqlException(SqlState.DUPLICATE_TABLE, "table '" + c.name() + "' already exists");
        }
        if (c.group() != null && catalog.findGroup(c.group()).isEmpty()) {
            throw new LocusSqlException(SqlState.UNDEFINED_TABLE, "table group '" + c.group() + "' does not exist"
                    + " (CREATE TABLE GROUP " + c.group() + " first)");
        }
        Schema columnsOnly = new Schema(c.columns());
        Schema schema = c.primaryKey().isEmpty() ? columnsOnly
                : columnsOnly.withPrimaryKey(c.primaryKey().stream().map(columnsOnly::indexOf).toList());
        List<ColumnDefault> defaults = ColumnDefaults.resolveAll(c.defaults(), schema.columns(),
                (value, column) -> convert(value, column, 1));
        Table table = catalog.createTable(c.name(), schema, c.spec(), new InitialPlacement.RoundRobin(), c.group(),
                rangeBounds(c, schema));
        table.defaults(defaults);
        try {
            for (Statement.UniqueConstraint u : c.unique()) {
                List<String> columns = u.columns().stream().map(n -> schema.column(schema.indexOf(n)).name())
                        .toList();
                boolean coversKey = schema.isKeyed() && schema.primaryKeyNames().equals(columns);
                boolean repeated = table.indexes().stream().anyMatch(x -> x.unique() && x.columns().equals(columns));
                if (u.name() == null && (coversKey || repeated)) {
                    // The same key twice constrains nothing more; PostgreSQL keeps one index too.
                    continue;
                }
                String name = u.name() != null ? u.name() : freeIndexName(table.name(), columns, "key");
                if (catalog.findIndex(name).isPresent() || catalog.find(name).isPresent()) {
                    throw new LocusSqlException(SqlState.DUPLICATE_TABLE, "relation '" + name + "' already exists");
                }
                catalog.createIndex(IndexDefinition.ascending(name, table.name(), columns, true));
            }
        } catch (RuntimeException | Error e) {
            catalog.drop(table.name());
            throw e;
        }
        return table;
    }

    /** The new index, or null when IF NOT EXISTS found one of that name. */
    private IndexDefinition createIndex(Statement.CreateIndex i) {
        Table table = catalog.find(i.table()).orElse(null);
        if (table == null) {
            if (catalog.findView(i.table()).isPresent()) {
                throw new LocusSqlException(SqlState.WRONG_OBJECT_TYPE, "'" + i.table() + "' is a view: only tables"
                        + " have indexes");
            }
            throw new LocusSqlException(SqlState.UNDEFINED_TABLE, "table '" + i.table() + "' does not exist");
        }
        Schema schema = table.schema();
        List<String> columns = new ArrayList<>();
        for (String column : i.columns()) {
            if (!schema.hasColumn(column)) {
                throw new LocusSqlException(SqlState.UNDEFINED_COLUMN, "column '" + column + "' does not exist in"
                        + " table " + table.name());
            }
            columns.add(schema.column(schema.indexOf(column)).name());
        }
        String name = i.name() != null ? i.name() : freeIndexName(table.name(), columns, "idx");
        if (catalog.findIndex(name).isPresent() || catalog.find(name).isPresent()
                || catalog.findView(name).isPresent()) {
            if (i.ifNotExists()) {
                return null;
            }
            throw new LocusSqlException(SqlState.DUPLICATE_TABLE, "relation '" + name + "' already exists");
        }
        return catalog.createIndex(new IndexDefinition(name, table.name(), columns, i.descending(), i.unique()));
    }

    /** Drops the named indexes (all or none) and returns their names as stored; IF EXISTS skips missing ones. */
    private List<String> dropIndexes(Statement.DropIndex d) {
        List<String> names = new ArrayList<>();
        for (String name : d.names()) {
            IndexDefinition index = catalog.findIndex(name).orElse(null);
            if (index == null) {
                if (d.ifExists()) {
                    continue;
                }
                throw new LocusSqlException(SqlState.UNDEFINED_OBJECT, "index '" + name + "' does not exist");
            }
            names.add(index.name());
        }
        for (String name : names) {
            catalog.dropIndex(name);
        }
        return names;
    }

    /**
     * The name PostgreSQL gives an index the statement did not name: {@code table_col1_col2_suffix}, with a number
     * after it when that name is taken.
     */
    private String freeIndexName(String table, List<String> columns, String suffix) {
        String base = table + "_" + String.join("_", columns) + "_" + suffix;
        String name = base;
        for (int n = 1; catalog.findIndex(name).isPresent() || catalog.find(name).isPresent()
                || catalog.findView(name).isPresent(); n++) {
            name = base + n;
        }
        return name;
    }

    /**
     * The physical keys of a RANGE table's bounds. A new table has no rows to choose bounds from, so more than one
     * RANGE part needs them in the statement.
     */
    private static List<Long> rangeBounds(Statement.CreateTable c, Schema schema) {
        if (!(c.spec() instanceof PartitionSpec.Range range)) {
            return List.of();
        }
        if (c.rangeBounds().isEmpty() && range.parts() > 1) {
            throw new LocusSqlException(SqlState.SYNTAX_ERROR, "RANGE partitioning of a new table needs its bounds:"
                    + " PARTITION BY RANGE(" + range.column() + ") BOUNDS (v1, ..., v" + (range.parts() - 1)
                    + "), the lowest key of every part but the first");
        }
        ColumnDef column = schema.column(schema.indexOf(range.column()));
        if (column.type().physical() != TypeKind.Physical.LONG) {
            throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "RANGE partitioning needs an integer,"
                    + " decimal or date column; " + column.name() + " is " + column.type());
        }
        List<Long> bounds = new ArrayList<>();
        for (Object literal : c.rangeBounds()) {
            long bound;
            try {
                bound = (Long) convert(literal, column, 0);
            } catch (LocusSqlException e) {
                throw new LocusSqlException(e.state(), "RANGE bound " + literal + ": " + e.getMessage());
            }
            if (!bounds.isEmpty() && bound <= bounds.getLast()) {
                throw new LocusSqlException(SqlState.INVALID_PARAMETER, "RANGE bounds must ascend strictly: "
                        + literal + " does not come after the bound before it");
            }
            bounds.add(bound);
        }
        return bounds;
    }

    private static void checkNotReserved(String name) {
        if (SystemTable.isReservedName(name)) {
            throw new LocusSqlException(SqlState.RESERVED_NAME, "table names starting with '"
                    + SystemTable.RESERVED_PREFIX + "' are reserved for system tables: " + name);
        }
    }

    /** ALTER TABLE ... MOVE / PARTITION INTO / MERGE PARTS through the placer's own actions (they become events). */
    private long alterPlacement(Statement.AlterPlacement a) {
        int nodes = catalog.memory().topology().nodeCount();
        if (a.node() >= nodes) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "node " + a.node() + " does not exist (nodes 0.."
                    + (nodes - 1) + ")");
        }
        List<Table> tables;
        if (a.group()) {
            TableGroup group = catalog.findGroup(a.name()).orElseThrow(() -> new LocusSqlException(
                    SqlState.UNDEFINED_TABLE, "table group '" + a.name() + "' does not exist"));
            tables = group.tables();
            if (tables.isEmpty()) {
                return 0;
            }
        } else {
            tables = List.of(catalog.find(a.name()).orElseThrow(() -> new LocusSqlException(
                    SqlState.UNDEFINED_TABLE, "table '" + a.name() + "' does not exist")));
        }
        int parts = tables.getFirst().version().parts().size();
        String why = "ALTER " + (a.group() ? "TABLE GROUP " : "TABLE ") + a.name();
        switch (a.action()) {
            case MOVE -> {
                if (a.count() >= parts) {
                    throw new LocusSqlException(SqlState.INVALID_PARAMETER, "part " + a.count() + " does not exist ("
                            + a.name() + " has parts 0.." + (parts - 1) + ")");
                }
                placement.move(a.name(), a.group(), a.count(), a.node(), PlacerEvent.OPERATOR, why);
            }
            case PARTITION -> {
                int target = a.count();
                if (target < parts || Integer.bitCount(target / parts) != 1 || target % parts != 0) {
                    throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, a.name() + " has " + parts
                            + " parts; parts are split in halves, so PARTITION INTO takes " + parts
                            + " times a power of two (" + 2 * parts + ", " + 4 * parts + ", ...)");
                }
                if (target > parts) {
                    placement.partition(a.name(), a.group(), Integer.numberOfTrailingZeros(target / parts), -1, -1,
                            PlacerEvent.OPERATOR, why);
                }
            }
            case MERGE -> {
                int node = a.node() >= 0 ? a.node()
                        : tables.getFirst().version().parts().getFirst().placement().homeNode();
                placement.merge(a.name(), a.group(), node, PlacerEvent.OPERATOR, why);
            }
        }
        // DDL: no rows affected (EXPLAIN shows where the parts are now).
        return 0;
    }

    /** The INSERT with its {@code ?}s replaced by the values bound to them. */
    private static Statement.Insert bind(Statement.Insert insert, Object[] parameters) {
        List<List<Object>> rows = new ArrayList<>(insert.rows().size());
        for (List<Object> row : insert.rows()) {
            List<Object> bound = new ArrayList<>(row.size());
            for (Object v : row) {
                bound.add(v instanceof Statement.Parameter p ? parameters[p.index()] : v);
            }
            rows.add(bound);
        }
        return new Statement.Insert(insert.table(), insert.columns(), rows, 0, insert.onConflict());
    }

    private Table table(String name) {
        return catalog.find(name).orElseThrow(() -> new LocusSqlException(SqlState.UNDEFINED_TABLE, "table '"
                + name + "' does not exist"));
    }

    /** Schema positions of the named columns (all columns in order when none are named). */
    private static int[] targetColumns(Table table, List<String> columns) {
        Schema schema = table.schema();
        int[] target;
        if (columns.isEmpty()) {
            target = new int[schema.size()];
            Arrays.setAll(target, i -> i);
            return target;
        }
        target = new int[columns.size()];
        for (int i = 0; i < target.length; i++) {
            if (!schema.hasColumn(columns.get(i))) {
                throw new LocusSqlException(SqlState.UNDEFINED_COLUMN, "column '" + columns.get(i)
                        + "' does not exist in table '" + table.name() + "'");
            }
            target[i] = schema.indexOf(columns.get(i));
            for (int j = 0; j < i; j++) {
                if (target[j] == target[i]) {
                    throw new LocusSqlException(SqlState.SEMANTIC_ERROR, "column '" + columns.get(i)
                            + "' is named twice");
                }
            }
        }
        return target;
    }

    /**
     * CREATE TABLE ... AS query: runs the query, creates a table of its columns (all nullable, no key, text as
     * VARCHAR: a string literal is CHAR(n) to standard SQL but text to PostgreSQL and DuckDB) and inserts its rows:
     * two commits, the empty table and then its rows. A failed insert drops the table again.
     */
    private long createTableAs(Statement.CreateTableAs c) {
        checkNotReserved(c.name());
        if (catalog.find(c.name()).isPresent()) {
            if (c.ifNotExists()) {
                return 0;
            }
            throw new LocusSqlException(SqlState.DUPLICATE_TABLE, "table '" + c.name() + "' already exists");
        }
        List<ResultColumn> columns;
        List<List<Object>> rows;
        // WITH NO DATA needs the columns only: the query under LIMIT 0 gives them without computing a row.
        try (QueryResult result = queries.apply(c.withData() ? c.query()
                : "SELECT * FROM (" + c.query() + ") AS without_data LIMIT 0")) {
            columns = result.columns();
            rows = c.withData() ? result.toList() : List.of();
        }
        if (c.columnNames().size() > columns.size()) {
            throw new LocusSqlException(SqlState.SEMANTIC_ERROR, "CREATE TABLE " + c.name() + " names "
                    + c.columnNames().size() + " columns, the query returns " + columns.size());
        }
        List<ColumnDef> defs = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < columns.size(); i++) {
            String name = i < c.columnNames().size() ? c.columnNames().get(i) : columns.get(i).name();
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                throw new LocusSqlException(SqlState.DUPLICATE_COLUMN, "column '" + name + "' specified more than"
                        + " once (name the query's columns apart with AS)");
            }
            ColumnType type = columns.get(i).type();
            if (Intervals.isInterval(type.kind())) {
                throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "column '" + name + "' would hold "
                        + type + " values, which tables do not store yet");
            }
            defs.add(ColumnDef.of(name, type.kind() == TypeKind.CHAR ? ColumnType.VARCHAR : type));
        }
        run(new Statement.CreateTable(c.name(), defs, PartitionSpec.none(), null, false, List.of(), List.of(),
                List.of()));
        if (rows.isEmpty()) {
            return 0;
        }
        Table table = table(c.name());
        try {
            return write(table, targetColumns(table, List.of()), rows, null);
        } catch (RuntimeException e) {
            try {
                run(new Statement.DropTable(c.name(), true));
            } catch (RuntimeException dropFailed) {
                e.addSuppressed(dropFailed);
            }
            throw e;
        }
    }

    private long insertSelect(Statement.InsertSelect insert) {
        Table table = table(insert.table());
        int[] target = targetColumns(table, insert.columns());
        List<List<Object>> rows;
        try (QueryResult result = queries.apply(insert.query())) {
            if (result.columns().size() != target.length) {
                throw new LocusSqlException(SqlState.SEMANTIC_ERROR, "the query returns " + result.columns().size()
                        + " columns for " + target.length + " target columns");
            }
            rows = result.toList();
        }
        return write(table, target, rows, insert.onConflict());
    }

    /**
     * DELETE ({@code columns} null) or UPDATE: reads the rows the condition selects (and, for UPDATE, their new
     * values) with a query while no other writer can change the table, then removes them and adds their updated
     * copies as one commit.
     */
    private long replace(String tableName, String alias, List<String> columns, List<String> expressions,
                         String condition, String with) {
        Table table = table(tableName);
        Schema schema = table.schema();
        int[] set = columns == null ? new int[0] : targetColumns(table, columns);
        StringBuilder sql = new StringBuilder(with == null ? "" : with + " ").append("SELECT *");
        for (String e : expressions) {
            sql.append(", (").append(e).append(')');
        }
        sql.append(" FROM \"").append(table.name().replace("\"", "\"\"")).append('"');
        if (alias != null) {
            sql.append(" AS \"").append(alias.replace("\"", "\"\"")).append('"');
        }
        if (condition != null) {
            sql.append(" WHERE ").append(condition);
        }
        Supplier<Replacement> compute = () -> {
            List<Object[]> removed = new ArrayList<>();
            List<Object[]> added = new ArrayList<>();
            try (QueryResult result = queries.apply(sql.toString())) {
                int n = 0;
                for (List<Object> values : result.toList()) {
                    n++;
                    Object[] old = storedRow(values, schema, n);
                    removed.add(old);
                    if (columns != null) {
                        added.add(updatedRow(old, values, schema.size(), schema, set, n));
                    }
                }
            }
            return new Replacement(removed, added);
        };
        Replacement done = commit(table, compute);
        affected(columns == null ? done.removed() : done.added());
        return done.removed().size();
    }

    /** The first {@code schema.size()} values of a query's row (n, counted from 1) as the table's stored row. */
    private static Object[] storedRow(List<Object> values, Schema schema, int n) {
        Object[] row = new Object[schema.size()];
        for (int c = 0; c < row.length; c++) {
            row[c] = convert(values.get(c), schema.column(c), n);
        }
        return row;
    }

    /** {@code old} with the columns {@code set} given the query's values from {@code first} on. */
    private static Object[] updatedRow(Object[] old, List<Object> values, int first, Schema schema, int[] set, int n) {
        Object[] updated = old.clone();
        for (int i = 0; i < set.length; i++) {
            updated[set[i]] = convert(values.get(first + i), schema.column(set[i]), n);
        }
        return updated;
    }

    /**
     * Computes a replacement while no other writer changes the table and applies it as one commit: logged first
     * when the database has a data directory.
     */
    private Replacement commit(Table table, Supplier<Replacement> compute) {
        if (store != null) {
            return store.replace(table, compute);
        }
        table.maintenanceLock().lock();
        try {
            Replacement done = compute.get();
            table.replace(done.removed(), done.added(), CommitHook.NONE);
            return done;
        } finally {
            table.maintenanceLock().unlock();
        }
    }

    /**
     * UPDATE ... FROM: the table's rows numbered (so that equal rows stay apart), joined with the FROM list under the
     * condition; a row that joins several times is updated from the first of them.
     */
    private long updateFrom(Statement.Update u) {
        Table table = table(u.table());
        Schema schema = table.schema();
        int[] set = targetColumns(table, u.columns());
        String name = quoted(u.alias() != null ? u.alias() : table.name());
        StringBuilder sql = new StringBuilder(u.with() == null ? "" : u.with() + " ").append("SELECT ").append(name)
                .append(".*");
        for (String e : u.expressions()) {
            sql.append(", (").append(e).append(')');
        }
        sql.append(" FROM (SELECT *, row_number() OVER () AS ").append(ROW_ID).append(" FROM ")
                .append(quoted(table.name())).append(") AS ").append(name).append(", ").append(u.from());
        if (u.condition() != null) {
            sql.append(" WHERE ").append(u.condition());
        }
        Supplier<Replacement> compute = () -> {
            List<Object[]> removed = new ArrayList<>();
            List<Object[]> added = new ArrayList<>();
            Set<Object> seen = new HashSet<>();
            try (QueryResult result = queries.apply(sql.toString())) {
                int n = 0;
                for (List<Object> values : result.toList()) {
                    n++;
                    if (!seen.add(values.get(schema.size()))) {
                        continue;
                    }
                    Object[] old = storedRow(values, schema, n);
                    removed.add(old);
                    added.add(updatedRow(old, values, schema.size() + 1, schema, set, n));
                }
            }
            return new Replacement(removed, added);
        };
        Replacement done = commit(table, compute);
        affected(done.added());
        return done.removed().size();
    }

    /** The column UPDATE ... FROM numbers the table's rows in: a name no table column takes (reserved prefix). */
    private static final String ROW_ID = "\"locus_update_row\"";

    /**
     * ALTER TABLE ... ADD/DROP/RENAME COLUMN, RENAME TO: the table is rewritten under its new definition (every part
     * on its node, visible rows copied) while no writer can commit to it, and the new table takes its place, its
     * group, indexes and name. Like a bulk load it is not logged row by row: with a data directory the swap happens
     * at a checkpoint's cut, and the statement returns once that checkpoint is on disk. Memory for both copies is
     * needed while it runs; queries keep reading the old one until they finish.
     */
    private long alterTable(Statement.AlterTable a) {
        Table table = catalog.find(a.name()).orElse(null);
        if (table == null) {
            if (a.ifExists()) {
                return 0;
            }
            throw new LocusSqlException(SqlState.UNDEFINED_TABLE, "table '" + a.name() + "' does not exist");
        }
        for (Statement.AlterAction action : a.actions()) {
            if (action instanceof Statement.RenameTable rename) {
                checkNotReserved(rename.to());
            }
        }
        putInPlace(() -> {
            table.maintenanceLock().lock();
            try {
                if (table.isDropped()) {
                    throw new LocusSqlException(SqlState.UNDEFINED_TABLE, "table '" + a.name() + "' was dropped");
                }
                TableAlteration alteration = TableAlteration.of(table, a.actions(), catalog,
                        (value, column) -> convert(value, column, 1));
                if (alteration.changed()) {
                    Table rewritten = TableRewrite.rewrite(table, alteration.name(), alteration.schema(),
                            alteration.spec(), alteration.sources(), alteration.fill(), catalog.memory(),
                            loadThreads);
                    rewritten.defaults(alteration.defaults());
                    swap(table, rewritten, alteration.indexes());
                }
            } finally {
                table.maintenanceLock().unlock();
            }
        });
        return 0;
    }

    /** Puts {@code rewritten} where {@code old} was: in its group, under its (new) name, with its indexes. */
    private void swap(Table old, Table rewritten, List<IndexDefinition> indexes) {
        try {
            catalog.replace(old, rewritten, indexes);
        } catch (RuntimeException e) {
            rewritten.version().parts().forEach(TablePart::release);
            throw e;
        }
    }

    /**
     * Every table is checked to exist before any is emptied; each is then emptied as one commit (a DELETE of all its
     * rows, logged as such).
     */
    private long truncate(Statement.Truncate truncate) {
        for (String name : truncate.tables()) {
            table(name);
        }
        long removed = 0;
        for (String name : truncate.tables()) {
            removed += replace(name, null, null, List.of(), null, null);
        }
        return removed;
    }

    private long insert(Statement.Insert insert) {
        Table table = table(insert.table());
        return write(table, targetColumns(table, insert.columns()), insert.rows(), insert.onConflict());
    }

    /**
     * Converts the values of each row to the target columns' types and inserts them as one commit; with ON CONFLICT,
     * as an upsert ({@link Upsert}).
     */
    private long write(Table table, int[] target, List<List<Object>> values, Statement.OnConflict onConflict) {
        Schema schema = table.schema();
        List<Object[]> rows = new ArrayList<>(values.size());
        // Columns the statement leaves out take their defaults, the time ones the statement's one instant.
        boolean[] named = new boolean[schema.size()];
        for (int t : target) {
            named[t] = true;
        }
        Instant now = Instant.now();
        for (int r = 0; r < values.size(); r++) {
            List<Object> given = values.get(r);
            if (given.size() != target.length) {
                throw new LocusSqlException(SqlState.SEMANTIC_ERROR, "row " + (r + 1) + " has " + given.size()
                        + " values for " + target.length + " columns");
            }
            Object[] row = new Object[schema.size()];
            for (int i = 0; i < target.length; i++) {
                ColumnDef def = schema.column(target[i]);
                row[target[i]] = convert(given.get(i), def, r + 1);
            }
            ColumnDefaults.fill(table, named, row, now);
            rows.add(row);
        }
        if (onConflict != null) {
            Upsert upsert = new Upsert(table, onConflict, rows, queries);
            List<Object[]> added = commit(table, upsert::compute).added();
            affected(added);
            return added.size();
        }
        if (store == null) {
            table.insert(rows);
        } else {
            store.insert(table, rows);
        }
        affected(rows);
        return rows.size();
    }

    /** A literal of the statement as the column's physical value. */
    static Object convert(Object v, ColumnDef def, int row) {
        if (v == null) {
            return null;
        }
        ColumnType type = def.type();
        try {
            return switch (type.kind()) {
                case BOOLEAN -> v instanceof Boolean b ? (Object) (b ? 1L : 0L)
                        : (Object) (ValueParser.parseBoolean(text(v)) ? 1L : 0L);
                case INTEGER, BIGINT -> {
                    if (v instanceof Long l) {
                        if (type.kind() == TypeKind.INTEGER
                                && (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE)) {
                            throw new IllegalArgumentException(l + " does not fit INTEGER");
                        }
                        yield l;
                    }
                    yield ValueParser.parseInteger(text(v), type);
                }
                case DECIMAL -> {
                    if (v instanceof Double d) {
                        v = BigDecimal.valueOf(d);
                    }
                    BigDecimal d = v instanceof Long l ? BigDecimal.valueOf(l) : v instanceof BigDecimal b ? b
                            : new BigDecimal(text(v).strip());
                    BigDecimal scaled = d.setScale(type.scale(), RoundingMode.HALF_UP);
                    if (scaled.precision() > type.precision() && scaled.signum() != 0
                            && scaled.abs().compareTo(BigDecimal.ONE.movePointRight(type.precision()
                            - type.scale())) >= 0) {
                        throw new IllegalArgumentException(d + " does not fit " + type);
                    }
                    yield scaled.unscaledValue().longValueExact();
                }
                case DOUBLE -> v instanceof Number n ? n.doubleValue() : ValueParser.parseDouble(text(v));
                case DATE -> v instanceof LocalDateTime t ? t.toLocalDate().toEpochDay()
                        : v instanceof LocalDate d ? d.toEpochDay()
                        : v instanceof Statement.TimestampValue ts ? Timestamps.dateOf(Timestamps.parse(ts.text()))
                        : ValueParser.parseDate(text(v));
                case TIMESTAMP -> v instanceof LocalDateTime t ? Timestamps.checked(Timestamps.of(t), t)
                        : v instanceof LocalDate d ? Timestamps.ofDate(d.toEpochDay())
                        : v instanceof OffsetDateTime t ? ZonedTimestamps.toLocal(ZonedTimestamps.of(t),
                                SessionTimeZone.get())
                        : Timestamps.parse(text(v));
                case TIMESTAMP_TZ -> v instanceof OffsetDateTime t ? Timestamps.checked(ZonedTimestamps.of(t), t)
                        : v instanceof LocalDateTime t ? ZonedTimestamps.fromLocal(Timestamps.checked(Timestamps.of(t),
                                t), SessionTimeZone.get())
                        : v instanceof LocalDate d ? ZonedTimestamps.fromLocal(Timestamps.ofDate(d.toEpochDay()),
                                SessionTimeZone.get())
                        : ZonedTimestamps.parse(text(v), SessionTimeZone.get());
                case VARCHAR, CHAR -> {
                    if (!(v instanceof String s)) {
                        throw new IllegalArgumentException("expected a string, got " + text(v));
                    }
                    yield ValueParser.checkString(s, type);
                }
                // No table holds an interval column: CREATE TABLE refuses the type.
                case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> throw new IllegalArgumentException(
                        "INTERVAL columns are not stored");
            };
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new LocusSqlException(SqlState.INVALID_CAST, "row " + row + ", column " + def.name() + " ("
                    + type + "): " + e.getMessage());
        }
    }

    private static String text(Object v) {
        return v instanceof Statement.DateValue d ? d.text()
                : v instanceof Statement.TimestampValue t ? t.text() : v.toString();
    }

    private long copy(Statement.CopyFrom copy) {
        Table existing = catalog.find(copy.table()).orElseThrow(() -> new LocusSqlException(
                SqlState.UNDEFINED_TABLE, "table '" + copy.table() + "' does not exist (CREATE TABLE it first)"));
        try (TableSnapshot snapshot = existing.snapshot()) {
            if (snapshot.visibleRows() > 0) {
                throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "COPY into a table that already has"
                        + " rows is not supported yet: COPY into an empty table");
            }
        }
        Path file = Path.of(copy.file());
        if (!Files.isReadable(file)) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "cannot read file '" + copy.file() + "'");
        }
        DelimitedFormat format = copy.format() == null ? DelimitedFormat.forFile(copy.file())
                : copy.format().equals("tbl") ? DelimitedFormat.tbl() : DelimitedFormat.csv(true);
        if (copy.header() != null) {
            format = new DelimitedFormat(format.delimiter(), format.quote(), copy.header(),
                    format.trailingDelimiter(), format.emptyIsNull());
        }
        String name = existing.name();
        String group = existing.group();
        long commit = existing.committed();
        Table loaded = new DelimitedFileLoader(catalog.memory(), loadThreads).load(file, name,
                existing.schema(), existing.spec(), format, new InitialPlacement.RoundRobin(), LoadProgress.NONE);
        loaded.defaults(existing.defaults());
        try {
            loaded.checkKeysUnique();
        } catch (RuntimeException e) {
            loaded.version().parts().forEach(TablePart::release);
            throw e;
        }
        // The empty table is replaced by the loaded one under the same name (and group), unless rows arrived
        // meanwhile: then the load is thrown away rather than those rows.
        try {
            putInPlace(() -> {
                synchronized (catalog) {
                    if (existing.committed() != commit || existing.isDropped()
                            || catalog.find(name).orElse(null) != existing) {
                        throw new LocusSqlException(SqlState.INVALID_STATE, "table '" + name + "' changed while"
                                + " COPY was loading; nothing was loaded");
                    }
                    catalog.drop(name);
                    catalog.register(loaded);
                    if (group != null) {
                        catalog.group(group).add(loaded);
                    }
                }
            });
        } catch (RuntimeException e) {
            if (catalog.find(name).orElse(null) != loaded) {
                loaded.version().parts().forEach(TablePart::release);
            }
            throw e;
        }
        return loaded.version().parts().stream().mapToLong(p -> p.rows()).sum();
    }
}
