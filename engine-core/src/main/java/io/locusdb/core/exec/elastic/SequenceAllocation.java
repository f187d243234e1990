package io.locusdb.core.exec.elastic;

import java.util.ArrayList;
import java.util.List;

/**
 * The two static modes of the elastic-allocation paper, each a fixed order of cores: dense walks the cores of node
 * 0, then node 1, ... (fill a node first); sparse takes the first core of every node, then the second of every node,
 * ... (round-robin over nodes). Cores are added in that order and withdrawn in reverse.
 */
public final class SequenceAllocation implements CoreAllocationMode {
    private final String name;
    private final boolean dense;

    private SequenceAllocation(String name, boolean dense) {
        this.name = name;
        this.dense = dense;
    }

    public static SequenceAllocation dense() {
        return new SequenceAllocation("dense", true);
    }

    public static SequenceAllocation sparse() {
        return new SequenceAllocation("sparse", false);
    }

    List<Integer> order(CoreAllocation allocation) {
        List<Integer> order = new ArrayList<>(allocation.total());
        int nodes = allocation.nodeCount();
        if (dense) {
            for (int n = 0; n < nodes; n++) {
                for (int cpu : allocation.cpusOn(n)) {
                    order.add(cpu);
                }
            }
        } else {
            int[][] cpus = new int[nodes][];
            int widest = 0;
            for (int n = 0; n < nodes; n++) {
                cpus[n] = allocation.cpusOn(n);
                widest = Math.max(widest, cpus[n].length);
            }
            for (int j = 0; j < widest; j++) {
                for (int n = 0; n < nodes; n++) {
                    if (j < cpus[n].length) {
                        order.add(cpus[n][j]);
                    }
                }
            }
        }
        return order;
    }

    @Override
    public int nextToAllocate(CoreAllocation allocation, long[] activity) {
        for (int cpu : order(allocation)) {
            if (!allocation.isAllocated(cpu)) {
                return cpu;
            }
        }
        return -1;
    }

    @Override
    public int nextToWithdraw(CoreAllocation allocation, long[] activity) {
        if (allocation.allocatedCount() <= 1) {
            return -1;
        }
        List<Integer> order = order(allocation);
        for (int i = order.size() - 1; i >= 0; i--) {
            if (allocation.isAllocated(order.get(i))) {
                return order.get(i);
            }
        }
        return -1;
    }

    @Override
    public String name() {
        return name;
    }
}
