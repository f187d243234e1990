package io.locusdb.core.sql;

import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.ViewDefinition;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Spool;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Uncollect;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.PruneEmptyRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.runtime.CalciteException;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlNameMatchers;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;
import org.apache.calcite.tools.RelBuilder;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * SQL text to a checked logical plan, through Apache Calcite: parse, validate against the catalog, convert to
 * relational algebra (decorrelated), and simplify with heuristic rules (constant folding, which also turns
 * {@code DATE '1998-12-01' - INTERVAL '90' DAY} into a literal, and merging of filters and projections). Constants
 * are folded by the caller's folder, so a folded expression means what it means at run time; types follow
 * {@link LocusTypeFactory} and the dialect {@link LocusConformance}. Errors
 * become {@link LocusSqlException}s with a SQLSTATE and the position in the text. Statements outside what the
 * physical planner executes are rejected here, naming the construct.
 *
 * <p>Names are case-insensitive, as users of TPC-H-style schemas expect ({@code LINEITEM} is {@code lineitem}).
 */
public final class SqlFrontEnd {
    private static final List<RelOptRule> SIMPLIFY_RULES = List.of(
            // What reads no rows (an always-empty catalog, WHERE false) is no rows, however it was to be computed.
            PruneEmptyRules.PROJECT_INSTANCE, PruneEmptyRules.FILTER_INSTANCE, PruneEmptyRules.SORT_INSTANCE,
            PruneEmptyRules.AGGREGATE_INSTANCE, PruneEmptyRules.JOIN_LEFT_INSTANCE,
            PruneEmptyRules.JOIN_RIGHT_INSTANCE, PruneEmptyRules.CORRELATE_LEFT_INSTANCE,
            PruneEmptyRules.CORRELATE_RIGHT_INSTANCE, PruneEmptyRules.UNION_INSTANCE,
            FilterConstantReduction.INSTANCE,
            ProjectConstantReduction.INSTANCE,
            CoreRules.FILTER_MERGE,
            CoreRules.PROJECT_MERGE,
            CoreRules.PROJECT_REMOVE,
            CoreRules.AGGREGATE_PROJECT_MERGE,
            // GROUPING SETS, ROLLUP and CUBE as a UNION ALL of plain aggregations.
            GroupingSetsToUnion.INSTANCE,
            // COUNT of several values or of a row as one-argument counts.
            MultiColumnCount.INSTANCE,
            // FILTER (WHERE ...) and the variances over a projection, as plain parallel aggregates.
            AggregateArgumentRewrite.INSTANCE,
            // COUNT(DISTINCT x) as two parallel aggregations, not a set of values per group.
            DistinctAggregateSplit.INSTANCE,
            // Set operations as UNION ALL (one pipeline per input) and aggregations.
            CoreRules.UNION_TO_DISTINCT,
            SetOpToAggregate.INTERSECT,
            SetOpToAggregate.EXCEPT,
            CoreRules.UNION_MERGE,
            // Join conditions out of WHERE (FROM a, b WHERE a.x = b.y), filters below joins, and expressions of
            // join keys (casts to a common type) into projections below, so that keys are columns.
            CoreRules.FILTER_INTO_JOIN,
            CoreRules.JOIN_CONDITION_PUSH,
            CoreRules.JOIN_PUSH_EXPRESSIONS,
            CoreRules.FILTER_PROJECT_TRANSPOSE,
            // Only the columns a join's consumers use are decoded below it.
            CoreRules.PROJECT_JOIN_TRANSPOSE);

    /**
     * What runs before the joins are ordered: the simplifications, without pushing projections below joins (the
     * pull-up before ordering takes every projection between inner joins back up, and pushing them down first only
     * to pull them up made planning quadratic in the joins; {@link #FINISH} pushes them down once the order is
     * chosen).
     */
    private static final HepProgram SIMPLIFY_BEFORE_ORDERING = new HepProgramBuilder()
            .addRuleCollection(SIMPLIFY_RULES.stream().filter(r -> r != CoreRules.PROJECT_JOIN_TRANSPOSE).toList())
            .build();

