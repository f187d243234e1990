package io.locusdb.core.query.planner;

import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.join.JoinKeys;
import io.locusdb.core.query.join.JoinType;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.sql.CatalogSchema;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.sql.SystemTable;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Spool;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Uncollect;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.TransientTable;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Calcite's simplified logical plan to a {@link PhysicalPlan}: a chain of single-input operators over a table scan,
 * VALUES, a system table or a join of two such plans. Filters and projections directly above a scan fold into it
 * (their expressions rewritten over the table's columns), the first aggregation above a scan becomes the parallel
 * aggregation, and the rest stays as relation operators. The plan is drafted over Calcite's expressions, then
 * {@link PlanLowering lowered}: this is where Calcite ends.
 */
public final class PhysicalPlanner {
    private PhysicalPlanner() {
    }

    public static PhysicalPlan plan(RelNode root, List<String> columnNames, ParameterBinder binder) {
        return plan(root, columnNames, binder, table -> table);
    }

    /**
     * As above; {@code resolve} maps the table the statement was planned against to the one to scan now (a
     * prepared statement runs against the table currently registered under that name).
     */
    public static PhysicalPlan plan(RelNode root, List<String> columnNames, ParameterBinder binder,
                                    UnaryOperator<Table> resolve) {
        return PlanLowering.lower(planTree(root, columns(root, columnNames), binder, resolve,
                SharedSubplans.of(root)));
    }

    /**
     * The plan of a join's or union's input: a shared subtree's one plan (computed once per execution, read by
     * each occurrence), or the input's own.
     */
    private static PlanDraft planInput(RelNode input, ParameterBinder binder, UnaryOperator<Table> resolve,
                                       SharedSubplans shared) {
        List<ResultColumn> columns = columns(input, List.of());
        Integer id = shared.idOf(input);
        if (id == null) {
            return planTree(input, columns, binder, resolve, shared);
        }
        List<PlanDraft.Op> ops = new ArrayList<>();
        PlanDraft.Shared source = sharedSource(input, id, binder, resolve, shared, ops);
        return new PlanDraft(source, ops, columns, input.getCluster().getRexBuilder());
    }

    /**
     * Occurrence {@code node} of shared subtree {@code id}: the subtree's one plan as a source, and in {@code ops}
     * the projection of the columns this occurrence reads where the shared plan computes more (see
     * {@link SharedSubplans#columnsOf}).
     */
    private static PlanDraft.Shared sharedSource(RelNode node, int id, ParameterBinder binder,
                                                 UnaryOperator<Table> resolve, SharedSubplans shared,
                                                 List<PlanDraft.Op> ops) {
        RelNode computed = shared.shared(node);
        PlanDraft inner = shared.planned(id, () -> planTree(computed, columns(computed, List.of()), binder, resolve,
                shared));
        int[] columns = shared.columnsOf(node);
        if (columns != null) {
            RexBuilder rex = node.getCluster().getRexBuilder();
            List<RelDataTypeField> fields = computed.getRowType().getFieldList();
            List<RexNode> refs = new ArrayList<>();
            for (int c : columns) {
                refs.add(rex.makeInputRef(fields.get(c).getType(), c));
            }
            ops.add(new PlanDraft.Project(refs, node.getRowType().getFieldNames()));
        }
        return new PlanDraft.Shared(id, inner);
    }

    /** One plan: the chain of single-input operators down to a leaf or a join, whose inputs are plans again. */
    private static PlanDraft planTree(RelNode root, List<ResultColumn> columns, ParameterBinder binder,
                                      UnaryOperator<Table> resolve, SharedSubplans shared) {
        List<RelNode> chain = new ArrayList<>();
        for (RelNode node = root; ; node = node.getInput(0)) {
            if (node != root && shared.idOf(node) != null) {
                // A shared subtree ends this plan's chain: the chain above reads its rows.
                chain.add(node);
                break;
            }
            chain.add(node);
            if (node.getInputs().size() != 1 || node instanceof Uncollect) {
                break;
            }
        }
        Collections.reverse(chain);
        RexBuilder rex = root.getCluster().getRexBuilder();
        RelNode leaf = chain.getFirst();
        int next = 1;
        PlanDraft.Source source;
        Integer sharedId = leaf == root ? null : shared.idOf(leaf);
        List<PlanDraft.Op> ops = new ArrayList<>();
        if (sharedId != null) {
            source = sharedSource(leaf, sharedId, binder, resolve, shared, ops);
        } else if (leaf instanceof TableScan scan && scan.getTable().unwrap(TransientTable.class) != null) {
            source = new PlanDraft.WorkingTable(scan.getTable().getQualifiedName().getLast(),
                    scan.getRowType().getFieldList().stream().map(f -> SqlTypes.of(f.getType())).toList(),
                    scan.getRowType().getFieldNames());
        } else if (leaf instanceof Correlate correlate) {
            PlanDraft input = planInput(correlate.getLeft(), binder, resolve, shared);
            // Filters Calcite pushed onto the function's rows apply to the joined rows instead.
            RelNode function = correlate.getRight();
            if (function instanceof Filter && correlate.getJoinType() != JoinRelType.INNER) {
                throw unsupported("LEFT JOIN LATERAL with a condition other than ON TRUE");
            }
            while (function instanceof Filter filter) {
                ops.add(new PlanDraft.Filter(SetFunctionPlanning.overJoinedRow(binder.bind(filter.getCondition()),
                        correlate)));
                function = filter.getInput();
            }
            source = SetFunctionPlanning.lateral(correlate, function, input, binder);
        } else if (leaf instanceof RepeatUnion repeat) {
            PlanDraft seed = castTo(planInput(unspooled(repeat.getSeedRel()), binder, resolve, shared),
                    unspooled(repeat.getSeedRel()), repeat.getRowType(), rex);
            PlanDraft step = castTo(planInput(unspooled(repeat.getIterativeRel()), binder, resolve, shared),
                    unspooled(repeat.getIterativeRel()), repeat.getRowType(), rex);
            source = new PlanDraft.RepeatUnion(seed, step, repeat.all, repeat.getTransientTable() == null ? ""
                    : repeat.getTransientTable().getQualifiedName().getLast(), repeat.iterationLimit,
                    repeat.getRowType().getFieldNames());
        } else if (leaf instanceof TableScan scan
                && scan.getTable().unwrap(CatalogSchema.SystemCalciteTable.class) != null) {
            SystemTable system = scan.getTable().unwrap(CatalogSchema.SystemCalciteTable.class).table();
            source = new PlanDraft.Rows(system.name(), system.rows().get(),
                    system.columns().stream().map(ColumnDef::type).toList(), scan.getRowType().getFieldNames());
        } else if (leaf instanceof TableScan scan) {
            Table table = resolve.apply(scan.getTable().unwrap(CatalogSchema.CatalogTable.class).table());
            List<RexNode> current = new ArrayList<>();
            for (RelDataTypeField f : scan.getRowType().getFieldList()) {
                current.add(rex.makeInputRef(f.getType(), f.getIndex()));
            }
            List<RexNode> filters = new ArrayList<>();
            while (next < chain.size() && (chain.get(next) instanceof Filter
                    || chain.get(next) instanceof Project)) {
                RelNode node = chain.get(next++);
                if (node instanceof Filter f) {
                    filters.add(substitute(binder.bind(f.getCondition()), current));
                } else {
                    List<RexNode> projected = new ArrayList<>();
                    for (RexNode e : ((Project) node).getProjects()) {
                        projected.add(substitute(binder.bind(e), current));
                    }
                    current = projected;
                }
            }
            RexNode condition = filters.isEmpty() ? null : RexUtil.composeConjunction(rex, filters);
            List<String> names = chain.get(next - 1).getRowType().getFieldNames();
            source = new PlanDraft.Scan(table, condition, current, names);
        } else if (leaf instanceof Values values) {
            List<List<RexNode>> rows = new ArrayList<>();
            for (List<RexLiteral> tuple : values.getTuples()) {
                rows.add(List.copyOf(tuple));
            }
            List<ColumnType> types = values.getRowType().getFieldList().stream()
                    .map(f -> SqlTypes.of(f.getType())).toList();
            source = new PlanDraft.Values(rows, types, values.getRowType().getFieldNames());
        } else if (leaf instanceof TableFunctionScan function) {
            source = SetFunctionPlanning.series(function, binder);
        } else if (leaf instanceof Uncollect uncollect) {
            source = SetFunctionPlanning.unnest(uncollect, binder);
        } else if (leaf instanceof Join join) {
            source = join(join, binder, resolve, shared);
        } else if (leaf instanceof Union union && union.all) {
            List<PlanDraft> inputs = new ArrayList<>();
            for (RelNode input : union.getInputs()) {
                inputs.add(castTo(planInput(input, binder, resolve, shared), input,
                        union.getRowType(), rex));
            }
            source = new PlanDraft.Union(inputs, union.getRowType().getFieldNames());
        } else {
            throw unsupported("the plan node " + leaf.getRelTypeName());
        }
        for (int i = next; i < chain.size(); i++) {
            if (chain.get(i) instanceof Aggregate a && hasLiteralAgg(a)) {
                literalAggregate(a, rex, ops);
            } else {
                ops.add(op(chain.get(i), binder));
            }
        }
        return new PlanDraft(source, ops, columns, rex);
    }

    /** The input of a recursion's table spool (Calcite marks the rows each round writes and reads with one). */
    private static RelNode unspooled(RelNode node) {
        return node instanceof Spool spool ? spool.getInput() : node;
    }

    /**
     * A join: its inputs planned on their own, the equality conditions between the two sides as key columns, and
     * what else the condition asks as a residual over the joined row (left columns, then right).
     */
    private static PlanDraft.Join join(Join join, ParameterBinder binder, UnaryOperator<Table> resolve,
                                       SharedSubplans shared) {
        JoinType type = switch (join.getJoinType()) {
            case INNER -> JoinType.INNER;
            case LEFT -> JoinType.LEFT;
            case RIGHT -> JoinType.RIGHT;
            case FULL -> JoinType.FULL;
            case SEMI -> JoinType.SEMI;
            case ANTI -> JoinType.ANTI;
            default -> throw unsupported(join.getJoinType() + " joins are");
        };
        // (k = k' AND a) OR (k = k' AND b) is k = k' AND (a OR b): a key the hash join can use (TPC-H Q19).
        RexNode condition = RexUtil.pullFactors(join.getCluster().getRexBuilder(), binder.bind(join.getCondition()));
        JoinInfo info = JoinInfo.of(join.getLeft(), join.getRight(), condition);
        List<RelDataTypeField> leftFields = join.getLeft().getRowType().getFieldList();
        List<RelDataTypeField> rightFields = join.getRight().getRowType().getFieldList();
        List<Integer> leftKeys = new ArrayList<>();
        List<Integer> rightKeys = new ArrayList<>();
        List<RexNode> residual = new ArrayList<>(info.nonEquiConditions);
        RexBuilder rex = join.getCluster().getRexBuilder();
        for (int k = 0; k < info.leftKeys.size(); k++) {
            int l = info.leftKeys.get(k);
            int r = info.rightKeys.get(k);
            ColumnType lt = SqlTypes.of(leftFields.get(l).getType());
            ColumnType rt = SqlTypes.of(rightFields.get(r).getType());
            if (JoinKeys.sameValueSpace(lt, rt)) {
                leftKeys.add(l);
                rightKeys.add(r);
            } else {
                // Different representations (e.g. decimals of two scales): compared as the expression says.
                residual.add(rex.makeCall(SqlStdOperatorTable.EQUALS,
                        rex.makeInputRef(leftFields.get(l).getType(), l),
                        rex.makeInputRef(rightFields.get(r).getType(), leftFields.size() + r)));
            }
        }
        PlanDraft left = planInput(join.getLeft(), binder, resolve, shared);
        PlanDraft right = planInput(join.getRight(), binder, resolve, shared);
        if (!leftKeys.isEmpty()) {
            // A side's rows whose key the other side lacks can only come out unmatched: that side may be reduced
            // where the join drops its unmatched rows.
            if (type == JoinType.INNER || type == JoinType.RIGHT) {
                left = SemiJoinReduction.reduce(left, leftKeys, right, rightKeys);
            }
            if (type == JoinType.INNER || type == JoinType.LEFT || type == JoinType.SEMI || type == JoinType.ANTI) {
                right = SemiJoinReduction.reduce(right, rightKeys, left, leftKeys);
            }
        }
        if (leftKeys.size() > 1) {
            oneIntegerKey(left, right, leftKeys, rightKeys, leftFields, rightFields, residual, rex);
        }
        if (type == JoinType.INNER) {
            // Conjuncts over one side only (what pulling factors out of OR branches leaves, TPC-H Q19) filter that
            // side before the join.
            List<RexNode> leftOnly = new ArrayList<>();
            List<RexNode> rightOnly = new ArrayList<>();
            List<RexNode> both = new ArrayList<>();
            for (RexNode term : residual) {
                ImmutableBitSet refs = RelOptUtil.InputFinder.bits(term);
                if (refs.isEmpty() || !RexUtil.isDeterministic(term)) {
                    both.add(term);
                } else if (refs.length() <= leftFields.size()) {
                    leftOnly.add(term);
                } else if (refs.nextSetBit(0) >= leftFields.size()) {
                    rightOnly.add(RexUtil.shift(term, -leftFields.size()));
                } else {
                    both.add(term);
                }
            }
            left = withFilter(left, leftOnly.isEmpty() ? null : RexUtil.composeConjunction(rex, leftOnly));
            right = withFilter(right, rightOnly.isEmpty() ? null : RexUtil.composeConjunction(rex, rightOnly));
            residual = both;
        }
        RexNode rest = residual.isEmpty() ? null : RexUtil.composeConjunction(rex, residual);
        if (type == JoinType.INNER && rest != null) {
            // (a1 AND b1) OR (a2 AND b2) over both sides implies (a1 OR a2) on the left and (b1 OR b2) on the
            // right: filters each side can apply before the join (TPC-H Q19), the residual still decides.
            left = withFilter(left, sideFilter(rest, 0, leftFields.size(), rex));
            right = withFilter(right, sideFilter(rest, leftFields.size(), rightFields.size(), rex));
        }
        RelMetadataQuery metadata = join.getCluster().getMetadataQuery();
        return new PlanDraft.Join(left, right, type, leftKeys.stream().mapToInt(Integer::intValue).toArray(),
                rightKeys.stream().mapToInt(Integer::intValue).toArray(), rest,
                join.getRowType().getFieldNames(), JoinEstimates.rows(left, estimate(metadata, join.getLeft())),
                JoinEstimates.rows(right, estimate(metadata, join.getRight())));
    }

    /**
     * Keys that are all integers (ids, dates), one of them about unique on one side: that one (the one with the most
     * distinct values) stays the key, so that the hash table is the off-heap integer index, and the others become
     * equalities of the residual, checked on the one candidate pair the key finds (TPC-H Q7's custkey and
     * nationkey). A pair the residual rejects is unmatched, as one whose keys differ, for every join type.
     */
    private static void oneIntegerKey(PlanDraft left, PlanDraft right, List<Integer> leftKeys,
                                      List<Integer> rightKeys, List<RelDataTypeField> leftFields,
                                      List<RelDataTypeField> rightFields, List<RexNode> residual, RexBuilder rex) {
        int best = -1;
        double bestDistinct = -1;
        for (int k = 0; k < leftKeys.size(); k++) {
            if (SqlTypes.of(leftFields.get(leftKeys.get(k)).getType()).physical() != TypeKind.Physical.LONG
                    || SqlTypes.of(rightFields.get(rightKeys.get(k)).getType()).physical() != TypeKind.Physical.LONG) {
                return;
            }
            double distinct = Math.max(
                    JoinEstimates.distinct(left, leftKeys.get(k), Double.MAX_VALUE),
                    JoinEstimates.distinct(right, rightKeys.get(k), Double.MAX_VALUE));
            if (distinct > bestDistinct) {
                best = k;
                bestDistinct = distinct;
            }
        }
        // Only when that key is (about) unique on one side: else each probe finds several candidates, and checking
        // them through the residual costs more than the composite key does.
        double leftRows = JoinEstimates.rows(left, Double.MAX_VALUE);
        double rightRows = JoinEstimates.rows(right, Double.MAX_VALUE);
        if (JoinEstimates.distinct(left, leftKeys.get(best), leftRows) < 0.9 * leftRows
                && JoinEstimates.distinct(right, rightKeys.get(best), rightRows) < 0.9 * rightRows) {
            return;
        }
        for (int k = 0; k < leftKeys.size(); k++) {
            if (k != best) {
                int l = leftKeys.get(k);
                int r = rightKeys.get(k);
                residual.add(rex.makeCall(SqlStdOperatorTable.EQUALS,
                        rex.makeInputRef(leftFields.get(l).getType(), l),
                        rex.makeInputRef(rightFields.get(r).getType(), leftFields.size() + r)));
            }
        }
        int l = leftKeys.get(best);
        int r = rightKeys.get(best);
        leftKeys.clear();
        rightKeys.clear();
        leftKeys.add(l);
        rightKeys.add(r);
    }

    /**
     * What every OR branch of the condition's conjuncts asks of the columns {@code [from, from + count)} alone, over
     * those columns (shifted to start at 0); null when some branch asks nothing of them.
     */
    static RexNode sideFilter(RexNode condition, int from, int count, RexBuilder rex) {
        List<RexNode> derived = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
            List<RexNode> disjuncts = RelOptUtil.disjunctions(conjunct);
            if (disjuncts.size() < 2) {
                continue;
            }
            List<RexNode> branches = new ArrayList<>();
            for (RexNode branch : disjuncts) {
                List<RexNode> own = new ArrayList<>();
                for (RexNode term : RelOptUtil.conjunctions(branch)) {
                    ImmutableBitSet refs = RelOptUtil.InputFinder.bits(term);
                    if (!refs.isEmpty() && refs.nextSetBit(0) >= from && refs.length() <= from + count
                            && RexUtil.isDeterministic(term)) {
                        own.add(RexUtil.shift(term, -from));
                    }
                }
                if (own.isEmpty()) {
                    branches = null;
                    break;
                }
                branches.add(RexUtil.composeConjunction(rex, own));
            }
            if (branches != null) {
                // Terms every branch shares become conjuncts of their own, which the scan can push down.
                derived.add(RexUtil.pullFactors(rex, RexUtil.composeDisjunction(rex, branches)));
            }
        }
        return derived.isEmpty() ? null : RexUtil.composeConjunction(rex, derived);
    }

    /** The plan with one more filter on its output: folded into a plain scan, else an operator on top. */
    private static PlanDraft withFilter(PlanDraft plan, RexNode filter) {
        if (filter == null) {
            return plan;
        }
        if (plan.source() instanceof PlanDraft.Scan scan && plan.ops().isEmpty()) {
            RexNode over = substitute(filter, scan.outputs());
            RexNode condition = scan.condition() == null ? over
                    : RexUtil.composeConjunction(plan.rex(), List.of(scan.condition(), over));
            return new PlanDraft(new PlanDraft.Scan(scan.table(), condition, scan.outputs(), scan.names()),
                    plan.ops(), plan.columns(), plan.rex());
        }
        List<PlanDraft.Op> ops = new ArrayList<>(plan.ops());
        ops.add(new PlanDraft.Filter(filter));
        return new PlanDraft(plan.source(), ops, plan.columns(), plan.rex());
    }

    private static double estimate(RelMetadataQuery metadata, RelNode input) {
        Double rows = metadata.getRowCount(input);
        return rows == null || rows.isNaN() ? Double.MAX_VALUE : rows;
    }

    /**
     * A union's input with the union's column types: where a column's LocusDB type differs (an INTEGER beside a
     * BIGINT, decimals of two scales), a projection casts it, so that every input's rows are alike.
     */
    private static PlanDraft castTo(PlanDraft input, RelNode node, RelDataType unionType, RexBuilder rex) {
        List<RelDataTypeField> fields = node.getRowType().getFieldList();
        List<RelDataTypeField> targets = unionType.getFieldList();
        List<RexNode> exprs = new ArrayList<>();
        boolean differs = false;
        for (int i = 0; i < fields.size(); i++) {
            RexNode ref = rex.makeInputRef(fields.get(i).getType(), i);
            if (SqlTypes.of(fields.get(i).getType()).equals(SqlTypes.of(targets.get(i).getType()))) {
                exprs.add(ref);
            } else {
                exprs.add(rex.makeCast(targets.get(i).getType(), ref, true, false));
                differs = true;
            }
        }
        if (!differs) {
            return input;
        }
        List<PlanDraft.Op> ops = new ArrayList<>(input.ops());
        List<String> names = unionType.getFieldNames();
        ops.add(new PlanDraft.Project(exprs, names));
        List<ResultColumn> columns = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            columns.add(new ResultColumn(names.get(i), SqlTypes.of(targets.get(i).getType())));
        }
        return new PlanDraft(input.source(), ops, columns, input.rex());
    }

    /** The result columns of a plan: the statement's names, LocusDB's types. */
    public static List<ResultColumn> columns(RelNode root, List<String> columnNames) {
        List<ResultColumn> columns = new ArrayList<>();
        List<RelDataTypeField> fields = root.getRowType().getFieldList();
        for (int i = 0; i < fields.size(); i++) {
            columns.add(new ResultColumn(i < columnNames.size() ? columnNames.get(i) : fields.get(i).getName(),
                    SqlTypes.of(fields.get(i).getType())));
        }
        return columns;
    }

    private static PlanDraft.Op op(RelNode node, ParameterBinder binder) {
        List<String> names = node.getRowType().getFieldNames();
        return switch (node) {
            case Filter f -> new PlanDraft.Filter(binder.bind(f.getCondition()));
            case Project p -> new PlanDraft.Project(p.getProjects().stream().map(binder::bind).toList(), names);
            case Sort s -> new PlanDraft.Sort(s.getCollation().getFieldCollations(),
                    count(s.offset, binder, "OFFSET", 0), count(s.fetch, binder, "LIMIT", -1));
            case Aggregate a -> aggregate(a, names);
            case Window w -> new PlanDraft.Window(WindowPlanning.plan(w));
            default -> throw unsupported("the plan node " + node.getRelTypeName());
        };
    }

    private static boolean hasLiteralAgg(Aggregate a) {
        return a.getAggCallList().stream().anyMatch(c -> c.getAggregation().getKind() == SqlKind.LITERAL_AGG);
    }

    /**
     * An aggregation with LITERAL_AGG calls (the constant TRUE that marks the groups of a decorrelated IN or EXISTS):
     * the aggregation of the other calls, then a projection that puts each literal in its place.
     */
    private static void literalAggregate(Aggregate a, RexBuilder rex, List<PlanDraft.Op> ops) {
        List<org.apache.calcite.rel.core.AggregateCall> others = new ArrayList<>();
        for (org.apache.calcite.rel.core.AggregateCall call : a.getAggCallList()) {
            if (call.getAggregation().getKind() != SqlKind.LITERAL_AGG) {
                others.add(call);
            }
        }
        Aggregate inner = a.copy(a.getTraitSet(), a.getInput(), a.getGroupSet(), a.getGroupSets(), others);
        ops.add(aggregate(inner, inner.getRowType().getFieldNames()));
        List<RelDataTypeField> innerFields = inner.getRowType().getFieldList();
        int keys = a.getGroupCount();
        List<RexNode> exprs = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            exprs.add(rex.makeInputRef(innerFields.get(k).getType(), k));
        }
        int next = keys;
        List<RelDataTypeField> outFields = a.getRowType().getFieldList();
        for (int c = 0; c < a.getAggCallList().size(); c++) {
            org.apache.calcite.rel.core.AggregateCall call = a.getAggCallList().get(c);
            if (call.getAggregation().getKind() == SqlKind.LITERAL_AGG) {
                exprs.add(rex.ensureType(outFields.get(keys + c).getType(), call.rexList.getFirst(), true));
            } else {
                exprs.add(rex.makeInputRef(innerFields.get(next).getType(), next));
                next++;
            }
        }
        ops.add(new PlanDraft.Project(exprs, a.getRowType().getFieldNames()));
    }

    private static long count(RexNode node, ParameterBinder binder, String clause, long absent) {
        if (node == null) {
            return absent;
        }
        RexNode bound = binder.bind(node);
        if (!(bound instanceof RexLiteral literal) || literal.isNull()) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, clause + " must be a constant, got " + bound);
        }
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (value.signum() < 0) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, clause + " must not be negative, got " + value);
        }
        return value.longValue();
    }

    private static PlanDraft.Aggregate aggregate(Aggregate a, List<String> names) {
        if (a.getGroupType() != Aggregate.Group.SIMPLE) {
            throw unsupported("GROUPING SETS, ROLLUP and CUBE are");
        }
        int[] keys = a.getGroupSet().toArray();
        List<AggregateCall> calls = new ArrayList<>();
        for (org.apache.calcite.rel.core.AggregateCall call : a.getAggCallList()) {
            if (call.filterArg >= 0) {
                throw unsupported("FILTER (WHERE ...) on aggregates is");
            }
            SqlKind kind = call.getAggregation().getKind();
            if (call.getAggregation().getName().equalsIgnoreCase("MEDIAN")) {
                calls.add(median(a, call));
                continue;
            }
            if (kind == SqlKind.PERCENTILE_CONT || kind == SqlKind.PERCENTILE_DISC) {
                calls.add(percentile(a, call));
                continue;
            }
            if (call.getArgList().size() > 1 && kind != SqlKind.STRING_AGG && kind != SqlKind.LISTAGG) {
                throw unsupported(call.getAggregation().getName() + " with several arguments is");
            }
            AggregateCall.Function function = switch (call.getAggregation().getKind()) {
                case COUNT -> AggregateCall.Function.COUNT;
                case SUM -> AggregateCall.Function.SUM;
                case SUM0 -> AggregateCall.Function.SUM0;
                case AVG -> AggregateCall.Function.AVG;
                case MIN -> AggregateCall.Function.MIN;
                case MAX -> AggregateCall.Function.MAX;
                case SINGLE_VALUE -> AggregateCall.Function.SINGLE_VALUE;
                case STRING_AGG, LISTAGG -> AggregateCall.Function.STRING_AGG;
                case ARRAY_AGG -> AggregateCall.Function.ARRAY_AGG;
                case MODE -> AggregateCall.Function.MODE;
                default -> throw unsupported("the aggregate function " + call.getAggregation().getName() + " is");
            };
            int argument = call.getArgList().isEmpty() ? -1 : call.getArgList().getFirst();
            ColumnType argType = argument < 0 ? ColumnType.BIGINT
                    : SqlTypes.of(a.getInput().getRowType().getFieldList().get(argument).getType());
            calls.add(new AggregateCall(function, argument, call.isDistinct(), argType, SqlTypes.of(call.getType()),
                    call.getName(), function == AggregateCall.Function.STRING_AGG ? separator(a, call) : null,
                    collectOrder(call, argument), 0));
        }
        List<ColumnType> types = a.getRowType().getFieldList().stream().map(f -> SqlTypes.of(f.getType())).toList();
        return new PlanDraft.Aggregate(keys, calls, types, names);
    }

    /**
     * {@code PERCENTILE_CONT(f)} or {@code PERCENTILE_DISC(f) WITHIN GROUP (ORDER BY x)}: the call reads x (its
     * order key), the fraction is a constant between 0 and 1 that the aggregate's input computes as a column.
     */
    private static AggregateCall percentile(Aggregate a, org.apache.calcite.rel.core.AggregateCall call) {
        String name = call.getAggregation().getName();
        List<RelFieldCollation> keys = call.getCollation().getFieldCollations();
        if (keys.size() != 1 || call.getArgList().size() != 1) {
            throw unsupported(name + " needs WITHIN GROUP (ORDER BY one expression); this form");
        }
        if (call.isDistinct()) {
            throw unsupported(name + " with DISTINCT is");
        }
        int argument = keys.getFirst().getFieldIndex();
        ColumnType argType = SqlTypes.of(a.getInput().getRowType().getFieldList().get(argument).getType());
        boolean continuous = call.getAggregation().getKind() == SqlKind.PERCENTILE_CONT;
        boolean numeric = argType.kind() == TypeKind.INTEGER || argType.kind() == TypeKind.BIGINT
                || argType.kind() == TypeKind.DECIMAL || argType.kind() == TypeKind.DOUBLE;
        boolean temporal = argType.kind() == TypeKind.DATE || argType.kind() == TypeKind.TIMESTAMP
                || argType.kind() == TypeKind.TIMESTAMP_TZ;
        if (!numeric && (continuous || !temporal)) {
            throw unsupported(name + " over " + argType + " is");
        }
        int column = call.getArgList().getFirst();
        RexNode value = a.getInput() instanceof Project p ? p.getProjects().get(column) : null;
        if (!(value instanceof RexLiteral literal) || literal.isNull()) {
            throw unsupported(name + " with a fraction that is not a constant is");
        }
        double fraction = literal.getValueAs(BigDecimal.class).doubleValue();
        if (fraction < 0 || fraction > 1) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, name + ": the fraction " + fraction
                    + " is not between 0 and 1");
        }
        return new AggregateCall(continuous ? AggregateCall.Function.PERCENTILE_CONT
                : AggregateCall.Function.PERCENTILE_DISC, argument, false, argType, SqlTypes.of(call.getType()),
                call.getName(), null, collectOrder(call, argument), fraction);
    }

    /** {@code MEDIAN(x)}: the continuous percentile 0.5 of x. */
    private static AggregateCall median(Aggregate a, org.apache.calcite.rel.core.AggregateCall call) {
        if (call.isDistinct()) {
            throw unsupported("MEDIAN with DISTINCT is");
        }
        int argument = call.getArgList().getFirst();
        ColumnType argType = SqlTypes.of(a.getInput().getRowType().getFieldList().get(argument).getType());
        return new AggregateCall(AggregateCall.Function.PERCENTILE_CONT, argument, false, argType,
                SqlTypes.of(call.getType()), call.getName(), null, AggregateCall.Order.ASCENDING, 0.5);
    }

    /**
     * STRING_AGG's separator: a constant, which Calcite keeps with the call or as a column the aggregate's input
     * computes; ',' when the call has none (LISTAGG's default).
     */
    private static String separator(Aggregate a, org.apache.calcite.rel.core.AggregateCall call) {
        RexNode value;
        if (!call.rexList.isEmpty()) {
            value = call.rexList.getFirst();
        } else if (call.getArgList().size() >= 2) {
            int column = call.getArgList().get(1);
            value = a.getInput() instanceof Project p ? p.getProjects().get(column) : null;
        } else {
            return ",";
        }
        if (!(value instanceof RexLiteral literal)) {
            throw unsupported("STRING_AGG with a separator that is not a constant is");
        }
        return literal.isNull() ? "" : String.valueOf(ExprCompiler.literal(literal).value());
    }

    /** The order STRING_AGG and ARRAY_AGG collect in: none, or by their own argument. */
    private static AggregateCall.Order collectOrder(org.apache.calcite.rel.core.AggregateCall call, int argument) {
        List<RelFieldCollation> keys = call.getCollation().getFieldCollations();
        if (keys.isEmpty()) {
            return AggregateCall.Order.NONE;
        }
        if (keys.size() > 1 || keys.getFirst().getFieldIndex() != argument) {
            throw unsupported(call.getAggregation().getName() + " ordered by anything but its own argument is");
        }
        RelFieldCollation key = keys.getFirst();
        boolean descending = key.getDirection().isDescending();
        boolean nullsFirst = switch (key.nullDirection) {
            case FIRST -> true;
            case LAST -> false;
            default -> descending;
        };
        if (descending) {
            return nullsFirst ? AggregateCall.Order.DESCENDING : AggregateCall.Order.DESCENDING_NULLS_LAST;
        }
        return nullsFirst ? AggregateCall.Order.ASCENDING_NULLS_FIRST : AggregateCall.Order.ASCENDING;
    }

    /** Rewrites input references of {@code node} to the expressions they stand for. */
    static RexNode substitute(RexNode node, List<RexNode> inputs) {
        return node.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return inputs.get(ref.getIndex());
            }
        });
    }

    private static LocusSqlException unsupported(String what) {
        return new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, what + " not supported yet");
    }
}
