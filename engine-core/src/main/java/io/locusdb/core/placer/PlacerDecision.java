package io.locusdb.core.placer;

/** What the Data Placer decided in one period, with the utilization that made it decide so. */
public sealed interface PlacerDecision {
    /** The facts behind a decision: both nodes' recent CPU utilization, their imbalance, and the unit's own. */
    record Reason(int hotNode, double hotCpu, int coldNode, double coldCpu, double imbalance, double unitCpu,
                  double unitMemory, String rule) {
    }

    /** Move one part (of a table, or of a table group with all its tables) to a colder node. */
    record Move(PlacementUnit unit, int toNode, Reason reason) implements PlacerDecision {
    }

    /**
     * Repartition the owner into {@code newParts} parts: the new parts stay on the nodes of the parts they came from,
     * but one of the parts from {@code unit}'s node goes to {@code toNode}.
     */
    record Partition(PlacementUnit unit, int newParts, int toNode, Reason reason) implements PlacerDecision {
    }

    /** Merge a cold partitioned owner into one part on {@code toNode}. */
    record Merge(String owner, boolean group, int parts, int toNode, Reason reason) implements PlacerDecision {
    }
}
