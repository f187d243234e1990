package io.locusdb.bench.sim;

import io.locusdb.core.exec.TaskClass;

/** One task of a simulated query: what it costs, whose data it reads, and its progress while it runs. */
final class SimTask {
    final TaskClass taskClass;
    final SimQuery query;
    final SimTable.Part part;
    /** Node whose queue holds the task: the node of its data when it was created, unless the layout binds it. */
    final int homeNode;
    final double cpuMicros;
    final double bytes;
    final long sequence;

    int worker = -1;
    /** Index in the simulator's list of running tasks. */
    int slot;
    /** This task's own streaming bandwidth from its data, and the path it reads over (-1: local). */
    double cap;
    int path;
    /** Node the data is read from while it runs. */
    int dataNode;
    double remaining = 1;
    /** Fraction of the task done per microsecond at the current bandwidth grant. */
    double speed;
    /** Bytes per microsecond the memory system grants the task now. */
    double grant;
    double updatedAt;
    double startedAt;
    long version;
    /** Whether the task runs on its data's node (accounted to the part's histories). */
    boolean local;
    long trackedBytesPerSecond;

    SimTask(TaskClass taskClass, SimQuery query, SimTable.Part part, int homeNode, double cpuMicros, double bytes,
            long sequence) {
        this.taskClass = taskClass;
        this.query = query;
        this.part = part;
        this.homeNode = homeNode;
        this.cpuMicros = cpuMicros;
        this.bytes = bytes;
        this.sequence = sequence;
    }

    /** Time to finish alone at bandwidth {@code bytesPerMicro}. */
    double timeAt(double bytesPerMicro) {
        return cpuMicros + (bytes > 0 ? bytes / bytesPerMicro : 0);
    }

    /** Bytes per microsecond it asks of memory when granted {@code bytesPerMicro}. */
    double demandAt(double bytesPerMicro) {
        return bytes > 0 ? bytes / timeAt(bytesPerMicro) : 0;
    }
}
