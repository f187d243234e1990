package io.locusdb.core.placer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The Data Placer of the adaptive-placement paper (§6, Algorithms 1–3). Each period it takes the recent utilization
 * of every active unit (a unit with threads and memory throughput in use on its own node), sums it per node, and
 * goes through the pairs of nodes from the most to the least imbalanced CPU utilization: where the hotter node is
 * saturated and the imbalance is over the threshold, it moves a stable unit of the hot node to the cold one if that
 * lowers the imbalance without pushing the cold node past its memory throughput, and relieves the hot node by more
 * than the estimate's tolerance (not merely swapping which node is hot). Only when no pair allows a move
 * does it consider partitioning (doubling the owner's parts, at most one per node, half the unit going to the cold
 * node). When it changes nothing, it merges partitioned owners that were idle for as long as merging them takes
 * and puts the merged part on the coldest node.
 *
 * <p>A decision assumes the unit keeps its utilization where it goes (the worst case), so every decision lowers the
 * imbalance it acts on; units whose utilization changed recently ({@link #info}) wait until it settles.
 */
public final class AdaptiveDataPlacer implements PlacementPolicy {
    private final PlacerParameters p;

    public AdaptiveDataPlacer(PlacerParameters parameters) {
        this.p = parameters;
    }

    /** Algorithm 1's InfoRUH: a unit's recent utilization and whether it is stable enough to move or partition. */
    public record UnitInfo(PlacementUnit unit, double recentCpu, double recentMemory, boolean active,
                           boolean canMove, boolean canPartition) {
    }

    /** Algorithm 2's InfoSocket: a node's recent utilization, summed over its active units (hottest first). */
    public record NodeInfo(int node, double recentCpu, double recentMemory, List<UnitInfo> units) {
    }

    /** Algorithm 1. */
    public UnitInfo info(PlacementUnit unit, int nodes) {
        double recentCpu = unit.threads().recentAverage();
        double recentMemory = unit.memory().recentAverage();
        boolean active = recentCpu > 0 && recentMemory > 0;
        // Twice the time a move takes: the utilization has to come back after the move, too. At least two periods:
        // histories are discrete samples, and a window of one or two of them measures noise, not stability.
        long moveMicros = Math.max(2 * p.periodMicros(), (long) (unit.pages() * p.moveMicrosPerPage() * 2));
        boolean canMove = stable(unit, recentCpu, recentMemory, moveMicros);
        boolean canPartition = canMove && 2L * unit.parts() <= nodes;
        if (canPartition) {
            long partitionMicros = moveMicros + (long) (unit.pages() * p.partitionMicrosPerPage());
            canPartition = stable(unit, recentCpu, recentMemory, partitionMicros);
        }
        return new UnitInfo(unit, recentCpu, recentMemory, active, canMove, canPartition);
    }

    private boolean stable(PlacementUnit unit, double recentCpu, double recentMemory, long pastMicros) {
        double pastCpu = unit.threads().average(pastMicros);
        double pastMemory = unit.memory().average(pastMicros);
        return Math.abs(recentCpu - pastCpu) < p.eligibility() * recentCpu
                && Math.abs(recentMemory - pastMemory) < p.eligibility() * recentMemory;
    }

    /** The per-node snapshot of Algorithm 3's first lines: active units summed per node, hottest unit first. */
    public List<NodeInfo> snapshot(List<PlacementUnit> units, int nodes, Set<String> merging) {
        List<List<UnitInfo>> perNode = new ArrayList<>(nodes);
        for (int n = 0; n < nodes; n++) {
            perNode.add(new ArrayList<>());
        }
        for (PlacementUnit unit : units) {
            if (unit.node() < 0 || unit.node() >= nodes || merging.contains(unit.ownerKey())) {
                continue;
            }
            UnitInfo info = info(unit, nodes);
            if (info.active()) {
                perNode.get(unit.node()).add(info);
            }
        }
        List<NodeInfo> out = new ArrayList<>(nodes);
        for (int n = 0; n < nodes; n++) {
            List<UnitInfo> list = perNode.get(n);
            list.sort(Comparator.comparingDouble(UnitInfo::recentCpu).reversed());
            double cpu = list.stream().mapToDouble(UnitInfo::recentCpu).sum();
            double memory = list.stream().mapToDouble(UnitInfo::recentMemory).sum();
            out.add(new NodeInfo(n, cpu, memory, List.copyOf(list)));
        }
        return out;
    }

    @Override
    public List<PlacerDecision> decide(List<PlacementUnit> units, int nodes, Set<String> merging) {
        List<NodeInfo> nodeInfos = snapshot(units, nodes, merging);
        List<NodeInfo[]> pairs = new ArrayList<>();
        for (int a = 0; a < nodes; a++) {
            for (int b = a + 1; b < nodes; b++) {
                pairs.add(new NodeInfo[] {nodeInfos.get(a), nodeInfos.get(b)});
            }
        }
        pairs.sort(Comparator.comparingDouble((NodeInfo[] pair) -> Math.abs(pair[0].recentCpu()
                - pair[1].recentCpu())).reversed());
        for (NodeInfo[] pair : pairs) {
            PlacerDecision move = reduceImbalance(pair[0], pair[1], false);
            if (move != null) {
                return List.of(move);
            }
        }
        for (NodeInfo[] pair : pairs) {
            PlacerDecision partition = reduceImbalance(pair[0], pair[1], true);
            if (partition != null) {
                return List.of(partition);
            }
        }
        return merges(units, nodeInfos, merging);
    }

    /** Algorithm 2: one move (or partition) that lowers the imbalance of a pair of nodes, or null. */
    private PlacerDecision reduceImbalance(NodeInfo a, NodeInfo b, boolean partition) {
        NodeInfo hot = a.recentCpu() >= b.recentCpu() ? a : b;
        NodeInfo cold = hot == a ? b : a;
        double maxCpu = p.threadsPerNode();
        double imbalance = hot.recentCpu() - cold.recentCpu();
        if (!(hot.recentCpu() > p.saturation() * maxCpu && imbalance > p.imbalance() * maxCpu)) {
            return null;
        }
        for (UnitInfo unit : hot.units()) {
            if (!partition && unit.canMove()) {
                double hotAfter = hot.recentCpu() - unit.recentCpu();
                double coldAfter = Math.min(cold.recentCpu() + unit.recentCpu(), maxCpu);
                double coldMemory = cold.recentMemory() + unit.recentMemory();
                if (Math.abs(hotAfter - coldAfter) < imbalance && coldMemory <= p.maxMemoryPerNode()
                        && relievesHotNode(hot, hotAfter, coldAfter, unit.recentCpu())) {
                    return new PlacerDecision.Move(unit.unit(), cold.node(), reason(hot, cold, imbalance, unit,
                            "move: the imbalance drops to " + format(Math.abs(hotAfter - coldAfter))));
                }
            } else if (partition && unit.canPartition()) {
                double coldFree = maxCpu - cold.recentCpu();
                double half = Math.min(unit.recentCpu() / 2, coldFree);
                double hotAfter = hot.recentCpu() - unit.recentCpu() + half;
                double coldAfter = cold.recentCpu() + half;
                double coldMemory = cold.recentMemory() + unit.recentMemory() / 2;
                if (Math.abs(hotAfter - coldAfter) < imbalance && coldMemory <= p.maxMemoryPerNode()
                        && relievesHotNode(hot, hotAfter, coldAfter, half)) {
                    return new PlacerDecision.Partition(unit.unit(), 2 * unit.unit().parts(), cold.node(),
                            reason(hot, cold, imbalance, unit, "partition (no move lowers any imbalance): the"
                                    + " imbalance drops to " + format(Math.abs(hotAfter - coldAfter))));
                }
            }
        }
        return null;
    }

    /**
     * Whether the busier of the two nodes after the change is less busy than the hot node was by more than the
     * uncertainty of the estimate that moves ({@code c_e} of it: the same tolerance within which a unit's utilization
     * counts as unchanged). Algorithm 2 alone accepts any lower imbalance, so a unit about as heavy as the imbalance
     * itself would only swap which node is hot, and the next period would swap it back; on a 32-socket TPC-H mix
     * that ping-pong took every period once the big table group was spread, and the node it left hot was never
     * relieved by a partition.
     */
    private boolean relievesHotNode(NodeInfo hot, double hotAfter, double coldAfter, double moved) {
        return hot.recentCpu() - Math.max(hotAfter, coldAfter) > p.eligibility() * moved;
    }

    /** Algorithm 3's last step: partitioned owners idle for as long as merging them takes go to the coldest node. */
    private List<PlacerDecision> merges(List<PlacementUnit> units, List<NodeInfo> nodeInfos, Set<String> merging) {
        Map<String, List<PlacementUnit>> byOwner = new LinkedHashMap<>();
        for (PlacementUnit unit : units) {
            byOwner.computeIfAbsent(unit.ownerKey(), k -> new ArrayList<>()).add(unit);
        }
        NodeInfo coldest = nodeInfos.stream()
                .min(Comparator.comparingDouble(NodeInfo::recentCpu).thenComparingDouble(NodeInfo::recentMemory))
                .orElse(null);
        List<PlacerDecision> out = new ArrayList<>();
        for (Map.Entry<String, List<PlacementUnit>> owner : byOwner.entrySet()) {
            List<PlacementUnit> parts = owner.getValue();
            if (coldest == null || merging.contains(owner.getKey()) || parts.getFirst().parts() < 2) {
                continue;
            }
            long pages = parts.stream().mapToLong(PlacementUnit::pages).sum();
            long pastMicros = Math.max(2 * p.periodMicros(),
                    (long) (pages * p.moveMicrosPerPage() * 2 + pages * p.partitionMicrosPerPage()));
            // Parts whose histories are younger than the window (a repartition starts them anew) are not known to
            // be idle: merging them would undo the partition the moment it is done.
            boolean idle = parts.stream().allMatch(u -> u.threads().covers(pastMicros)
                    && u.threads().average(pastMicros) == 0 && u.memory().average(pastMicros) == 0);
            if (idle) {
                PlacementUnit first = parts.getFirst();
                out.add(new PlacerDecision.Merge(first.owner(), first.group(), first.parts(), coldest.node(),
                        new PlacerDecision.Reason(-1, 0, coldest.node(), coldest.recentCpu(), 0, 0, 0,
                                "merge: no use in the last " + pastMicros / 1000 + " ms; node " + coldest.node()
                                        + " is the coldest")));
            }
        }
        return out;
    }

    private static PlacerDecision.Reason reason(NodeInfo hot, NodeInfo cold, double imbalance, UnitInfo unit,
                                                String rule) {
        return new PlacerDecision.Reason(hot.node(), hot.recentCpu(), cold.node(), cold.recentCpu(), imbalance,
                unit.recentCpu(), unit.recentMemory(), rule);
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
