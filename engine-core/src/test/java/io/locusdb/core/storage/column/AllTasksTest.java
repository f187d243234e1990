package io.locusdb.core.storage.column;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AllTasksTest {
    @Test
    void runsEveryTaskToItsEndBeforeRethrowingTheFirstFailure() {
        AtomicBoolean slowTaskEnded = new AtomicBoolean();
        Runnable fails = () -> {
            throw new IllegalStateException("column 0 is broken");
        };
        Runnable slow = () -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            slowTaskEnded.set(true);
        };
        Runnable alsoFails = () -> {
            throw new IllegalArgumentException("column 2 is broken too");
        };
        assertThatThrownBy(() -> AllTasks.run(List.of(fails, slow, alsoFails)))
                .isInstanceOf(IllegalStateException.class).hasMessage("column 0 is broken");
        assertThat(slowTaskEnded).as("the failure waited for the task still writing").isTrue();
    }

    @Test
    void nestedTasksRunOnTheCallersPoolAndNoOther() throws Exception {
        AtomicInteger outsidePool = new AtomicInteger();
        try (ForkJoinPool pool = new ForkJoinPool(2)) {
            pool.submit(() -> AllTasks.run(List.of(
                    () -> AllTasks.run(List.of(() -> check(pool, outsidePool), () -> check(pool, outsidePool))),
                    () -> check(pool, outsidePool)))).get();
            assertThat(pool.submit(AllTasks::parallelism).get()).isEqualTo(2);
        }
        assertThat(outsidePool).hasValue(0);
    }

    private static void check(ForkJoinPool pool, AtomicInteger outsidePool) {
        if (java.util.concurrent.ForkJoinTask.getPool() != pool) {
            outsidePool.incrementAndGet();
        }
    }
}
