package io.locusdb.natives.topology;

/**
 * One node of a {@link Topology}.
 *
 * @param id            dense logical id, 0..n-1 within its topology; every LocusDB API takes these
 * @param physicalNode  the operating system's node id that memory for this node is bound to
 * @param cpus          CPUs of this node that the process may run on
 * @param memoryBytes   memory of the node usable by this process (0 if its memory is not allowed)
 * @param freeBytes     free memory at discovery time
 */
public record NumaNode(int id, int physicalNode, CpuSet cpus, long memoryBytes, long freeBytes) {
    public NumaNode {
        if (id < 0 || physicalNode < 0) {
            throw new IllegalArgumentException("node ids are non-negative: id=" + id + ", physical=" + physicalNode);
        }
    }
}
