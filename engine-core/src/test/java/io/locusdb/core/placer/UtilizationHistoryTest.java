package io.locusdb.core.placer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class UtilizationHistoryTest {
    @Test
    void theAverageWeighsEachSampleByTheTimeSinceTheSampleBefore() {
        UtilizationHistory h = new UtilizationHistory(10);
        h.record(0, 4, 1000);
        h.record(100, 4, 1000);
        h.record(400, 10, 1000);
        // Over the last 400 µs: 4 for 100 µs, then 10 for 300 µs.
        assertThat(h.average(400)).isCloseTo((4 * 100 + 10 * 300) / 400.0, within(1e-9));
        // Over the last 300 µs only the last sample counts.
        assertThat(h.average(300)).isCloseTo(10, within(1e-9));
    }

    @Test
    void timeBeforeTheFirstSampleTakesTheFirstSamplesValue() {
        UtilizationHistory h = new UtilizationHistory(10);
        h.record(1000, 2, 1000);
        h.record(2000, 6, 1000);
        // 4000 µs back: 3000 µs before the first sample at 2, then 1000 µs at 6.
        assertThat(h.average(4000)).isCloseTo((2 * 3000 + 6 * 1000) / 4000.0, within(1e-9));
    }

    @Test
    void theRecentAverageCoversThePlacersPeriodAndOldSamplesFallOff() {
        UtilizationHistory h = new UtilizationHistory(3);
        for (int t = 1; t <= 5; t++) {
            h.record(t * 100L, t, 200);
        }
        assertThat(h.samples()).isEqualTo(3);
        assertThat(h.recentAverage()).isCloseTo((4 + 5) / 2.0, within(1e-9));
        // The oldest kept sample (3 at 300 µs) stands for everything before it.
        assertThat(h.average(1000)).isCloseTo((3 * 800 + 4 * 100 + 5 * 100) / 1000.0, within(1e-9));
    }

    @Test
    void tasksChangeTheAbsoluteValueThatSamplingRecords() {
        UtilizationHistory h = new UtilizationHistory();
        h.add(3);
        h.add(-1);
        assertThat(h.current()).isEqualTo(2);
        h.sample(100, 100);
        assertThat(h.average(50)).isEqualTo(2);
        assertThat(new UtilizationHistory().average(1000)).as("no samples: the value now").isZero();
    }
}
