package io.locusdb.core.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ConcurrencyHintTest {

    @Test
    void the_hint_is_a_moving_average_of_free_contexts_reset_once_it_passes_ninety_percent() {
        ConcurrencyHint hint = new ConcurrencyHint(48, 0.5, 0.9);
        assertThat(hint.value()).isEqualTo(48);
        hint.sample(0);
        assertThat(hint.value()).isCloseTo(24, within(1e-9));
        hint.sample(0);
        assertThat(hint.value()).isCloseTo(12, within(1e-9));
        hint.sample(8);
        assertThat(hint.value()).isCloseTo(10, within(1e-9));
        assertThat(hint.tasks()).isEqualTo(10);
        hint.sample(48);
        assertThat(hint.value()).isCloseTo(29, within(1e-9));
        hint.sample(48);
        assertThat(hint.value()).as("38.5 < 43.2 stays").isCloseTo(38.5, within(1e-9));
        hint.sample(48);
        assertThat(hint.value()).as("43.25 passes 90% of 48: reset").isEqualTo(48);
        for (int i = 0; i < 40; i++) {
            hint.sample(0);
        }
        assertThat(hint.tasks()).as("never below one task").isEqualTo(1);
    }

    @Test
    void the_hint_falls_under_load_and_recovers_when_the_load_ends() {
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes())
                .hintPeriod(Duration.ofMillis(10)).build())) {
            int contexts = executor.targetConcurrency();
            assertThat(executor.concurrencyHint()).isEqualTo(contexts);
            TaskClass busy = executor.taskClass("busy");
            AtomicBoolean stop = new AtomicBoolean();
            List<GraphHandle> load = new ArrayList<>();
            for (int i = 0; i < contexts * 2; i++) {
                load.add(executor.submit(QueryContext.create("load"), busy, i % 2, ctx -> {
                    while (!stop.get()) {
                        Thread.onSpinWait();
                    }
                }));
            }
            AtomicLong lowest = new AtomicLong(Long.MAX_VALUE);
            boolean fell = TestExecutors.eventually(Duration.ofSeconds(20), () -> {
                lowest.set(Math.min(lowest.get(), Math.round(executor.concurrencyHintValue() * 100)));
                return executor.concurrencyHintValue() < 0.5;
            });
            assertThat(fell).as("hint fell under load (lowest x100: %s)", lowest.get()).isTrue();
            assertThat(executor.concurrencyHint()).isEqualTo(1);

            stop.set(true);
            load.forEach(GraphHandle::await);
            assertThat(TestExecutors.eventually(Duration.ofSeconds(20),
                    () -> executor.concurrencyHint() == contexts)).as("hint recovered").isTrue();
        }
    }
}
