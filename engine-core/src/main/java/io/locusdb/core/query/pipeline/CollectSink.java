package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.MemoryBudget;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.Chunk;
import java.util.List;

/** Every row, appended to one relation charged to the query's memory (what follows, e.g. a sort, needs them all). */
public final class CollectSink implements PipelineSink {
    private final Relation relation;

    public CollectSink(List<ColumnType> types, List<String> names, MemoryBudget memory) {
        this.relation = Relation.empty(types, names).chargedTo(memory);
    }

    @Override
    public String describe() {
        return "collect the rows";
    }

    @Override
    public TaskStep local() {
        return new TaskStep() {
            @Override
            public void push(TaskContext ctx, Chunk chunk) {
                synchronized (relation) {
                    relation.append(chunk);
                }
            }

            @Override
            public void finish(TaskContext ctx) {
            }
        };
    }

    @Override
    public Relation result() {
        return relation;
    }
}
