package io.locusdb.core.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.exec.metrics.ExecutorMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ExecutorMetricsTest {

    @Test
    void meters_follow_the_tasks_the_executor_runs() {
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.twoNodes())
                .stealing(io.locusdb.core.exec.stealing.StealingPolicies.never()).build())) {
            TaskClass scan = executor.taskClass("iv-scan");
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            ExecutorMetrics metrics = new ExecutorMetrics(executor);
            metrics.bindTo(registry);
            assertThat(registry.get("locus.executor.tasks.run").tags("class", "iv-scan", "node", "0")
                    .functionCounter().count()).isZero();

            for (int i = 0; i < 20; i++) {
                executor.submit(QueryContext.create("q"), scan, i % 2, ctx -> {
                    TestExecutors.spin(100_000);
                    ctx.addBytes(1 << 20);
                }).await();
            }
            TaskClass late = executor.taskClass("materialize");
            executor.submit(QueryContext.create("q"), late, 1, ctx -> { }).await();
            metrics.refresh();

            assertThat(TestExecutors.eventually(Duration.ofSeconds(10), () -> registry.get("locus.executor.tasks.run")
                    .tags("class", "iv-scan", "node", "0").functionCounter().count() == 10)).isTrue();
            assertThat(TestExecutors.eventually(Duration.ofSeconds(10), () -> registry
                    .get("locus.executor.tasks.run").tags("class", "materialize", "node", "1")
                    .functionCounter().count() == 1)).isTrue();
            assertThat(registry.get("locus.executor.class.throughput").tags("class", "iv-scan").gauge().value())
                    .isPositive();
            assertThat(registry.get("locus.executor.bytes").tags("node", "1").functionCounter().count())
                    .isEqualTo(10L << 20);
            assertThat(registry.get("locus.executor.concurrency.target").gauge().value()).isEqualTo(2);
            assertThat(registry.get("locus.executor.concurrency.hint").gauge().value()).isPositive();
            assertThat(registry.get("locus.executor.workers").gauge().value()).isEqualTo(2);
            assertThat(registry.get("locus.executor.pool.length").tags("node", "0").gauge().value()).isZero();
        }
    }
}
