package io.locusdb.core.placer;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.storage.TestStorage;
import org.junit.jupiter.api.Test;

/** The placer's move, partition and merge while rows are inserted and scanned, on the fake two-node topology. */
class PlacementUnderLoadTest {
    @Test
    void moveSplitAndMergeLoseAndDoubleNoRowWhileInsertsAndScansGoOn() throws InterruptedException {
        try (LocusDB db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null)
                .withPlacer(PlacerSettings.DEFAULT.withPeriod(200, 20)))) {
            new PlacerScenario(db).run(3000, 50, 0, 3);
            assertThat(db.placer().events().events()).filteredOn(e -> e.source().equals(PlacerEvent.PLACER))
                    .allMatch(PlacerEvent::succeeded);
        }
    }
}
