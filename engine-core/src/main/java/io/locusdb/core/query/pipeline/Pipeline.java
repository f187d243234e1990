package io.locusdb.core.query.pipeline;

/**
 * A source, the operators its chunks flow through, and the sink where they end: one pipeline. Running it runs the
 * source's tasks (each through its own steps of the operators and its own local state of the sink), then finalizes
 * the sink, whose result is the source of the next pipeline.
 */
public record Pipeline(OperatorChain chain, PipelineSink sink) {
    public Relation run() {
        chain.run(part -> sink.local(), sink.describe());
        return sink.result();
    }
}
