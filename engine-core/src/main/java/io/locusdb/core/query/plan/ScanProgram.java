package io.locusdb.core.query.plan;

import io.locusdb.core.query.Batch;
import io.locusdb.core.query.ColumnVector;
import io.locusdb.core.query.MaterializeJob;
import io.locusdb.core.query.PredicateExtractor;
import io.locusdb.core.query.ScanPredicate;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.ExprCompiler;
import io.locusdb.core.query.expr.SqlTypes;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.type.ColumnType;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexVisitorImpl;

/**
 * What the tasks of one scan do: the ranges phase 1 evaluates on packed codes, the table columns phase 2 decodes,
 * and the residual filter and output expressions over those decoded columns. Each task compiles its own kernels
 * ({@link #kernels()}), since kernels own their buffers.
 */
public final class ScanProgram {
    private final List<ScanPredicate> ranges;
    private final int[] columns;
    private final RexNode residual;
    private final List<RexNode> outputs;
    private final List<String> inputNames;
    private final List<ColumnType> outputTypes;
    private final RexBuilder rex;
    private final int batchRows;

    public ScanProgram(PhysicalPlan.Scan scan, List<RexNode> outputs, RexBuilder rex, int batchRows) {
        Schema schema = scan.table().schema();
        this.rex = rex;
        this.batchRows = batchRows;
        RexNode rest = null;
        List<ScanPredicate> pushed = List.of();
        if (scan.condition() != null) {
            PredicateExtractor.Extracted extracted = PredicateExtractor.extract(scan.condition(), schema, rex);
            pushed = extracted.ranges();
            rest = extracted.residual();
        }
        this.ranges = pushed;
        TreeSet<Integer> used = new TreeSet<>();
        collect(rest, used);
        outputs.forEach(o -> collect(o, used));
        if (used.isEmpty()) {
            // Counting rows still needs one column to count in.
            used.add(0);
        }
        this.columns = used.stream().mapToInt(Integer::intValue).toArray();
        int[] position = new int[schema.size()];
        List<String> names = new ArrayList<>();
        for (int i = 0; i < columns.length; i++) {
            position[columns[i]] = i;
            names.add(schema.column(columns[i]).name());
        }
        this.inputNames = names;
        this.residual = remap(rest, position);
        this.outputs = outputs.stream().map(o -> remap(o, position)).toList();
        this.outputTypes = outputs.stream().map(o -> SqlTypes.of(o.getType())).toList();
    }

    private static void collect(RexNode node, TreeSet<Integer> used) {
        if (node == null) {
            return;
        }
        node.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitInputRef(RexInputRef ref) {
                used.add(ref.getIndex());
                return null;
            }
        });
    }

    private static RexNode remap(RexNode node, int[] position) {
        if (node == null) {
            return null;
        }
        return node.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(position[ref.getIndex()], ref.getType());
            }
        });
    }

    public List<ScanPredicate> ranges() {
        return ranges;
    }

    public MaterializeJob.Columns columns(boolean encodeStrings) {
        return new MaterializeJob.Columns(columns, encodeStrings, batchRows);
    }

    public int[] tableColumns() {
        return columns;
    }

    public List<String> inputNames() {
        return inputNames;
    }

    public RexNode residual() {
        return residual;
    }

    public List<RexNode> outputs() {
        return outputs;
    }

    public List<ColumnType> outputTypes() {
        return outputTypes;
    }

    public Kernels kernels() {
        List<RexNode> all = new ArrayList<>(outputs);
        all.add(residual);
        ExprCompiler compiler = new ExprCompiler(rex, inputNames).sharing(all);
        return new Kernels(residual == null ? null : compiler.compile(residual),
                compiler.compileAll(outputs).toArray(Expr[]::new), batchRows);
    }

    /** One task's compiled residual filter and outputs. */
    public static final class Kernels {
        private final Expr residual;
        private final Expr[] outputs;
        private final ColumnVector[] results;
        private int[] selected;

        Kernels(Expr residual, Expr[] outputs, int batchRows) {
            this.residual = residual;
            this.outputs = outputs;
            this.results = new ColumnVector[outputs.length];
            this.selected = new int[batchRows];
        }

        public Expr[] outputs() {
            return outputs;
        }

        /**
         * Filters the batch in place by the residual and evaluates the outputs; returns the surviving row count,
         * the outputs in {@link #results()}.
         */
        public int apply(Batch batch) {
            int rows = batch.rows();
            ColumnVector[] inputs = batch.columns().toArray(ColumnVector[]::new);
            if (residual != null && rows > 0) {
                ColumnVector keep = residual.eval(inputs, rows);
                if (selected.length < rows) {
                    selected = new int[rows];
                }
                int n = Selection.trueRows(keep, rows, selected);
                if (n < rows) {
                    for (ColumnVector v : inputs) {
                        v.compact(selected, n);
                    }
                    rows = n;
                }
            }
            for (int i = 0; i < outputs.length; i++) {
                results[i] = rows == 0 ? null : outputs[i].eval(inputs, rows);
            }
            return rows;
        }

        public ColumnVector[] results() {
            return results;
        }
    }
}
