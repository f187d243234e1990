package io.locusdb.natives.counters;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThreadCountersTest {
    @Test
    void everyEventIsEitherCountableOrExplained() {
        List<CounterStatus> statuses = ThreadCounters.probe();
        assertThat(statuses).hasSize(PerfEvent.values().length);
        for (CounterStatus status : statuses) {
            if (!status.available()) {
                assertThat(status.reason()).matches("E[A-Z0-9]+ \\(.+\\).*");
            }
        }
    }

    @Test
    void availableSoftwareCountersAdvanceWithWork() {
        try (ThreadCounters counters = ThreadCounters.openForCurrentThread(EnumSet.of(PerfEvent.TASK_CLOCK))) {
            if (!counters.isAvailable(PerfEvent.TASK_CLOCK)) {
                assertThat(counters.status(PerfEvent.TASK_CLOCK).reason()).isNotBlank();
                return;
            }
            long before = counters.read(PerfEvent.TASK_CLOCK);
            double sink = 0;
            for (int i = 0; i < 5_000_000; i++) {
                sink += Math.sqrt(i);
            }
            long after = counters.read(PerfEvent.TASK_CLOCK);
            assertThat(sink).isPositive();
            assertThat(after).isGreaterThan(before);
        }
    }
}
