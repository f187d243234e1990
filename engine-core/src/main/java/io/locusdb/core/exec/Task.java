package io.locusdb.core.exec;

import java.util.concurrent.atomic.AtomicInteger;

/** The run-time instance of a graph node: readiness, its pool ordering key, and where it was meant to run. */
final class Task {
    /** Preferred node of a task that reads no node-bound data. */
    static final int ANY_NODE = TaskGraph.ANY_NODE;

    final TaskGraph.Node node;
    final GraphRun run;
    final AtomicInteger pendingPredecessors;
    Task[] successors;
    /** Ordering key inside a pool: smaller first. */
    long key;
    /** FIFO among equal keys. */
    long sequence;
    /** Node whose pool or root queue it was queued to; the node that "owns" it for stealing purposes. */
    int queuedNode;
    boolean reissue;

    Task(TaskGraph.Node node, GraphRun run) {
        this.node = node;
        this.run = run;
        this.pendingPredecessors = new AtomicInteger(node.predecessors.size());
    }

    TaskClass taskClass() {
        return node.taskClass;
    }

    int preferredNode() {
        return node.preferredNode;
    }

    @Override
    public String toString() {
        return node.toString();
    }
}
