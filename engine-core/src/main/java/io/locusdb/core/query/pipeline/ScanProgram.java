package io.locusdb.core.query.pipeline;

import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.query.scan.MaterializeJob;
import io.locusdb.core.query.scan.ScanPredicate;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.ExprCopier;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.type.ColumnType;
import java.util.ArrayList;
import java.util.List;

/**
 * What the tasks of one scan do: the ranges phase 1 evaluates on packed codes, the table columns phase 2 decodes,
 * and the residual filter and output expressions renumbered to those decoded columns. The expressions are the
 * plan's, compiled once; each task evaluates its own copy ({@link #kernels()}), since expressions own their
 * buffers.
 */
public final class ScanProgram {
    private final List<ScanPredicate> ranges;
    private final int[] columns;
    private final Expr residual;
    private final List<Expr> outputs;
    private final List<String> inputNames;
    private final List<ColumnType> outputTypes;
    private final int batchRows;

    /** The scan producing all of its outputs. */
    public ScanProgram(PhysicalPlan.Scan scan, int batchRows) {
        this(scan, scan.outputs(), batchRows);
    }

    /** The scan producing {@code outputs}, some of its own (a consumer that reads fewer columns). */
    public ScanProgram(PhysicalPlan.Scan scan, List<Expr> outputs, int batchRows) {
        Schema schema = scan.table().schema();
        this.batchRows = batchRows;
        this.ranges = scan.ranges();
        List<Expr> all = new ArrayList<>(outputs);
        if (scan.residual() != null) {
            all.add(scan.residual());
        }
        int[] used = ExprCopier.inputsOf(all);
        // Counting rows still needs one column to count in.
        this.columns = used.length == 0 ? new int[] {0} : used;
        int[] position = new int[schema.size()];
        List<String> names = new ArrayList<>();
        for (int i = 0; i < columns.length; i++) {
            position[columns[i]] = i;
            names.add(schema.column(columns[i]).name());
        }
        this.inputNames = names;
        ExprCopier renumber = ExprCopier.renumbering(i -> position[i]);
        this.residual = renumber.copy(scan.residual());
        this.outputs = renumber.copyAll(outputs);
        this.outputTypes = outputs.stream().map(Expr::type).toList();
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

    public Expr residual() {
        return residual;
    }

    public List<Expr> outputs() {
        return outputs;
    }

    public List<ColumnType> outputTypes() {
        return outputTypes;
    }

    /** One task's copy of the residual and the outputs, with its buffers. */
    public Kernels kernels() {
        ExprCopier copier = ExprCopier.forTask();
        return new Kernels(copier, copier.copy(residual), copier.copyAll(outputs).toArray(Expr[]::new),
                batchRows);
    }

    /** One task's residual filter and outputs. */
    public static final class Kernels {
        private final ExprCopier copies;
        private final Expr residual;
        private final Expr[] outputs;
        private final ColumnVector[] results;
        private final Chunk out;
        private int[] selected;

        Kernels(ExprCopier copies, Expr residual, Expr[] outputs, int batchRows) {
            this.copies = copies;
            this.residual = residual;
            this.outputs = outputs;
            this.results = new ColumnVector[outputs.length];
            this.out = new Chunk(results, 0);
            this.selected = new int[batchRows];
        }

        public Expr[] outputs() {
            return outputs;
        }

        /**
         * Filters the chunk in place by the residual and evaluates the outputs: a chunk of the task's own, valid
         * until the next call.
         */
        public Chunk apply(Chunk batch) {
            int rows = batch.rows();
            ColumnVector[] inputs = batch.vectors();
            copies.newChunk();
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
                    copies.newChunk();
                }
            }
            for (int i = 0; i < outputs.length; i++) {
                results[i] = rows == 0 ? null : outputs[i].eval(inputs, rows);
            }
            out.rows(rows);
            return out;
        }
    }
}
