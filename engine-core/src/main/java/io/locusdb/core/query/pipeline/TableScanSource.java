package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.query.expr.InputRef;
import io.locusdb.core.query.join.JoinHashTable;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.query.scan.MaterializeJob;
import io.locusdb.core.query.scan.ScanPredicate;
import io.locusdb.core.query.scan.ScanPipeline;
import io.locusdb.core.query.scan.ValueSet;
import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A table scan whose materialize tasks run the pipeline on the nodes of the parts they decode: phase 1 finds the
 * rows in the pushed-down ranges on packed codes, the scan program decodes and computes its outputs, and each task
 * pushes its batches into its own steps. Where the first operator is a join probe or the sink a top-N, the tasks
 * test the codes of one column against what can still pass before decoding anything else.
 */
public final class TableScanSource implements PipelineSource {
    private final PipelineContext context;
    private final PhysicalPlan.Scan scan;
    private final ScanProgram program;
    private final TableSnapshot snapshot;
    /** The join whose probe takes the scan's rows first, if one of its keys lets rows be dropped by code. */
    private HashJoinProbe probe;
    /** Per probe key the scan decodes: the key's number and the position of its column among those decoded. */
    private final List<int[]> probeKeyColumns = new ArrayList<>();
    private MaterializeJob.IdFilter[] idFilters;
    /** The probe's key the scan may read through the table's key index instead of whole; null if none. */
    private IndexJoin indexJoin;
    private HashJoinProbe indexJoinProbe;
    /** Whether each chunk pushed carries, after the outputs, the rows' positions ({@link #withPositions}). */
    private boolean positions;

    /** A scan of {@code scan}'s table as it stands now, computing what {@code program} says. */
    TableScanSource(PipelineContext context, PhysicalPlan.Scan scan, ScanProgram program) {
        this(context, scan, program, context.snapshot(scan.table()));
    }

    /** As above, of a snapshot already taken (a co-partitioned join's, checked against its build side's). */
    TableScanSource(PipelineContext context, PhysicalPlan.Scan scan, ScanProgram program, TableSnapshot snapshot) {
        this.context = context;
        this.scan = scan;
        this.program = program;
        this.snapshot = snapshot;
    }

    /**
     * Makes every chunk this scan pushes carry one more column after its outputs: BIGINT, each row's part in the
     * upper 32 bits and its position in that part ({@link MaterializeJob#DELTA_ROW} marking a delta row) in the lower,
     * so that the consumer can read the rest of the rows it keeps later, from {@link #snapshot()}.
     */
    TableScanSource withPositions() {
        this.positions = true;
        return this;
    }

    /** The table's parts this scan reads (held until the pipeline's context closes). */
    TableSnapshot snapshot() {
        return snapshot;
    }

    /**
     * {@code probe} takes this scan's rows first. If it drops rows without a match and one of its keys is a
     * column the scan decodes, the materialize tasks test that column's codes against the IDs of the build keys'
     * values in the part's dictionary before decoding anything else.
     */
    void probedBy(HashJoinProbe probe) {
        if (!probe.dropsUnmatchedProbeRows()) {
            return;
        }
        indexJoin = IndexJoin.of(scan, probe.join());
        indexJoinProbe = indexJoin == null ? null : probe;
        int[] keys = probe.probeKeys();
        int[] decoded = program.tableColumns();
        for (int k = 0; k < keys.length; k++) {
            if (scan.outputs().get(keys[k]) instanceof InputRef ref) {
                for (int i = 0; i < decoded.length; i++) {
                    if (decoded[i] == ref.index()) {
                        probeKeyColumns.add(new int[] {k, i});
                        break;
                    }
                }
            }
        }
        if (!probeKeyColumns.isEmpty()) {
            this.probe = probe;
            this.idFilters = new MaterializeJob.IdFilter[snapshot.parts().size()];
        }
    }

