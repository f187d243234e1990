package io.locusdb.core.exec.elastic;

/**
 * Where the next core comes from and which one goes first. {@code activity} holds, per node, how much of the
 * active data lives there (bytes the node's tasks touched recently, or resident pages); only the adaptive mode
 * uses it.
 */
public interface CoreAllocationMode {
    /** CPU to allocate next, or -1 when every core is allocated. */
    int nextToAllocate(CoreAllocation allocation, long[] activity);

    /** CPU to withdraw next, or -1 when only one core is left. */
    int nextToWithdraw(CoreAllocation allocation, long[] activity);

    String name();
}
