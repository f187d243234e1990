package io.locusdb.natives.memory;

import java.util.Arrays;

/**
 * Bytes of live {@link NodeSegment}s per logical node, by policy: bound and preferred segments count on their node,
 * interleaved ones are split evenly, local ones count on the node of the allocating thread.
 */
public record NodeMemoryUsage(long[] bytesByNode, long liveSegments) {
    public long bytesOnNode(int node) {
        return bytesByNode[node];
    }

    public long totalBytes() {
        return Arrays.stream(bytesByNode).sum();
    }
}
