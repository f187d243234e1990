package io.locusdb.core.storage.table;

import io.locusdb.natives.memory.MemoryPolicy;

/**
 * Where a table part lives: the node whose workers run its tasks ({@code homeNode}) and the memory policy of its
 * segments. They differ only for experiments (interleaved or deliberately remote "1-ahead" data).
 */
public record PartPlacement(int homeNode, MemoryPolicy memoryPolicy) {
    public static PartPlacement boundTo(int node) {
        return new PartPlacement(node, MemoryPolicy.bind(node));
    }
}
