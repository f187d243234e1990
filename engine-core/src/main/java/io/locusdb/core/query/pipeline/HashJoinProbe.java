package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.ExprCopier;
import io.locusdb.core.query.join.JoinHashTable;
import io.locusdb.core.query.join.JoinProber;
import io.locusdb.core.query.join.JoinType;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.Chunk;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The probe of one hash join, built by {@link HashJoinBuild} before the pipeline starts: one table, one per node
 * (copies of its index), or one per table-group part when the join is co-partitioned. Build rows no probe matched
 * are emitted after the pipeline's tasks, where the join type keeps them ({@link #emitUnmatched}).
 */
public final class HashJoinProbe implements PipelineOperator {
    private final PhysicalPlan.Join join;
    private final boolean probeLeft;
    /** Every table built (copies not counted): where unmatched build rows are read. */
    private final JoinHashTable[] tables;
    /** The table the tasks reading a part of the source probe. */
    private final IntFunction<JoinHashTable> tableFor;
    private final List<ColumnType> probeTypes;
    private final List<ColumnType> buildTypes;

    HashJoinProbe(PhysicalPlan.Join join, JoinHashTable[] tables, IntFunction<JoinHashTable> tableFor) {
        this.join = join;
        this.probeLeft = join.probesLeft();
        this.tables = tables;
        this.tableFor = tableFor;
        this.probeTypes = (probeLeft ? join.left() : join.right()).types();
        this.buildTypes = (probeLeft ? join.right() : join.left()).types();
    }

    @Override
    public String describe() {
        return "hash join probe (" + join.type() + ", " + tables.length + " table" + (tables.length == 1 ? "" : "s")
                + ", " + tables[0].rows() + (tables.length == 1 ? "" : "+") + " build rows)";
    }

    PhysicalPlan.Join join() {
        return join;
    }

    /** Every table built: one, or one per co-partitioned part. */
    JoinHashTable[] tables() {
        return tables;
    }

    /** Whether build rows come out once every probe is done (see {@link #emitUnmatched}). */
    boolean keepsUnmatchedBuild() {
        return join.emitsBuildRowsAfterProbes();
    }

    /** Whether a probe row that matches no build row leaves the join (not null-extended, not anti-joined). */
    boolean dropsUnmatchedProbeRows() {
        return dropsUnmatchedProbeRows(join);
    }

    /** Whether {@code join}'s probe rows that match nothing leave it (the condition for filtering them early). */
    static boolean dropsUnmatchedProbeRows(PhysicalPlan.Join join) {
        boolean keepsProbe = join.probesLeft() ? join.type().keepsUnmatchedLeft()
                : join.type().keepsUnmatchedRight();
        // An ANTI join that probes its left side keeps the probe rows that match nothing.
        return !keepsProbe && !(join.type() == JoinType.ANTI && join.probesLeft());
    }

    /** The probe side's key columns, as the operator's input numbers them. */
    int[] probeKeys() {
        return probeLeft ? join.leftKeys() : join.rightKeys();
    }

    /** The table the tasks reading part {@code part} of the source probe. */
    JoinHashTable tableFor(int part) {
        return tableFor.apply(part);
    }

    private JoinProber prober(JoinHashTable table, JoinProber.Output output, Runnable checkpoint) {
        // Each task evaluates its own copy of the residual: expressions keep buffers.
        Expr residual = ExprCopier.forTask().copy(join.residual());
        return new JoinProber(table, join.type(), probeLeft, probeKeys(), residual, probeTypes, buildTypes, output,
                checkpoint);
    }

    @Override
    public TaskStep open(TaskStep next, int part) {
        JoinHashTable table = tableFor.apply(part);
        return new TaskStep() {
            private TaskContext current;
            private final JoinProber prober = prober(table, joined -> next.push(current, joined),
                    () -> current.checkCancelled());

            @Override
            public void push(TaskContext ctx, Chunk chunk) {
                current = ctx;
                prober.probe(chunk);
            }

            @Override
            public void finish(TaskContext ctx) {
                next.finish(ctx);
            }
        };
    }

    /**
     * Every table's build rows that come out after the probes into {@code next}: those no probe row matched,
     * null-extended (outer joins), or the matched (SEMI) or unmatched (ANTI) ones of a join that built its left side.
     */
    void emitUnmatched(TaskContext ctx, TaskStep next) {
        for (JoinHashTable table : tables) {
            prober(table, joined -> next.push(ctx, joined), ctx::checkCancelled).emitUnmatchedBuildRows();
        }
    }
}