    /**
     * Once {@link JoinProjectionPullUp} has taken the projections between joins up above them: order the joins of
     * each multi-way join by cost ({@code joinOrder}, then Calcite's LoptOptimizeJoinRule over the MultiJoins it
     * left), not by the order of the text. The plan is then trimmed again (ordering pulled the projections up) and
     * simplified by {@link #FINISH}.
     */
    private static HepProgram orderJoins(List<RelOptRule> joinOrder) {
        HepProgramBuilder program = new HepProgramBuilder()
                // The pulled-up projections merged with those above them.
                .addRuleCollection(List.of(CoreRules.PROJECT_MERGE))
                .addMatchOrder(HepMatchOrder.BOTTOM_UP)
                .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN);
        for (RelOptRule rule : joinOrder) {
            program.addRuleInstance(rule);
        }
        return program.addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE).build();
    }

    /**
     * Subqueries in expressions (IN, EXISTS, scalar, ANY/ALL) out of the expressions: into joins with the subquery
     * where it is not correlated, into correlates where it is; the decorrelator then turns correlates into joins and
     * aggregations, so that no subquery runs once per outer row.
     */
    private static final HepProgram REMOVE_SUBQUERIES = new HepProgramBuilder()
            .addRuleCollection(List.of(CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
                    CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE, CoreRules.JOIN_SUB_QUERY_TO_CORRELATE))
            .build();

    /** Window functions out of projections into window nodes of their own, once the rest is simplified. */
    private static final HepProgram WINDOWS = new HepProgramBuilder()
            .addRuleInstance(CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW)
            .addRuleCollection(List.of(CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE))
            .build();

    private static final HepProgram FINISH = new HepProgramBuilder()
            .addMatchOrder(HepMatchOrder.DEPTH_FIRST)
            .addRuleCollection(SIMPLIFY_RULES)
            .build();

    private static final Pattern SHORT_EXPLAIN = Pattern.compile("\\s*explain\\s+(?!plan\\b)",
            Pattern.CASE_INSENSITIVE);
    /** What may follow EXPLAIN to have the statement run and measured: ANALYZE, or PostgreSQL's option list. */
    private static final Pattern ANALYZE = Pattern.compile("(analy[sz]e\\s+|\\(\\s*analy[sz]e(\\s+(true|on))?"
            + "\\s*\\)\\s*)", Pattern.CASE_INSENSITIVE);

    private static final SqlParser.Config PARSER = SqlParser.config()
            // Babel's grammar reserves only the words SQL cannot do without, so that names PostgreSQL and DuckDB
            // accept (value, year, ...) are names here too (TPC-H Q11 says "AS value").
            .withParserFactory(SqlBabelParserImpl.FACTORY)
            .withCaseSensitive(false)
            .withUnquotedCasing(Casing.UNCHANGED)
            .withQuotedCasing(Casing.UNCHANGED)
            .withConformance(LocusConformance.INSTANCE);

    private static final CalciteConnectionConfig CONNECTION = connectionConfig();

    private static final SqlToRelConverter.Config TO_REL = SqlToRelConverter.config()
            .withTrimUnusedFields(false)
            // Conversion builds the plan as validated; simplifying while building could make an aggregate's input
            // NOT NULL under a call typed nullable (Calcite asserts on that). The rules below simplify instead.
            .withRelBuilderConfigTransform(builder -> builder.withSimplify(false))
            // Long IN lists stay IN lists (a search), not a join with a VALUES subquery.
            .withInSubQueryThreshold(Integer.MAX_VALUE);

    /**
     * Names resolve in the database's own schema, then in {@code pg_catalog} (as in PostgreSQL, where it is always
     * searched), and qualified names from the root.
     */
    private CalciteCatalogReader catalogReader(JavaTypeFactory types) {
        List<List<String>> paths = List.of(CalciteSchema.from(schema).path(null), List.of(CATALOG_SCHEMA), List.of());
        return new CalciteCatalogReader(CalciteSchema.from(schema.getParentSchema()),
                SqlNameMatchers.withCaseSensitive(false), paths, types, CONNECTION) {
        };
    }

    /** The schema the catalog's tables and views are in. */
    static final String SCHEMA = "locus";
    static final String PUBLIC_SCHEMA = "public";
    /** Searched after the database's own schema for unqualified names, as PostgreSQL always does. */
    static final String CATALOG_SCHEMA = "pg_catalog";

    private final SchemaPlus schema;
    private final Catalog catalog;
    private final RexExecutor constantFolder;
    private final HepProgram orderJoins;

    /**
     * @param constantFolder evaluates constant expressions while planning; it must compute exactly what the
     *                       engine computes at run time, so that folding never changes an answer
     */
    public SqlFrontEnd(Catalog catalog, RexExecutor constantFolder) {
        this(catalog, constantFolder, List.of());
    }

    /** As above, with the database's system tables beside the catalog's. */
    public SqlFrontEnd(Catalog catalog, RexExecutor constantFolder, List<SystemTable> systemTables) {
        this(catalog, constantFolder, systemTables, List.of());
    }

    /**
     * As above; {@code joinOrder} are rules that order a {@code MultiJoin}'s joins from the engine's statistics,
     * tried before Calcite's own ordering (which takes what they leave).
     */
    public SqlFrontEnd(Catalog catalog, RexExecutor constantFolder, List<SystemTable> systemTables,
                       List<RelOptRule> joinOrder) {
        // Without caching, so tables created or dropped after this front end was built are seen.
        SchemaPlus root = CalciteSchema.createRootSchema(false, false).plus();
        List<SystemTable> own = systemTables.stream().filter(t -> t.schema() == null).toList();
        CatalogSchema tables = new CatalogSchema(catalog, own);
        this.schema = root.add(SCHEMA, tables);
        // Type names resolve from the root: PostgreSQL's names for the engine's types (x::text, CAST(x AS int8)).
        CatalogSchema.postgresTypes().forEach(root::add);
        // PostgreSQL clients name the user's tables public.t, and the catalogs pg_catalog.x / information_schema.x.
        root.add(PUBLIC_SCHEMA, tables);
        Map<String, List<SystemTable>> named = new LinkedHashMap<>();
        for (SystemTable t : systemTables) {
            if (t.schema() != null) {
                named.computeIfAbsent(t.schema(), k -> new ArrayList<>()).add(t);
            }
        }
        named.forEach((name, list) -> root.add(name, new SystemSchema(list)));
        this.catalog = catalog;
        this.constantFolder = constantFolder;
        this.orderJoins = orderJoins(List.copyOf(joinOrder));
    }

    /** The columns of the catalog's table or view of that name, or null when there is none. */
    private List<String> columnsOf(String name) {
        Schema columns = catalog.find(name).map(Table::schema)
                .or(() -> catalog.findView(name).map(ViewDefinition::columns)).orElse(null);
        return columns == null ? null : columns.columns().stream().map(ColumnDef::name).toList();
    }

    /**
     * A statement planned to simplified relational algebra, with the types of its {@code ?} parameters: one per
     * marker in the text, in order, whether or not the optimizer kept it in the plan.
     */
    public record LogicalQuery(String sql, RelNode plan, List<String> columnNames, boolean explain,
                               boolean analyze, List<RelDataType> parameterTypes, PlanningTime planning) {
        public LogicalQuery {
            parameterTypes = List.copyOf(parameterTypes);
        }

        public String planText() {
            return RelOptUtil.toString(plan);
        }

        public int parameterCount() {
            return parameterTypes.size();
        }
    }

    public LogicalQuery plan(String sql) {
        if (sql == null || sql.isBlank()) {
            throw new LocusSqlException(SqlState.SYNTAX_ERROR, "empty statement");
        }
        try {
            // "EXPLAIN SELECT ..." as users write it; Calcite's grammar wants EXPLAIN PLAN FOR. The keyword is
            // blanked out rather than removed so that error positions still point into the original text.
            Matcher shortExplain = SHORT_EXPLAIN.matcher(sql);
            boolean explain = false;
            String text = sql;
            boolean analyze = false;
            if (shortExplain.lookingAt()) {
                explain = true;
                int end = shortExplain.end();
                Matcher options = ANALYZE.matcher(sql).region(end, sql.length());
                if (options.lookingAt()) {
                    analyze = true;
                    end = options.end();
                }
                text = " ".repeat(end) + sql.substring(end);
            }
            text = rewriteText(text);
            long started = System.nanoTime();
            SqlNode parsed = parse(text);
            long parsedAt = System.nanoTime();
            if (parsed instanceof SqlExplain e) {
                explain = true;
                parsed = e.getExplicandum();
            }
            if (!parsed.getKind().belongsTo(SqlKind.QUERY)) {
                throw unsupported(parsed.getParserPosition(), parsed.getKind().lowerName.replace('_', ' ')
                        .toUpperCase(Locale.ROOT) + " statements are not supported yet (this version runs queries)");
            }

            JavaTypeFactory types = new LocusTypeFactory();
            CalciteCatalogReader catalogReader = catalogReader(types);
            SqlValidator validator = validator(catalogReader, types);
            // Named before validation, which rewrites some calls (COALESCE becomes CASE).
            List<String> itemNames = ColumnNames.beforeValidation(parsed);
            ColumnQualifier.qualify(parsed, this::columnsOf);
            SqlNode validated = validate(validator, parsed);
            ValuesLiteralFit.check(validator, validated);
            long validatedAt = System.nanoTime();
            List<RelDataType> parameterTypes = validator.getParameterRowType(validated).getFieldList().stream()
                    .map(RelDataTypeField::getType).toList();

            HepPlanner hep = new HepPlanner(SIMPLIFY_BEFORE_ORDERING);
            hep.setExecutor(constantFolder);
            RelOptCluster cluster = RelOptCluster.create(hep, new RexBuilder(types));
            SqlToRelConverter converter = new SqlToRelConverter(new Views(catalogReader, types, cluster, 0),
                    validator, catalogReader, cluster, StandardConvertletTable.INSTANCE, TO_REL);
            RelRoot root = converter.convertQuery(validated, false, true);
            RelBuilder relBuilder = RelFactories.LOGICAL_BUILDER.create(cluster, catalogReader);
            RelNode flat = converter.flattenTypes(root.rel, true);
            if (containsSubQuery(flat)) {
                flat = ExistsToSemiJoin.rewrite(flat);
            }
            if (containsSubQuery(flat)) {
                HepPlanner removal = new HepPlanner(REMOVE_SUBQUERIES);
                removal.setRoot(flat);
                flat = removal.findBestExp();
            }
            RelNode converted = AllSetOperations.rewrite(DecimalText.apply(
                    RelDecorrelator.decorrelateQuery(SingleRowCorrelates.asLeft(flat), relBuilder)), relBuilder);
            RelNode plan = root.withRel(converted).project();
            long convertedAt = System.nanoTime();
            if (hasJoin(converted)) {
                // Each join input keeps only the columns used above it, so that the join order's estimates and
                // then the scans see no more than that; ordering pulls projections up, so trim again after it.
                RelFieldTrimmer trimmer = new RelFieldTrimmer(validator, relBuilder);
                hep.setRoot(root.withRel(trimmer.trim(converted)).project());
                HepPlanner ordering = new HepPlanner(orderJoins);
                ordering.setExecutor(constantFolder);
                ordering.setRoot(JoinProjectionPullUp.pull(hep.findBestExp()));
                plan = trimmer.trim(ordering.findBestExp());
            }
            HepPlanner finish = new HepPlanner(FINISH);
            finish.setExecutor(constantFolder);
            finish.setRoot(plan);
            RelNode simplified = finish.findBestExp();
            if (containsOver(simplified)) {
                HepPlanner windows = new HepPlanner(WINDOWS);
                windows.setRoot(simplified);
                simplified = windows.findBestExp();
            }
            checkSupported(simplified);
            PlanningTime planning = new PlanningTime(parsedAt - started, validatedAt - parsedAt,
                    convertedAt - validatedAt, System.nanoTime() - convertedAt);
            return new LogicalQuery(sql, simplified, ColumnNames.of(itemNames, root.validatedRowType.getFieldNames()),
                    explain, analyze, parameterTypes, planning);
        } catch (LocusSqlException e) {
            throw e;
        } catch (RuntimeException | AssertionError e) {
            // Never a Java exception's text as the SQL error: it names Calcite's classes, not the problem.
            throw new LocusSqlException(SqlState.INTERNAL_ERROR, "cannot plan the statement ("
                    + e.getClass().getSimpleName() + ")", 0, 0, e);
        }
    }

    private static CalciteConnectionConfig connectionConfig() {
        Properties properties = new Properties();
        properties.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
        properties.setProperty(CalciteConnectionProperty.UNQUOTED_CASING.camelName(), Casing.UNCHANGED.name());
        properties.setProperty(CalciteConnectionProperty.QUOTED_CASING.camelName(), Casing.UNCHANGED.name());
        return new CalciteConnectionConfigImpl(properties);
    }

    private static SqlValidator validator(CalciteCatalogReader catalogReader, JavaTypeFactory types) {
        return new LocusValidator(SqlOperatorTables.chain(LocusOperators.TABLE, catalogReader), catalogReader, types,
                SqlValidator.Config.DEFAULT
                        .withConformance(LocusConformance.INSTANCE)
                        .withDefaultNullCollation(CONNECTION.defaultNullCollation())
                        .withIdentifierExpansion(true));
    }

    /**
     * Expands a view read by a statement into the statement's plan: the view's query parsed, validated against the
     * catalog as it is now and converted in the statement's cluster, so that the optimizer sees through it (filters
     * pushed into it, its joins ordered with the statement's). Views read views up to {@value #MAX_VIEW_DEPTH}
     * deep; deeper is taken for a view that reads itself.
     */
    private record Views(CalciteCatalogReader catalogReader, JavaTypeFactory types, RelOptCluster cluster, int depth)
            implements RelOptTable.ViewExpander {
        private static final int MAX_VIEW_DEPTH = 32;

        @Override
        public RelRoot expandView(RelDataType rowType, String queryString, List<String> schemaPath,
                                  @Nullable List<String> viewPath) {
            String name = viewPath == null ? "?" : viewPath.getLast();
            if (depth >= MAX_VIEW_DEPTH) {
                throw new LocusSqlException(SqlState.SEMANTIC_ERROR, "view '" + name + "' reads views more than "
                        + MAX_VIEW_DEPTH + " deep (does it read itself?)");
            }
            SqlNode parsed;
            try {
                parsed = DistinctOn.apply(FromFunctions.rewrite(SelectListSeries.rewrite(ModeWithinGroup.rewrite(
                        NullComparisons.rewrite(standardCasts(SqlParser.create(DistinctOn.rewriteText(
                                rewriteText(queryString)), PARSER).parseQuery()))))));
            } catch (SqlParseException e) {
                throw new LocusSqlException(SqlState.SEMANTIC_ERROR, "view '" + name + "' no longer parses: "
                        + firstLine(String.valueOf(e.getMessage())), 0, 0, e);
            }
            // A view's rows have no order: an ORDER BY without LIMIT or OFFSET is dropped here, as the converter
            // drops it in any subquery (it cannot when a QUALIFY, as DISTINCT ON writes, stands under it).
            if (parsed instanceof SqlOrderBy orderBy && orderBy.fetch == null && orderBy.offset == null) {
                parsed = orderBy.query;
            }
            SqlValidator validator = validator(catalogReader, types);
            SqlNode validated;
            try {
                validated = validate(validator, parsed);
            } catch (LocusSqlException e) {
                throw new LocusSqlException(e.state(), "view '" + name + "': " + e.getMessage(), 0, 0, e);
            }
            SqlToRelConverter converter = new SqlToRelConverter(new Views(catalogReader, types, cluster, depth + 1),
                    validator, catalogReader, cluster, StandardConvertletTable.INSTANCE, TO_REL);
            return converter.convertQuery(validated, true, false);
        }
    }

    /**
     * PostgreSQL's {@code x::type} as the standard {@code CAST(x AS type)}, which Calcite types fully (a {@code ?}
     * cast so takes the target type, as PostgreSQL gives it); and {@code PERCENTILE_CONT} as PostgreSQL types it
     * ({@link LocusOperators#PERCENTILE_CONT}).
     */
    private static SqlNode standardCasts(SqlNode node) {
        SqlNode rewritten = node.accept(new SqlShuttle() {
            @Override
            public @Nullable SqlNode visit(SqlCall call) {
                SqlCall visited = (SqlCall) super.visit(call);
                if (visited != null && visited.getOperator() == SqlStdOperatorTable.PERCENTILE_CONT) {
                    // The grammar names Calcite's own PERCENTILE_CONT, which no operator table lookup replaces.
                    return LocusOperators.PERCENTILE_CONT.createCall(visited.getFunctionQuantifier(),
                            visited.getParserPosition(), visited.getOperandList());
                }
                if (visited != null && visited.getOperator() == SqlStdOperatorTable.BITXOR_OPERATOR) {
                    // a ^ b is exponentiation in PostgreSQL and DuckDB, binding tighter than * and +; the grammar
                    // reads it as MySQL's XOR, binding looser, so 2 * 3 ^ 2 arrives as (2 * 3) ^ 2 and no rewrite
                    // can tell it from what was written with brackets.
                    SqlParserPos at = visited.getParserPosition();
                    throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "the operator ^ is not supported:"
                            + " write power(a, b)", at.getLineNum(), at.getColumnNum(), null);
                }
                if (visited != null && (visited.getOperator() == SqlLibraryOperators.INFIX_CAST
                        || visited.getOperator() == SqlStdOperatorTable.CAST)) {
                    SqlNode value = visited.operand(0);
                    if (visited.operand(1) instanceof SqlDataTypeSpec type && isRegclass(type)) {
                        return LocusOperators.REGCLASS.createCall(visited.getParserPosition(), value);
                    }
                    if (visited.operand(1) instanceof SqlDataTypeSpec type
                            && type.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic
                            && basic.getTypeName().getSimple().equalsIgnoreCase(SqlTypeName.TIMESTAMP_TZ.name())) {
                        // PostgreSQL's timestamp with time zone is an instant: Calcite's WITH LOCAL TIME ZONE.
                        SqlDataTypeSpec instant = new SqlDataTypeSpec(new SqlBasicTypeNameSpec(
                                SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, basic.getPrecision(),
                                type.getParserPosition()), type.getParserPosition());
                        return SqlStdOperatorTable.CAST.createCall(visited.getParserPosition(), value, instant);
                    }
                    return visited.getOperator() == SqlStdOperatorTable.CAST ? visited
                            : SqlStdOperatorTable.CAST.createCall(visited.getParserPosition(), visited.getOperandList());
                }
                return visited;
            }
        });
        return rewritten == null ? node : rewritten;
    }

    /** {@code regclass} or {@code pg_catalog.regclass}: a relation's name read as its OID. */
    private static boolean isRegclass(SqlDataTypeSpec type) {
        SqlIdentifier name = type.getTypeName();
        return name.names.getLast().equalsIgnoreCase("regclass")
                && (name.names.size() == 1 || name.names.getFirst().equalsIgnoreCase("pg_catalog"));
    }

    /**
     * PostgreSQL's spellings the parser does not read (interval and timestamp literals, AT TIME ZONE, LATERAL f(..))
     * in its own: for statements and for the stored text of views alike.
     */
    private static String rewriteText(String text) {
        return LateralCalls.rewrite(AtTimeZone.rewrite(TimestampLiterals.rewrite(IntervalLiterals.rewrite(text))));
    }

    private static SqlNode parse(String sql) {
        try {
            return DistinctOn.apply(FromFunctions.rewrite(SelectListSeries.rewrite(ModeWithinGroup.rewrite(
                    NullComparisons.rewrite(standardCasts(SqlParser.create(DistinctOn.rewriteText(sql), PARSER)
                            .parseStmt()))))));
        } catch (SqlParseException e) {
            SqlParserPos pos = e.getPos();
            String message = e.getMessage() == null ? "syntax error" : firstLine(e.getMessage());
            throw new LocusSqlException(SqlState.SYNTAX_ERROR, message, pos == null ? 0 : pos.getLineNum(),
                    pos == null ? 0 : pos.getColumnNum(), e);
        }
    }

    private static SqlNode validate(SqlValidator validator, SqlNode parsed) {
        try {
            return validator.validate(parsed);
        } catch (CalciteContextException context) {
            String message = context.getCause() != null && context.getCause().getMessage() != null
                    ? context.getCause().getMessage() : context.getMessage();
            throw new LocusSqlException(stateOf(message), message, context.getPosLine(), context.getPosColumn(),
                    context);
        } catch (CalciteException e) {
            throw new LocusSqlException(SqlState.SEMANTIC_ERROR, firstLine(String.valueOf(e.getMessage())), 0, 0,
                    e);
        } catch (UnsupportedOperationException | IllegalStateException | NullPointerException
                 | ClassCastException | IndexOutOfBoundsException e) {
            // Calcite's validator gives up this way where it cannot type an expression; in practice a ? whose
            // type nothing around it tells.
            throw new LocusSqlException(SqlState.INDETERMINATE_DATATYPE, "cannot determine the type of an"
                    + " expression of the statement; if it holds a ? parameter, CAST(? AS type) names the type", 0,
                    0, e);
        }
    }

    private static SqlState stateOf(String message) {
        if (message.startsWith("Object '") || message.startsWith("Table '")) {
            return SqlState.UNDEFINED_TABLE;
        }
        if (message.startsWith("Column '") && message.contains("is ambiguous")) {
            return SqlState.AMBIGUOUS_COLUMN;
        }
        if (message.startsWith("Column '")) {
            return SqlState.UNDEFINED_COLUMN;
        }
        if (message.startsWith("No match found for function")) {
            return SqlState.UNDEFINED_FUNCTION;
        }
        if (message.startsWith("Expression '") && message.contains("is not being grouped")) {
            return SqlState.GROUPING_ERROR;
        }
        if (message.startsWith("Illegal use of dynamic parameter")) {
            return SqlState.INDETERMINATE_DATATYPE;
        }
        if (message.startsWith("Cannot apply") || message.startsWith("Cannot assign")
                || message.startsWith("Cannot infer return type")) {
            return SqlState.DATATYPE_MISMATCH;
        }
        return SqlState.SEMANTIC_ERROR;
    }

    /** The plan may only hold the operators the physical planner executes; anything else is named. */
    private static void checkSupported(RelNode plan) {
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                if (hasSubQuery(node)) {
                    throw unsupported(SqlParserPos.ZERO, "this subquery could not be turned into joins, which"
                            + " this version needs");
                }
                if (node instanceof Join join && !SUPPORTED_JOINS.contains(join.getJoinType())) {
                    throw unsupported(SqlParserPos.ZERO, join.getJoinType() + " joins are not supported yet");
                }
                if (node instanceof SetOp setOp && !(setOp instanceof Union && setOp.all)) {
                    throw unsupported(SqlParserPos.ZERO, setOp.kind + (setOp.all ? " ALL" : "")
                            + " is not supported yet (UNION, UNION ALL, INTERSECT and EXCEPT are)");
                }
                if (node instanceof Correlate correlate && !(unfiltered(correlate.getRight())
                        instanceof TableFunctionScan)) {
                    throw unsupported(SqlParserPos.ZERO, "LATERAL over anything but a set-returning function"
                            + " (generate_series) is not supported yet");
                }
                if (!(node instanceof TableScan || node instanceof Filter || node instanceof Project
                        || node instanceof Correlate
                        || node instanceof Aggregate || node instanceof Sort || node instanceof Values
                        || node instanceof Join || node instanceof Union || node instanceof Window
                        || node instanceof TableFunctionScan || node instanceof Uncollect
                        || node instanceof RepeatUnion || node instanceof Spool)) {
                    throw unsupported(SqlParserPos.ZERO, "the plan needs " + node.getRelTypeName()
                            + ", which is not supported yet");
                }
                super.visit(node, ordinal, parent);
            }
        }.go(plan);
    }

    private static RelNode unfiltered(RelNode node) {
        return node instanceof Filter filter ? unfiltered(filter.getInput()) : node;
    }

    private static boolean hasJoin(RelNode node) {
        if (node instanceof Join) {
            return true;
        }
        for (RelNode input : node.getInputs()) {
            if (hasJoin(input)) {
                return true;
            }
        }
        return false;
    }

    private static final Set<JoinRelType> SUPPORTED_JOINS = EnumSet.of(JoinRelType.INNER, JoinRelType.LEFT,
            JoinRelType.RIGHT, JoinRelType.FULL, JoinRelType.SEMI, JoinRelType.ANTI);

    /** Whether a window function (OVER) is anywhere in the plan's projections. */
    private static boolean containsOver(RelNode plan) {
        if (plan instanceof Project p && RexOver.containsOver(p.getProjects(), null)) {
            return true;
        }
        for (RelNode input : plan.getInputs()) {
            if (containsOver(input)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a subquery is left anywhere in the plan. */
    private static boolean containsSubQuery(RelNode plan) {
        if (hasSubQuery(plan)) {
            return true;
        }
        for (RelNode input : plan.getInputs()) {
            if (containsSubQuery(input)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasSubQuery(RelNode node) {
        return switch (node) {
            case Filter f -> RexUtil.SubQueryFinder.find(f.getCondition()) != null;
            case Project p -> RexUtil.SubQueryFinder.find(p.getProjects()) != null;
            case Join j -> RexUtil.SubQueryFinder.find(j.getCondition()) != null;
            default -> false;
        };
    }

    private static LocusSqlException unsupported(SqlParserPos pos, String message) {
        return new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, message, pos.getLineNum(), pos.getColumnNum(),
                null);
    }

    private static String firstLine(String message) {
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
