package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.Chunk;
import java.util.ArrayList;
import java.util.List;

/**
 * GROUP BY: a local table per task, handed over by hash bucket as it outgrows the cache, and merged bucket by
 * bucket by parallel merge tasks on the input's nodes once the input is done ({@link AggregateMerge}). A second
 * aggregation grouping by some of the first one's keys ({@code then}) is finished by the same merge.
 */
public final class AggregateSink implements PipelineSink {
    private final PhysicalPlan.Aggregate aggregate;
    private final int[] keys;
    private final List<AggregateCall> calls;
    private final AggregateMerge merge;

    /**
     * {@code aggregate} as planned; {@code keys} and {@code calls} over the columns that reach the sink, of
     * {@code inputTypes} (a scan computes only those the aggregation reads); merge tasks go round-robin to
     * {@code nodes}.
     */
    AggregateSink(PipelineContext context, PhysicalPlan.Aggregate aggregate, int[] keys, List<AggregateCall> calls,
                  List<ColumnType> inputTypes, List<Integer> nodes, PhysicalPlan.Aggregate then) {
        this.aggregate = aggregate;
        List<ColumnType> keyTypes = new ArrayList<>();
        for (int k : keys) {
            keyTypes.add(inputTypes.get(k));
        }
        this.keys = keys;
        this.calls = calls;
        int mergeTasks = keys.length == 0 ? 1 : Math.max(1, context.executor().concurrencyHint());
        this.merge = new AggregateMerge(context.executor(), context.query(), mergeTasks, nodes, keyTypes, calls,
                context.trace());
        if (then != null) {
            merge.then(then);
        }
    }

    @Override
    public String describe() {
        return "hash aggregate into " + keys.length + " key" + (keys.length == 1 ? "" : "s")
                + " (local tables merged by bucket)";
    }

    @Override
    public TaskStep local() {
        AggregateMerge.Local local = merge.local(keys, calls);
        return new TaskStep() {
            @Override
            public void push(TaskContext ctx, Chunk chunk) {
                local.add(ctx, chunk);
            }

            @Override
            public void finish(TaskContext ctx) {
                local.finish(ctx);
            }
        };
    }

    @Override
    public Relation result() {
        return merge.relation(aggregate);
    }
}
