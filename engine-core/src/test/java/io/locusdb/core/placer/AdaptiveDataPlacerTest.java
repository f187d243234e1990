package io.locusdb.core.placer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Algorithms 1–3 of the adaptive-placement paper on constructed histories: 4 nodes of 15 threads; parts of a
 * million pages at 1 µs per page to move and 2 µs per page to partition, so a unit must have been stable for 2 s
 * to move and for 4 s to be partitioned; histories of 60 s sampled every 100 ms.
 */
class AdaptiveDataPlacerTest {
    private static final int NODES = 4;
    private static final long PAGES = 1_000_000;
    private static final double GB = 1e9;
    private static final PlacerParameters PARAMETERS = PlacerParameters.defaults(15, 40 * GB, 1.0, 2.0);
    private static final AdaptiveDataPlacer PLACER = new AdaptiveDataPlacer(PARAMETERS);

    /** A history of {@code seconds} of samples: {@code before} until the last {@code changedFor} s, then {@code now}. */
    private static UtilizationHistory history(double before, double now, double changedFor) {
        UtilizationHistory h = new UtilizationHistory();
        long end = 60_000_000;
        for (long t = 100_000; t <= end; t += 100_000) {
            h.record(t, t > end - changedFor * 1e6 ? now : before, PARAMETERS.periodMicros());
        }
        return h;
    }

    private static UtilizationHistory steady(double value) {
        return history(value, value, 0);
    }

    /** A table part using {@code threads} threads and a GB/s per thread, steady for the whole history. */
    private static PlacementUnit table(String name, int part, int parts, int node, double threads) {
        return new PlacementUnit(name, false, part, node, PAGES, parts, steady(threads), steady(threads * GB));
    }

    private static PlacementUnit justStarted(String name, int node, double threads) {
        return new PlacementUnit(name, false, 0, node, PAGES, 1, history(0, threads, 1.0),
                history(0, threads * GB, 1.0));
    }

    @Test
    void theIntroductoryExampleMergesTheColdTableMovesOneHotTableAndPartitionsTheThird() {
        // Figure 1: TBL1 and TBL2 share node 0, TBL3 fills node 1, the cold TBL4 is split across nodes 2 and 3.
        PlacementUnit tbl4a = table("TBL4", 0, 2, 2, 0);
        PlacementUnit tbl4b = table("TBL4", 1, 2, 3, 0);

        // The clients just started: nothing is stable enough to move, so the placer merges the cold table.
        List<PlacerDecision> first = PLACER.decide(List.of(justStarted("TBL1", 0, 7.5), justStarted("TBL2", 0, 7.5),
                justStarted("TBL3", 1, 15), tbl4a, tbl4b), NODES, Set.of());
        assertThat(first).singleElement().isInstanceOfSatisfying(PlacerDecision.Merge.class, m -> {
            assertThat(m.owner()).isEqualTo("TBL4");
            assertThat(m.toNode()).isIn(2, 3);
        });

        // Stable now, TBL4 still merging: node 0 (saturated, 15 threads) against an idle node; one of its tables
        // moves, and it is a move although partitioning it would balance too.
        PlacementUnit tbl1 = table("TBL1", 0, 1, 0, 7.5);
        PlacementUnit tbl2 = table("TBL2", 0, 1, 0, 7.5);
        List<PlacerDecision> second = PLACER.decide(List.of(tbl1, tbl2, table("TBL3", 0, 1, 1, 15), tbl4a, tbl4b),
                NODES, Set.of("table TBL4"));
        assertThat(second).singleElement().isInstanceOfSatisfying(PlacerDecision.Move.class, m -> {
            assertThat(m.unit().owner()).isIn("TBL1", "TBL2");
            assertThat(m.unit().node()).isZero();
            assertThat(m.toNode()).isIn(2, 3);
            assertThat(m.reason().imbalance()).isEqualTo(15.0);
        });
        assertThat(PLACER.info(tbl1, NODES).canPartition()).as("partitioning was possible").isTrue();

        // After the move the two tables use 12 threads each on nodes 0 and 2, TBL3 still 15 on node 1, and the
        // merged TBL4 sits idle on node 3. Moving a whole table only shifts an imbalance, so TBL3 is partitioned,
        // half of it going to node 3.
        List<PlacementUnit> third = List.of(table("TBL2", 0, 1, 0, 12), table("TBL1", 0, 1, 2, 12),
                table("TBL3", 0, 1, 1, 15), table("TBL4", 0, 1, 3, 0));
        assertThat(PLACER.decide(third, NODES, Set.of())).singleElement()
                .isInstanceOfSatisfying(PlacerDecision.Partition.class, p -> {
                    assertThat(p.unit().owner()).isEqualTo("TBL3");
                    assertThat(p.newParts()).isEqualTo(2);
                    assertThat(p.toNode()).isEqualTo(3);
                });

        // Balanced within c_i: no more actions, and the active partitioned TBL3 is not merged.
        List<PlacementUnit> fourth = List.of(table("TBL2", 0, 1, 0, 12), table("TBL1", 0, 1, 2, 12),
                table("TBL3", 0, 2, 1, 7.5), table("TBL3", 1, 2, 3, 7.5), table("TBL4", 0, 1, 3, 0));
        assertThat(PLACER.decide(fourth, NODES, Set.of())).isEmpty();
    }

