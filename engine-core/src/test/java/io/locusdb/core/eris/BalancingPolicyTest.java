package io.locusdb.core.eris;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The balancing algorithms on the paper's Figure 6 situation: eight AEUs over keys 0..7999, the accesses all on
 * partitions 3 to 6 (a quarter each). One-Shot spreads that range over all eight AEUs at once; MA1 moves each bound
 * part of the way; MA7 on eight AEUs is One-Shot.
 */
class BalancingPolicyTest {
    private static final long KEYS = 8000;

    private static long[][] figure6() {
        long[][] h = new long[8][4];
        for (int i = 2; i <= 5; i++) {
            Arrays.fill(h[i], 250);
        }
        return h;
    }

    @Test
    void oneShotGivesEveryAeuAnEqualShareOfTheHotRange() {
        RangeTable table = RangeTable.even(8, KEYS);
        long[] lows = BalancingPolicy.oneShot().targetLows(table, figure6(), 0, KEYS - 1);
        // The hot keys are 2000..5999: 500 keys of the same load per AEU.
        assertThat(lows).containsExactly(Long.MIN_VALUE, 2500, 3000, 3500, 4000, 4500, 5000, 5500);
    }

    @Test
    void aMovingAverageMovesBoundsPartOfTheWayAndAWideOneIsOneShot() {
        RangeTable table = RangeTable.even(8, KEYS);
        long[] ma1 = BalancingPolicy.movingAverage(1).targetLows(table, figure6(), 0, KEYS - 1);
        long[] oneShot = BalancingPolicy.oneShot().targetLows(table, figure6(), 0, KEYS - 1);
        assertThat(ma1).isNotEqualTo(table.lows()).isNotEqualTo(oneShot);
        for (int i = 1; i < 8; i++) {
            assertThat(ma1[i]).isGreaterThan(ma1[i - 1]);
        }
        // The bound between the cold AEUs 0 and 1 moves towards the hot range, not past One-Shot's.
        assertThat(ma1[1]).isGreaterThan(table.low(1)).isLessThanOrEqualTo(oneShot[1]);
        assertThat(BalancingPolicy.movingAverage(7).targetLows(table, figure6(), 0, KEYS - 1)).isEqualTo(oneShot);
    }

    @Test
    void theImbalanceIsTheStandardDeviationOverTheMean() {
        assertThat(BalancingPolicy.imbalance(new long[][] {{5, 5}, {5, 5}})).isZero();
        assertThat(BalancingPolicy.imbalance(figure6())).isEqualTo(1.0);
        assertThat(BalancingPolicy.parse("MA8")).isEqualTo(BalancingPolicy.movingAverage(8));
    }

    @Test
    void theBalancerRebalancesASkewedLoadOnItsOwn() throws Exception {
        try (ErisRuntime eris = new ErisRuntime(new int[] {0, 0, 1, 1}, 4000, 256, aeu -> { })) {
            ErisBalancer balancer = new ErisBalancer(eris, BalancingPolicy.oneShot(), 0.3, 100);
            CountDownLatch done = new CountDownLatch(2000);
            for (int i = 0; i < 2000; i++) {
                eris.submit(new Command.Upsert(i % 1000, 1, (c, v) -> done.countDown()));
            }
            done.await();
            assertThat(balancer.balanceOnce()).isTrue();
            assertThat(eris.table().ownerOf(999)).as("the hot keys 0..999 spread over the AEUs").isEqualTo(3);
            assertThat(balancer.events()).singleElement().satisfies(e -> {
                assertThat(e.policy()).isEqualTo("one-shot");
                assertThat(e.entriesLinked() + e.entriesCopied()).isPositive();
            });
            assertThat(eris.closeAndCollect().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(2000);
        }
    }
}
