package io.locusdb.core.query.planner;

import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.query.scan.ScanPredicate;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.table.ColumnDef;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * Compiles a {@link PlanDraft} into the {@link PhysicalPlan} that runs: every row expression into an {@link Expr}
 * tree (once per plan, not per task), every scan condition into the ranges phase 1 evaluates on packed codes and a
 * residual, sort collations and literal rows into LocusDB's own forms. After this step nothing refers to Calcite.
 */
final class PlanLowering {
    private PlanLowering() {
    }

    static PhysicalPlan lower(PlanDraft draft) {
        RexBuilder rex = draft.rex();
        PhysicalPlan.Source source;
        List<String> names;
        switch (draft.source()) {
            case PlanDraft.Scan scan -> {
                source = scan(scan, rex);
                names = scan.names();
            }
            case PlanDraft.Values values -> {
                source = values(values);
                names = values.names();
            }
            case PlanDraft.Rows rows -> {
                source = new PhysicalPlan.Rows(rows.table(), rows.rows(), rows.types(), rows.names());
                names = rows.names();
            }
            case PlanDraft.SetFunction function -> {
                source = new PhysicalPlan.SetFunction(function.function(),
                        new ExprCompiler(rex, List.of()).compileAll(function.args()), function.ordinality(),
                        function.types(), function.names());
                names = function.names();
            }
            case PlanDraft.Join join -> {
                source = join(join, rex);
                names = join.names();
            }
            case PlanDraft.Shared shared -> {
                PhysicalPlan inner = lower(shared.plan());
                source = new PhysicalPlan.Shared(shared.id(), inner);
                names = inner.columns().stream().map(ResultColumn::name).toList();
            }
            case PlanDraft.RepeatUnion repeat -> {
                source = new PhysicalPlan.RepeatUnion(lower(repeat.seed()), lower(repeat.step()), repeat.all(),
                        repeat.table(), repeat.limit(), repeat.names());
                names = repeat.names();
            }
            case PlanDraft.Lateral lateral -> {
                PhysicalPlan input = lower(lateral.input());
                source = new PhysicalPlan.Lateral(input, lateral.function(), new ExprCompiler(rex,
                        input.columns().stream().map(ResultColumn::name).toList()).compileAll(lateral.args()),
                        lateral.outer(), lateral.types(), lateral.names());
                names = lateral.names();
            }
            case PlanDraft.WorkingTable working -> {
                source = new PhysicalPlan.WorkingTable(working.table(), working.types(), working.names());
                names = working.names();
            }
            case PlanDraft.Union union -> {
                source = new PhysicalPlan.Union(union.inputs().stream().map(PlanLowering::lower).toList(),
                        union.names());
                names = union.names();
            }
        }
        List<PhysicalPlan.Op> ops = new ArrayList<>(draft.ops().size());
        for (PlanDraft.Op op : draft.ops()) {
            ExprCompiler compiler = new ExprCompiler(rex, names);
            switch (op) {
                case PlanDraft.Filter f -> ops.add(new PhysicalPlan.Filter(compiler.compile(f.condition())));
                case PlanDraft.Project p -> {
                    ops.add(new PhysicalPlan.Project(compiler.sharing(p.exprs()).compileAll(p.exprs()), p.names()));
                    names = p.names();
                }
                case PlanDraft.Aggregate a -> {
                    ops.add(new PhysicalPlan.Aggregate(a.keys(), a.calls(), a.outputTypes(), a.names()));
                    names = a.names();
                }
                case PlanDraft.Sort s -> ops.add(new PhysicalPlan.Sort(s.collations().stream()
                        .map(PlanLowering::sortKey).toList(), s.offset(), s.fetch()));
                case PlanDraft.Window w -> {
                    ops.add(w.window());
                    names = w.window().names();
                }
            }
        }
        return new PhysicalPlan(source, ops, draft.columns());
    }

    private static PhysicalPlan.Scan scan(PlanDraft.Scan scan, RexBuilder rex) {
        PredicateExtractor.Extracted extracted = PredicateExtractor.extract(scan.condition(), scan.table().schema(),
                rex);
        List<ScanPredicate> ranges = extracted.ranges();
        RexNode residual = extracted.residual();
        List<String> columns = scan.table().schema().columns().stream().map(ColumnDef::name).toList();
        List<RexNode> all = new ArrayList<>(scan.outputs());
        all.add(residual);
        // One compiler for the residual and the outputs: what they have in common is computed once per batch.
        ExprCompiler compiler = new ExprCompiler(rex, columns).sharing(all);
        Expr compiledResidual = residual == null ? null : compiler.compile(residual);
        return new PhysicalPlan.Scan(scan.table(), ranges, compiledResidual, compiler.compileAll(scan.outputs()),
                scan.names());
    }

    private static PhysicalPlan.Join join(PlanDraft.Join join, RexBuilder rex) {
        PhysicalPlan left = lower(join.left());
        PhysicalPlan right = lower(join.right());
        List<String> joined = new ArrayList<>(left.columns().stream().map(ResultColumn::name).toList());
        joined.addAll(right.columns().stream().map(ResultColumn::name).toList());
        Expr residual = join.residual() == null ? null : new ExprCompiler(rex, joined).compile(join.residual());
        return new PhysicalPlan.Join(left, right, join.type(), join.leftKeys(), join.rightKeys(), residual,
                join.names(), join.leftRows(), join.rightRows());
    }

    private static PhysicalPlan.Values values(PlanDraft.Values values) {
        List<Object[]> rows = new ArrayList<>(values.rows().size());
        for (List<RexNode> tuple : values.rows()) {
            Object[] row = new Object[tuple.size()];
            for (int c = 0; c < row.length; c++) {
                row[c] = ExprCompiler.literal((RexLiteral) tuple.get(c)).value();
            }
            rows.add(row);
        }
        return new PhysicalPlan.Values(rows, values.types(), values.names());
    }

    static PhysicalPlan.SortKey sortKey(RelFieldCollation c) {
        boolean descending = c.getDirection().isDescending();
        // Unspecified: NULL sorts as the largest value (ASC NULLS LAST, DESC NULLS FIRST), as in PostgreSQL.
        boolean nullsFirst = switch (c.nullDirection) {
            case FIRST -> true;
            case LAST -> false;
            default -> descending;
        };
        return new PhysicalPlan.SortKey(c.getFieldIndex(), descending, nullsFirst);
    }
}
