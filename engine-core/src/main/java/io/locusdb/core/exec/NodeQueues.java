package io.locusdb.core.exec;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The scheduler's state of one node: its task pools and root queue, the other nodes in the order its thieves try
 * them, its parked workers, and the counts of its workers by what they are doing.
 */
final class NodeQueues {
    final int node;
    final TaskPool[] pools;
    final RootQueue root;
    /** The other nodes, nearest first: thieves try close nodes before far ones. */
    final int[] stealOrder;
    final ConcurrentLinkedDeque<Worker> parked = new ConcurrentLinkedDeque<>();
    /** Workers running tasks (the node's share of the active concurrency level). */
    final AtomicInteger active = new AtomicInteger();
    /** Workers, those in executor waits, and those parked on withdrawn cores (see the scheduler's parking). */
    final AtomicInteger workers = new AtomicInteger();
    final AtomicInteger waiting = new AtomicInteger();
    final AtomicInteger withdrawn = new AtomicInteger();

    NodeQueues(int node, int poolsPerNode, double rootPriorityBias, RootOrder rootOrder, int[] stealOrder) {
        this.node = node;
        this.pools = new TaskPool[poolsPerNode];
        for (int k = 0; k < poolsPerNode; k++) {
            pools[k] = new TaskPool(node);
        }
        this.root = new RootQueue(node, rootPriorityBias, rootOrder, System::nanoTime);
        this.stealOrder = stealOrder;
    }
}
