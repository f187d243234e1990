package io.locusdb.core.exec.elastic;

import io.locusdb.natives.topology.Topology;
import java.util.Arrays;

/**
 * Which CPUs the executor may use right now. Thread-safe: the controller changes it, workers read it before each
 * task to learn whether their core was withdrawn.
 */
public final class CoreAllocation {
    private final int[][] cpusByNode;
    private final int[] nodeOfCpu;
    /** 1 = allocated. Read lock-free on the workers' hot path; changed under this object's monitor. */
    private final java.util.concurrent.atomic.AtomicIntegerArray allocated;
    private final java.util.concurrent.atomic.AtomicIntegerArray perNode;
    private final int total;
    private volatile int allocatedCount;

    public CoreAllocation(Topology topology) {
        int nodes = topology.nodeCount();
        this.cpusByNode = new int[nodes][];
        int limit = 0;
        int count = 0;
        for (int n = 0; n < nodes; n++) {
            cpusByNode[n] = topology.node(n).cpus().toArray();
            count += cpusByNode[n].length;
            for (int cpu : cpusByNode[n]) {
                limit = Math.max(limit, cpu + 1);
            }
        }
        this.nodeOfCpu = new int[limit];
        Arrays.fill(nodeOfCpu, -1);
        for (int n = 0; n < nodes; n++) {
            for (int cpu : cpusByNode[n]) {
                nodeOfCpu[cpu] = n;
            }
        }
        this.allocated = new java.util.concurrent.atomic.AtomicIntegerArray(limit);
        this.perNode = new java.util.concurrent.atomic.AtomicIntegerArray(nodes);
        this.total = count;
    }

    public int nodeCount() {
        return cpusByNode.length;
    }

    public int total() {
        return total;
    }

    public int allocatedCount() {
        return allocatedCount;
    }

    public int coresOn(int node) {
        return cpusByNode[node].length;
    }

    public int[] cpusOn(int node) {
        return cpusByNode[node].clone();
    }

    public boolean isAllocated(int cpu) {
        return cpu >= 0 && cpu < allocated.length() && allocated.get(cpu) == 1;
    }

    public int allocatedOn(int node) {
        return perNode.get(node);
    }

    public int[] allocatedPerNode() {
        int[] counts = new int[cpusByNode.length];
        for (int n = 0; n < counts.length; n++) {
            counts[n] = perNode.get(n);
        }
        return counts;
    }

    /** Allocates a specific CPU; returns false if it already was. */
    public synchronized boolean allocate(int cpu) {
        if (cpu < 0 || cpu >= nodeOfCpu.length || nodeOfCpu[cpu] < 0) {
            throw new IllegalArgumentException("CPU " + cpu + " is not in the topology");
        }
        if (allocated.get(cpu) == 1) {
            return false;
        }
        allocated.set(cpu, 1);
        perNode.incrementAndGet(nodeOfCpu[cpu]);
        allocatedCount++;
        return true;
    }

    /** Withdraws a specific CPU; the last one cannot go. Returns false if it was not allocated. */
    public synchronized boolean release(int cpu) {
        if (cpu < 0 || cpu >= allocated.length() || allocated.get(cpu) == 0) {
            return false;
        }
        if (allocatedCount == 1) {
            throw new IllegalStateException("the last allocated core cannot be withdrawn");
        }
        allocated.set(cpu, 0);
        perNode.decrementAndGet(nodeOfCpu[cpu]);
        allocatedCount--;
        return true;
    }

    /** The lowest free CPU of {@code node}, or -1. */
    public synchronized int firstFreeOn(int node) {
        for (int cpu : cpusByNode[node]) {
            if (allocated.get(cpu) == 0) {
                return cpu;
            }
        }
        return -1;
    }

    /** The highest allocated CPU of {@code node}, or -1. */
    public synchronized int lastAllocatedOn(int node) {
        int[] cpus = cpusByNode[node];
        for (int i = cpus.length - 1; i >= 0; i--) {
            if (allocated.get(cpus[i]) == 1) {
                return cpus[i];
            }
        }
        return -1;
    }

    public int nodeOf(int cpu) {
        return nodeOfCpu[cpu];
    }

    @Override
    public synchronized String toString() {
        return "allocated " + allocatedCount + "/" + total + " cores, per node " + Arrays.toString(allocatedPerNode());
    }
}
