package io.locusdb.core.storage.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class LongRadixTreeTest {
    private static final long MISSING = Long.MIN_VALUE;

    @Test
    void anEmptyTreeHoldsNothing() {
        LongRadixTree tree = new LongRadixTree();
        assertThat(tree.get(0, MISSING)).isEqualTo(MISSING);
        assertThat(tree.remove(7)).isFalse();
        assertThat(entries(tree, Long.MIN_VALUE, Long.MAX_VALUE)).isEmpty();
        assertThat(tree.size()).isZero();
        assertThat(tree.memoryBytes()).isZero();
    }

    @Test
    void keysAreOrderedAsSignedNumbersIncludingTheExtremes() {
        LongRadixTree tree = new LongRadixTree();
        long[] keys = {Long.MAX_VALUE, -1, 0, Long.MIN_VALUE, 1, -256, 256, Long.MIN_VALUE + 1};
        for (long k : keys) {
            tree.put(k, k / 2);
        }
        assertThat(entries(tree, Long.MIN_VALUE, Long.MAX_VALUE).keySet())
                .containsExactly(Long.MIN_VALUE, Long.MIN_VALUE + 1, -256L, -1L, 0L, 1L, 256L, Long.MAX_VALUE);
        assertThat(entries(tree, -1, 1).keySet()).containsExactly(-1L, 0L, 1L);
        assertThat(tree.get(Long.MIN_VALUE + 1, 42)).isEqualTo((Long.MIN_VALUE + 1) / 2);
    }

    @Test
    void addStartsAtZeroAndReturnsTheNewValue() {
        LongRadixTree tree = new LongRadixTree();
        assertThat(tree.add(5, 3)).isEqualTo(3);
        assertThat(tree.add(5, 4)).isEqualTo(7);
        assertThat(tree.add(1L << 40, -2)).isEqualTo(-2);
        assertThat(tree.size()).isEqualTo(2);
    }

    @Test
    void nodesGrowAndShrinkThroughEverySizeWithoutLosingAKey() {
        LongRadixTree tree = new LongRadixTree();
        TreeMap<Long, Long> expected = new TreeMap<>();
        // 300 children under one node: 4, 16, 48 and 256 slots on the way up, and down again on removal.
        for (long k = 0; k < 300; k++) {
            tree.put(k * 7 % 300, k);
            expected.put(k * 7 % 300, k);
            assertThat(tree.get(k * 7 % 300, MISSING)).isEqualTo(k);
        }
        assertThat(entries(tree, Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(expected);
        for (long k = 0; k < 300; k++) {
            long key = k * 11 % 300;
            assertThat(tree.remove(key)).isTrue();
            expected.remove(key);
            if (k % 17 == 0) {
                assertThat(entries(tree, Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(expected);
            }
        }
        assertThat(tree.size()).isZero();
        assertThat(tree.memoryBytes()).isZero();
    }

    @ParameterizedTest(name = "keys {0}")
    @ValueSource(strings = {"dense", "sparse", "shared-prefixes", "small-range"})
    void behavesAsASortedMapUnderRandomOperations(String keys) {
        SplittableRandom random = new SplittableRandom(keys.hashCode());
        LongSupplier key = switch (keys) {
            case "dense" -> () -> random.nextLong(-5_000, 5_000);
            case "sparse" -> random::nextLong;
            // Long common prefixes that split at different bytes.
            case "shared-prefixes" -> () -> (random.nextLong(4) << 56) | (random.nextLong(3) << 40)
                    | (random.nextLong(5) << 17) | random.nextLong(20);
            default -> () -> random.nextLong(64);
        };
        LongRadixTree tree = new LongRadixTree();
        TreeMap<Long, Long> expected = new TreeMap<>();
        for (int op = 0; op < 60_000; op++) {
            long k = key.getAsLong();
            switch (random.nextInt(10)) {
                case 0, 1, 2 -> {
                    long v = random.nextLong(1000);
                    tree.put(k, v);
                    expected.put(k, v);
                }
                case 3, 4 -> {
                    long d = random.nextLong(-50, 50);
                    assertThat(tree.add(k, d)).isEqualTo(expected.merge(k, d, Long::sum));
                }
                case 5, 6 -> assertThat(tree.remove(k)).isEqualTo(expected.remove(k) != null);
                case 7, 8 -> assertThat(tree.get(k, MISSING)).isEqualTo(expected.getOrDefault(k, MISSING));
                default -> {
                    long other = key.getAsLong();
                    long lo = Math.min(k, other);
                    long hi = Math.max(k, other);
                    assertThat(entries(tree, lo, hi)).isEqualTo(expected.subMap(lo, true, hi, true));
                }
            }
            assertThat(tree.size()).isEqualTo(expected.size());
        }
        assertThat(entries(tree, Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(expected);
        for (long k : expected.keySet()) {
            assertThat(tree.containsKey(k)).isTrue();
        }
    }

    @Test
    void aRangeTakenOutMovesItsEntriesIntoANewTree() {
        SplittableRandom random = new SplittableRandom(11);
        LongRadixTree tree = new LongRadixTree();
        TreeMap<Long, Long> expected = new TreeMap<>();
        for (int i = 0; i < 20_000; i++) {
            long k = random.nextLong(1_000_000);
            tree.put(k, i);
            expected.put(k, (long) i);
        }
        LongRadixTree taken = tree.removeRange(250_000, 499_999);
        NavigableMap<Long, Long> range = expected.subMap(250_000L, true, 499_999L, true);
        assertThat(entries(taken, Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(range);
        assertThat(taken.size()).isEqualTo(range.size());
        range.clear();
        assertThat(entries(tree, Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(expected);
        assertThat(tree.size()).isEqualTo(expected.size());
    }

    @Test
    void putAllLinksOrCopiesAndTheLaterValueWins() {
        LongRadixTree into = new LongRadixTree();
        into.put(1, 10);
        into.put(2, 20);
        LongRadixTree copied = new LongRadixTree();
        copied.put(2, 21);
        copied.put(3, 31);
        into.putAll(copied, false);
        assertThat(entries(copied, Long.MIN_VALUE, Long.MAX_VALUE)).containsExactly(Map.entry(2L, 21L),
                Map.entry(3L, 31L));
        LongRadixTree linked = new LongRadixTree();
        linked.put(4, 40);
        into.putAll(linked, true);
        assertThat(linked.isEmpty()).isTrue();
        assertThat(entries(linked, Long.MIN_VALUE, Long.MAX_VALUE)).isEmpty();
        assertThat(entries(into, Long.MIN_VALUE, Long.MAX_VALUE)).containsExactly(Map.entry(1L, 10L),
                Map.entry(2L, 21L), Map.entry(3L, 31L), Map.entry(4L, 40L));
        // Changing the copy's source changes nothing here.
        copied.put(3, 99);
        assertThat(into.get(3, MISSING)).isEqualTo(31);
    }

    @Test
    void aDenseKeySetNeedsAboutHalfTheMemoryOfATreeMap() {
        LongRadixTree tree = new LongRadixTree();
        for (long k = 0; k < 100_000; k++) {
            tree.put(k, k);
        }
        // A TreeMap entry with its boxed key and value is about 72 bytes; a leaf here is 32, inner nodes add ~4.
        assertThat(tree.memoryBytes()).isLessThan(100_000L * 40);
        assertThat(tree.memoryBytes()).isGreaterThan(100_000L * 32);
    }

    private static Map<Long, Long> entries(LongRadixTree tree, long lo, long hi) {
        List<long[]> seen = new ArrayList<>();
        tree.forEach(lo, hi, (k, v) -> seen.add(new long[] {k, v}));
        Map<Long, Long> out = new TreeMap<>();
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < seen.size(); i++) {
            long k = seen.get(i)[0];
            assertThat(i == 0 || k > previous).as("keys in ascending order").isTrue();
            previous = k;
            out.put(k, seen.get(i)[1]);
        }
        return out;
    }
}
