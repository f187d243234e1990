package io.locusdb.core.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.exec.QueryContext;
import org.junit.jupiter.api.Test;

class WorkEstimatesTest {
    @Test
    void nothingIsKnownBeforeAnyQueryRan() {
        assertThat(new WorkEstimates(8).expectedNanos("select ?", 1_000)).isEqualTo(QueryContext.UNKNOWN_WORK);
    }

    @Test
    void aShapeSeenBeforeIsExpectedToCostWhatItsRunsCost() {
        WorkEstimates estimates = new WorkEstimates(8);
        for (int i = 0; i < 20; i++) {
            estimates.record("short", 1_000_000, 3_000_000);
            estimates.record("long", 1_000_000, 900_000_000);
        }

        assertThat(estimates.expectedNanos("short", 1_000_000)).isEqualTo(3_000_000);
        assertThat(estimates.expectedNanos("long", 1_000_000)).isEqualTo(900_000_000);
    }

    @Test
    void oneOddRunMovesTheAverageOnlyPartWay() {
        WorkEstimates estimates = new WorkEstimates(8);
        estimates.record("q", 0, 10_000_000);
        estimates.record("q", 0, 110_000_000);

        assertThat(estimates.expectedNanos("q", 0)).isBetween(20_000_000L, 60_000_000L);
    }

    @Test
    void aNewShapeIsEstimatedFromTheRowsItScansAtTheRecentCostPerRow() {
        WorkEstimates estimates = new WorkEstimates(8);
        estimates.record("a", 1_000_000, 10_000_000);
        estimates.record("b", 3_000_000, 30_000_000);

        assertThat(estimates.expectedNanos("new", 6_000_000)).isBetween(55_000_000L, 65_000_000L);
        assertThat(estimates.expectedNanos("new", 0)).isEqualTo(QueryContext.UNKNOWN_WORK);
    }

    @Test
    void theLeastRecentlyUsedShapesAreForgotten() {
        WorkEstimates estimates = new WorkEstimates(2);
        estimates.record("a", 0, 1_000);
        estimates.record("b", 0, 2_000);
        estimates.expectedNanos("a", 0);
        estimates.record("c", 0, 3_000);

        assertThat(estimates.expectedNanos("a", 0)).isEqualTo(1_000);
        assertThat(estimates.expectedNanos("b", 0)).isEqualTo(QueryContext.UNKNOWN_WORK);
    }
}
