package io.locusdb.core.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Waiting roots start by response ratio, (waited + expected work) / expected work: a query expected to be short
 * goes before long ones that came a little earlier, and a long one that has waited many times its own work goes
 * before a short one that just came, so neither waits behind the other for long.
 */
class ShortQueriesFirstTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void aShortQueryStartsBeforeALongOneThatArrivedJustBeforeIt() throws InterruptedException {
        List<String> order = runAfterBlocker(RootOrder.RESPONSE_RATIO,
                () -> QueryContext.create("long", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 10_000 * MS), 0,
                () -> QueryContext.create("short", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 2 * MS));

        assertThat(order).containsExactly("short", "long");
    }

    @Test
    void aLongQueryThatHasWaitedManyTimesItsWorkStartsBeforeAShortOneThatJustCame() throws InterruptedException {
        List<String> order = runAfterBlocker(RootOrder.RESPONSE_RATIO,
                () -> QueryContext.create("long", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 5 * MS), 60,
                () -> QueryContext.create("short", QueryContext.Priority.NORMAL, Long.MAX_VALUE, MS));

        assertThat(order).containsExactly("long", "short");
    }

    /**
     * The next pipeline of a query under way goes before the first pipeline of a query that arrived later, even
     * when that one was queued first, so that queries finish one after another instead of advancing in lockstep.
     */
    @Test
    void aLaterRootOfAnOlderQueryStartsBeforeAnEarlierRootOfAYoungerQuery() throws InterruptedException {
        QueryContext older = QueryContext.create("older");
        QueryContext younger = QueryContext.create("younger");

        List<String> order = runAfterBlocker(RootOrder.RESPONSE_RATIO, () -> younger, 0, () -> older);

        assertThat(order).containsExactly("older", "younger");
    }

    @Test
    void firstComeFirstServedIgnoresTheEstimates() throws InterruptedException {
        List<String> order = runAfterBlocker(RootOrder.OLDEST_QUERY,
                () -> QueryContext.create("long", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 10_000 * MS), 0,
                () -> QueryContext.create("short", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 2 * MS));

        assertThat(order).containsExactly("long", "short");
    }

    @Test
    void theRatioStartsAtOneAndGrowsFasterForShorterQueries() {
        QueryContext shorter = QueryContext.create("shorter", QueryContext.Priority.NORMAL, Long.MAX_VALUE, MS);
        QueryContext longer = QueryContext.create("longer", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 100 * MS);
        long now = Math.max(shorter.startNanos(), longer.startNanos());

        assertThat(RootQueue.responseRatio(longer, longer.startNanos())).isEqualTo(1.0);
        assertThat(RootQueue.responseRatio(shorter, now + 10 * MS))
                .isGreaterThan(RootQueue.responseRatio(longer, now + 10 * MS));
        assertThat(RootQueue.responseRatio(longer, now + 1000 * MS)).isGreaterThan(10.0);
    }

    @Test
    void aQueryUnderWayCountsOnlyTheWorkItHasLeftButAtLeastAQuarterOfItsEstimate() {
        QueryContext fresh = QueryContext.create("fresh", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 100 * MS);
        QueryContext halfDone = QueryContext.create("half", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 100 * MS);
        QueryContext overrun = QueryContext.create("overrun", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 100 * MS);
        halfDone.addWork(50 * MS);
        overrun.addWork(500 * MS);
        long now = Math.max(fresh.startNanos(), Math.max(halfDone.startNanos(), overrun.startNanos())) + 100 * MS;

        assertThat(RootQueue.responseRatio(halfDone, now)).isGreaterThan(RootQueue.responseRatio(fresh, now));
        assertThat(RootQueue.responseRatio(overrun, now)).isEqualTo((now - overrun.startNanos() + 25.0 * MS) / (25.0 * MS));
    }

    @Test
    void aQueryAHundredTimesLongerWaitsAboutThirtyTimesAsLongBeforeItGoesFirst() {
        QueryContext shorter = QueryContext.create("3 ms", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 3 * MS);
        QueryContext longer = QueryContext.create("300 ms", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 300 * MS);

        double shortAfterATenthOfASecond = RootQueue.responseRatio(shorter, shorter.startNanos() + 100 * MS);
        assertThat(RootQueue.responseRatio(longer, longer.startNanos() + 2_900 * MS))
                .isLessThan(shortAfterATenthOfASecond);
        assertThat(RootQueue.responseRatio(longer, longer.startNanos() + 3_400 * MS))
                .isGreaterThan(shortAfterATenthOfASecond);
    }

    @Test
    void noQueryWaitsMuchPastTheStarvationBoundBehindShorterOnes() {
        QueryContext shorter = QueryContext.create("1 ms", QueryContext.Priority.NORMAL, Long.MAX_VALUE, MS);
        QueryContext longer = QueryContext.create("3 s", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 3000 * MS);
        QueryContext oldest = QueryContext.create("5 s", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 5000 * MS);
        long bound = RootQueue.STARVATION_NANOS;

        // Just under the bound, the short query's ratio is far ahead; past it, the long one goes first, and among
        // those past it the one that has waited longest.
        long shortWaited = bound - MS;
        assertThat(RootQueue.responseRatio(shorter, shorter.startNanos() + shortWaited))
                .isGreaterThan(RootQueue.responseRatio(longer, longer.startNanos() + shortWaited));
        assertThat(RootQueue.responseRatio(longer, longer.startNanos() + bound + MS))
                .isGreaterThan(RootQueue.responseRatio(shorter, shorter.startNanos() + shortWaited));
        assertThat(RootQueue.responseRatio(oldest, oldest.startNanos() + bound + 2 * MS))
                .isGreaterThan(RootQueue.responseRatio(longer, longer.startNanos() + bound + MS));
    }

    @Test
    void theStarvationBoundGrowsWithTheTypicalWaitSoShortQueriesStillGoFirstUnderABacklog() {
        RootQueue queue = new RootQueue(0, 1.0, RootOrder.RESPONSE_RATIO, System::nanoTime);
        assertThat(queue.starvationNanos()).isEqualTo(RootQueue.STARVATION_NANOS);
        // Hundreds of clients: every root started after about 8 s of waiting.
        for (int i = 0; i < 500; i++) {
            queue.recordStart(8_000 * MS);
        }
        long bound = queue.starvationNanos();
        assertThat(bound).isBetween(30_000 * MS, 32_000 * MS);
        QueryContext shorter = QueryContext.create("1 ms", QueryContext.Priority.NORMAL, Long.MAX_VALUE, MS);
        QueryContext longer = QueryContext.create("3 s", QueryContext.Priority.NORMAL, Long.MAX_VALUE, 3000 * MS);
        // A long query 12 s into its wait is not starving yet: the short one that waited 8 s goes first...
        assertThat(RootQueue.responseRatio(shorter, shorter.startNanos() + 8_000 * MS, bound))
                .isGreaterThan(RootQueue.responseRatio(longer, longer.startNanos() + 12_000 * MS, bound));
        // ...and past four typical waits it goes before any of them.
        assertThat(RootQueue.responseRatio(longer, longer.startNanos() + bound + MS, bound))
                .isGreaterThan(RootQueue.responseRatio(shorter, shorter.startNanos() + 8_000 * MS, bound));
    }

    @Test
    void aQueryWithoutAnEstimateCountsAsAMiddlingOne() {
        QueryContext unknown = QueryContext.create("unknown");

        assertThat(RootQueue.expectedNanos(unknown)).isEqualTo(RootQueue.DEFAULT_EXPECTED_NANOS);
    }

    /**
     * Holds the only worker, submits one root of a query that arrives then, waits {@code waitMillis}, submits one
     * of a second query that arrives then, and lets the worker go: the order the two roots ran in.
     */
    private static List<String> runAfterBlocker(RootOrder rootOrder, Supplier<QueryContext> firstArriving, long waitMillis,
                                                Supplier<QueryContext> secondArriving) throws InterruptedException {
        try (NumaExecutor executor = NumaExecutor.start(ExecutorConfig.builder(TestExecutors.synthetic(1, 1))
                .pinWorkers(false).rootOrder(rootOrder).build())) {
            TaskClass work = executor.taskClass("work");
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch blocking = new CountDownLatch(1);
            GraphHandle blocker = executor.submit(TaskGraph.single("blocker", work, 0, ctx -> {
                blocking.countDown();
                release.await();
            }), QueryContext.create("blocker"));
            blocking.await();
            List<String> order = new CopyOnWriteArrayList<>();
            QueryContext first = firstArriving.get();
            GraphHandle a = executor.submit(TaskGraph.single(first.label(), work, 0,
                    ctx -> order.add(first.label())), first);
            Thread.sleep(waitMillis);
            QueryContext second = secondArriving.get();
            GraphHandle b = executor.submit(TaskGraph.single(second.label(), work, 0,
                    ctx -> order.add(second.label())), second);
            release.countDown();
            blocker.await();
            a.await();
            b.await();
            return order;
        }
    }
}
