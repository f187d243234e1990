package io.locusdb.core.placer.guest;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.TestQueries;
import io.locusdb.core.placer.PlacerEvent;
import io.locusdb.core.placer.PlacerScenario;
import io.locusdb.core.placer.PlacerSettings;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import io.locusdb.natives.topology.TopologyKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The placer on real (emulated) NUMA nodes, inside the 4-node guest of scripts/run-guest-tests: the placer's
 * scenario under inserts and scans, then, from page-location queries ({@code locus_parts}), every part's pages are
 * on the node the catalog and the last placer event say.
 */
@Tag("numa-guest")
class PlacerGuestTest {
    @Test
    void everyPartEndsOnTheNodeItsEventsSayAndNoRowIsLost() throws InterruptedException {
        Topology topology = Topologies.real();
        assertThat(topology.kind()).isEqualTo(TopologyKind.REAL);
        assertThat(topology.nodeCount()).isGreaterThanOrEqualTo(2);
        try (LocusDB db = LocusDB.open(LocusConfig.of(topology).withDeltaMerge(null).withLoadThreads(1)
                .withPlacer(PlacerSettings.DEFAULT.withPeriod(200, 20)))) {
            new PlacerScenario(db).run(500, 20, 100, 1);
            assertThat(db.placer().quiesce(Duration.ofMinutes(2))).as("placement changes finished").isTrue();

            List<PlacerEvent> events = db.placer().events().events();
            events.forEach(e -> System.out.println("guest: " + e));
            int nodes = topology.nodeCount();
            StringBuilder pages = new StringBuilder();
            for (int n = 0; n < nodes; n++) {
                pages.append(", pages_on_node_").append(n);
            }
            List<List<Object>> parts = TestQueries.rows(db, "SELECT table_name, part, node, pages" + pages
                    + " FROM locus_parts ORDER BY table_name, part");
            assertThat(parts).isNotEmpty();
            for (List<Object> part : parts) {
                int node = (Integer) part.get(2);
                long total = (Long) part.get(3);
                assertThat(total).as("pages of %s", part).isPositive();
                assertThat(part.get(4 + node)).as("every page of %s on its node %d", part, node).isEqualTo(total);
            }
            for (String table : List.of("a", "b", "c")) {
                PlacerEvent last = events.stream().filter(e -> e.owner().equals(table) && e.succeeded())
                        .reduce((x, y) -> y).orElseThrow();
                List<Integer> partNodes = parts.stream().filter(p -> p.get(0).equals(table))
                        .map(p -> (Integer) p.get(2)).toList();
                switch (last.action()) {
                    // A move takes one part: the table's other parts may lie elsewhere (it was partitioned).
                    case MOVE -> {
                        if (last.part() >= 0) {
                            assertThat(partNodes.get(last.part())).as("%s part %d after %s", table, last.part(),
                                    last).isEqualTo(last.toNode());
                        } else {
                            assertThat(partNodes).as("%s after %s", table, last).containsOnly(last.toNode());
                        }
                    }
                    case MERGE -> assertThat(partNodes).as("%s after %s", table, last).containsExactly(last.toNode());
                    case PARTITION -> assertThat(partNodes).as("%s after %s", table, last).contains(last.toNode());
                }
            }
        }
    }
}