    @Test
    void aUnitWhosePastDivergesFromItsRecentUseIsNotEligible() {
        // Figure 7: similar recent use; one changed 2.5 s ago (stable for a move's 2 s, not for a partition's 4 s).
        PlacementUnit unstable = new PlacementUnit("A", false, 0, 0, PAGES, 1, history(0, 8, 2.5),
                history(0, 8 * GB, 2.5));
        AdaptiveDataPlacer.UnitInfo a = PLACER.info(unstable, NODES);
        assertThat(a.active()).isTrue();
        assertThat(a.canMove()).isTrue();
        assertThat(a.canPartition()).isFalse();
        AdaptiveDataPlacer.UnitInfo b = PLACER.info(table("B", 0, 1, 0, 8), NODES);
        assertThat(b.canMove()).isTrue();
        assertThat(b.canPartition()).isTrue();
        AdaptiveDataPlacer.UnitInfo fresh = PLACER.info(justStarted("C", 0, 8), NODES);
        assertThat(fresh.canMove()).isFalse();
        assertThat(PLACER.info(table("D", 1, 4, 0, 8), NODES).canPartition())
                .as("no more parts than nodes").isFalse();
    }

    @Test
    void noDecisionPushesTheColdNodePastItsMemoryThroughput() {
        // Node 0 is saturated by two tables of 7.5 threads and 7.5 GB/s each; node 1 runs a CPU-light table that
        // streams 35 GB/s of its 40. A move would take node 1 to 42.5 GB/s; half a table (partitioning) fits.
        List<PlacementUnit> units = List.of(table("HOT1", 0, 1, 0, 7.5), table("HOT2", 0, 1, 0, 7.5),
                new PlacementUnit("LIGHT", false, 0, 1, PAGES, 1, steady(1), steady(35 * GB)));
        assertThat(PLACER.decide(units, 2, Set.of())).singleElement()
                .isInstanceOf(PlacerDecision.Partition.class);
        // At 38 GB/s not even half a table fits.
        List<PlacementUnit> full = List.of(table("HOT1", 0, 1, 0, 7.5), table("HOT2", 0, 1, 0, 7.5),
                new PlacementUnit("LIGHT", false, 0, 1, PAGES, 1, steady(1), steady(38 * GB)));
        assertThat(PLACER.decide(full, 2, Set.of())).isEmpty();
    }

    @Test
    void nothingHappensBelowTheSaturationOrImbalanceThresholds() {
        List<PlacementUnit> notSaturated = List.of(table("A", 0, 1, 0, 10), table("B", 0, 1, 1, 0.5));
        assertThat(PLACER.decide(notSaturated, 2, Set.of())).as("10 of 15 threads is under c_s = 70 %").isEmpty();
        List<PlacementUnit> smallImbalance = List.of(table("A", 0, 1, 0, 14), table("B", 0, 1, 1, 9));
        assertThat(PLACER.decide(smallImbalance, 2, Set.of())).as("5 threads is under c_i = 40 % of 15").isEmpty();
    }

    @Test
    void aUnitAboutAsHeavyAsTheImbalanceIsPartitionedRatherThanSwappedToTheColdNode() {
        // Node 0 is saturated by A (7.7 threads) and B (7.3); node 1 runs C (7.4). Moving B would lower the
        // imbalance from 7.6 to 7.0 only by making node 1 the hot one (14.7 threads), and the next period would move
        // it back; the hot node is relieved by splitting A instead, half of it going to node 1.
        List<PlacementUnit> units = List.of(table("A", 0, 1, 0, 7.7), table("B", 0, 1, 0, 7.3),
                table("C", 0, 1, 1, 7.4));
        assertThat(PLACER.decide(units, 2, Set.of())).singleElement()
                .isInstanceOfSatisfying(PlacerDecision.Partition.class, p -> {
                    assertThat(p.unit().owner()).isEqualTo("A");
                    assertThat(p.toNode()).isEqualTo(1);
                });
        // A unit well under the imbalance still moves: node 1 ends at 10.4 threads, node 0 at 7.7 + 3.
        List<PlacementUnit> light = List.of(table("A", 0, 1, 0, 7.7), table("B", 0, 1, 0, 3),
                table("D", 0, 1, 0, 4.3), table("C", 0, 1, 1, 7.4));
        assertThat(PLACER.decide(light, 2, Set.of())).singleElement()
                .isInstanceOfSatisfying(PlacerDecision.Move.class, m -> assertThat(m.unit().owner()).isIn("B", "D"));
    }

    @Test
    void anOwnerJustRepartitionedIsNotMergedBeforeItsNewHistoriesCoverTheMergeWindow() {
        // Both parts idle so far, but their histories began 1 s ago; merging takes 4 s of pages here.
        UtilizationHistory fresh = new UtilizationHistory();
        for (long t = 59_000_000; t <= 60_000_000; t += 100_000) {
            fresh.record(t, 0, PARAMETERS.periodMicros());
        }
        List<PlacementUnit> young = List.of(
                new PlacementUnit("T", false, 0, 0, PAGES, 2, fresh, fresh),
                new PlacementUnit("T", false, 1, 1, PAGES, 2, fresh, fresh));
        assertThat(PLACER.decide(young, NODES, Set.of())).isEmpty();
        List<PlacementUnit> idle = List.of(table("T", 0, 2, 0, 0), table("T", 1, 2, 1, 0));
        assertThat(PLACER.decide(idle, NODES, Set.of())).singleElement().isInstanceOf(PlacerDecision.Merge.class);
    }

    @Test
    void aTableGroupPartMovesAsOneUnit() {
        List<PlacementUnit> units = new ArrayList<>();
        units.add(new PlacementUnit("sales", true, 0, 0, PAGES, 1, steady(14), steady(14 * GB)));
        units.add(table("other", 0, 1, 1, 0));
        assertThat(PLACER.decide(units, 2, Set.of())).singleElement()
                .isInstanceOfSatisfying(PlacerDecision.Partition.class, p -> {
                    assertThat(p.unit().group()).isTrue();
                    assertThat(p.unit().ownerKey()).isEqualTo("group sales");
                    assertThat(p.toNode()).isEqualTo(1);
                });
    }
}
