package io.locusdb.core.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Roots waiting for a worker start oldest query first: the next pipeline of a query under way goes before the first
 * pipeline of a query that arrived later, even when that one was queued first, so that queries finish one after
 * another instead of all advancing in lockstep.
 */
class OldestQueryFirstTest {
    @Test
    void aLaterRootOfAnOlderQueryStartsBeforeAnEarlierRootOfAYoungerQuery() throws InterruptedException {
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.synthetic(1, 1))
                .pinWorkers(false).build())) {
            TaskClass work = executor.taskClass("work");
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch blocking = new CountDownLatch(1);
            GraphHandle blocker = executor.submit(TaskGraph.single("blocker", work, 0, ctx -> {
                blocking.countDown();
                release.await();
            }), QueryContext.create("blocker"));
            blocking.await();
            QueryContext older = QueryContext.create("older");
            QueryContext younger = QueryContext.create("younger");
            List<String> order = new CopyOnWriteArrayList<>();

            GraphHandle first = executor.submit(TaskGraph.single("younger's first pipeline", work, 0,
                    ctx -> order.add("younger")), younger);
            GraphHandle next = executor.submit(TaskGraph.single("older's next pipeline", work, 0,
                    ctx -> order.add("older")), older);
            release.countDown();
            blocker.await();
            first.await();
            next.await();

            assertThat(order).containsExactly("older", "younger");
        }
    }
}
