package io.locusdb.natives.thread;

import io.locusdb.natives.ffm.LibC;
import io.locusdb.natives.topology.CpuSet;
import io.locusdb.natives.topology.ProcessLimits;
import io.locusdb.natives.topology.Topology;

/**
 * Pins the calling thread to CPUs or to a node of a {@link Topology}, and tells where it runs. Pinning acts on real
 * CPUs for every topology kind (a fake topology's virtual node is a set of real CPUs).
 */
public final class ThreadPinning {
    private static final int MASK_WORDS = 16; // 1024 CPUs, glibc's cpu_set_t

    private final Topology topology;

    public ThreadPinning(Topology topology) {
        this.topology = topology;
    }

    public void pinCurrentThread(CpuSet cpus) {
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("cannot pin a thread to an empty CPU set");
        }
        if (!topology.cpus().intersect(cpus).equals(cpus)) {
            throw new IllegalArgumentException("CPUs " + cpus + " are not all in this topology's CPUs "
                    + topology.cpus());
        }
        LibC.schedSetAffinity(cpus.toMaskWords(Math.max(MASK_WORDS, (cpus.limit() + 63) / 64)));
    }

    public void pinCurrentThreadToCpu(int cpu) {
        pinCurrentThread(CpuSet.of(cpu));
    }

    public void pinCurrentThreadToNode(int node) {
        pinCurrentThread(topology.node(node).cpus());
    }

    /** The calling thread's current affinity mask. */
    public CpuSet currentAffinity() {
        return ProcessLimits.allowedCpus();
    }

    /** The CPU the calling thread runs on right now (it may migrate right after unless pinned). */
    public static int currentCpu() {
        return LibC.schedGetCpu();
    }

    /** The logical node of the CPU the calling thread runs on; -1 if that CPU is outside the topology. */
    public int currentNode() {
        return topology.nodeOfCpu(LibC.schedGetCpu());
    }
}
