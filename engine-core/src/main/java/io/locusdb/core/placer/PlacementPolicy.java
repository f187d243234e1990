package io.locusdb.core.placer;

import java.util.List;
import java.util.Set;

/**
 * A data placement policy: given the placement units with their histories, what to change this period. Driven by
 * the placer service on real time, by tests with constructed histories, and by the simulator on simulated time.
 */
public interface PlacementPolicy {
    /**
     * @param units   every placement unit now (inactive ones too: merging looks at them)
     * @param nodes   how many nodes the placement spans
     * @param merging owners ({@link PlacementUnit#ownerKey()}) whose merge is still running: not to be moved,
     *                partitioned or merged again
     * @return the decisions of this period: at most one move or partition, else any number of merges; empty when
     *         nothing should change
     */
    List<PlacerDecision> decide(List<PlacementUnit> units, int nodes, Set<String> merging);
}