    /**
     * Part {@code part}'s filter, computed by the first of its tasks to ask: of the keys that have one, the key
     * whose build values hold the smallest share of the part's dictionary. Null when there is none.
     */
    private MaterializeJob.IdFilter idFilter(int part) {
        if (probe == null || part < 0) {
            return null;
        }
        synchronized (idFilters) {
            if (idFilters[part] == null) {
                JoinHashTable table = probe.tableFor(part);
                MaterializeJob.IdFilter best = new MaterializeJob.IdFilter(-1, null);
                double bestShare = 1;
                for (int[] keyColumn : probeKeyColumns) {
                    Column column = snapshot.parts().get(part).column(program.tableColumns()[keyColumn[1]]);
                    if (column.dictionary() instanceof LongDictionary dictionary) {
                        long[] allowed = table.allowedIds(keyColumn[0], dictionary);
                        double share = allowed == null ? 1 : (double) bitCount(allowed) / dictionary.size();
                        if (share < bestShare) {
                            best = new MaterializeJob.IdFilter(keyColumn[1], allowed);
                            bestShare = share;
                        }
                    }
                }
                // No filter is remembered as a filter of no column, so it is not computed again.
                idFilters[part] = best;
            }
            return idFilters[part].column() < 0 ? null : idFilters[part];
        }
    }

    private static long bitCount(long[] bits) {
        long count = 0;
        for (long word : bits) {
            count += Long.bitCount(word);
        }
        return count;
    }

    @Override
    public void run(IntFunction<TaskStep> chains) {
        start(chains).await();
    }

    /** Submits the scan's tasks without waiting for them. */
    GraphHandle start(IntFunction<TaskStep> chains) {
        MaterializeJob.Columns decoded = program.columns(true);
        if (positions) {
            decoded = new MaterializeJob.Columns(decoded.columns(), true, decoded.batchRows(), true);
        }
        return ScanPipeline.submit(context.executor(), context.query(), snapshot, ranges(),
                decoded, part -> {
                    ScanProgram.Kernels kernels = program.kernels();
                    TaskStep head = chains.apply(part);
                    int outputs = program.outputs().size();
                    ColumnVector[] withPositions = positions ? new ColumnVector[outputs + 1] : null;
                    long partTag = (long) part << 32;
                    MaterializeJob.IdFilter joinFilter = idFilter(part);
                    MaterializeJob.IdFilter filter = joinFilter == null
                            && PipelineProfile.unwrap(head) instanceof TopNSink.Local topN
                            ? topN.codeFilter(snapshot.parts().get(part), scan, program) : joinFilter;
                    return new MaterializeJob.BatchConsumer() {
                        @Override
                        public void accept(TaskContext ctx, Chunk batch) {
                            Chunk out = kernels.apply(batch);
                            if (out.rows() > 0) {
                                head.push(ctx, withPositions == null ? out : positioned(out, batch));
                            }
                        }

                        /** The outputs and, last, the positions the residual filter left (compacted with the rest). */
                        private Chunk positioned(Chunk out, Chunk batch) {
                            ColumnVector at = batch.vectors()[batch.vectors().length - 1];
                            long[] values = at.longs();
                            for (int i = 0; i < out.rows(); i++) {
                                values[i] |= partTag;
                            }
                            System.arraycopy(out.vectors(), 0, withPositions, 0, outputs);
                            withPositions[outputs] = at;
                            return new Chunk(withPositions, out.rows());
                        }

                        @Override
                        public MaterializeJob.IdFilter idFilter() {
                            return filter;
                        }

                        @Override
                        public void finish(TaskContext ctx) {
                            head.finish(ctx);
                        }
                    };
                }, context.trace(), context.partTargets());
    }

    /** The program's pushed-down ranges, led by the build keys when the scan serves an index join. */
    private List<? extends ScanPredicate> ranges() {
        ValueSet keys = indexJoin == null ? null : indexJoin.keys(indexJoinProbe.tables(), snapshot.visibleRows());
        if (keys == null) {
            return program.ranges();
        }
        List<ScanPredicate> ranges = new ArrayList<>();
        ranges.add(keys);
        ranges.addAll(program.ranges());
        return ranges;
    }

    @Override
    public String describe() {
        return "scan of " + scan.table().name() + " (" + snapshot.parts().size() + " part"
                + (snapshot.parts().size() == 1 ? "" : "s") + (indexJoin == null ? "" : ", index join on "
                + scan.table().schema().column(indexJoin.tableColumn()).name() + " when the build keys are few")
                + ")";
    }

    @Override
    public List<Integer> nodes() {
        return snapshot.parts().stream().map(TablePart::homeNode).distinct().sorted().toList();
    }

    @Override
    public int nodeOf(int part) {
        return part < 0 ? -1 : snapshot.parts().get(part).homeNode();
    }
}
