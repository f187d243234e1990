package io.locusdb.core.query.agg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** A query's string numbering: one ID per distinct string, whichever thread asks first and however often. */
class StringIdsTest {
    @Test
    void equalStringsShareAnIdAndEveryIdNamesItsString() {
        StringIds ids = new StringIds();
        int a = ids.id("alpha");
        assertThat(ids.id(new String("alpha"))).isEqualTo(a);
        assertThat(ids.id("beta")).isNotEqualTo(a).isNotNegative();
        assertThat(ids.value(a)).isEqualTo("alpha");
        assertThat(ids.size()).isEqualTo(2);
        assertThatThrownBy(() -> ids.value(12345)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void threadsNumberingOverlappingStringsThroughManyGrowthsAgreeOnEveryId() throws Exception {
        StringIds ids = new StringIds();
        int threads = 4;
        int strings = 60_000;
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Map<String, Integer>>> seen = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t * strings / 8;
                seen.add(pool.submit(() -> {
                    start.await();
                    Map<String, Integer> mine = new HashMap<>();
                    for (int i = 0; i < strings; i++) {
                        // New objects each time: equal strings, never the same reference.
                        String s = "key-" + ((i + offset) % strings) + (i % 3 == 0 ? "" : "-x");
                        mine.put(s, ids.id(s));
                    }
                    return mine;
                }));
            }
            Map<String, Integer> all = new HashMap<>();
            for (Future<Map<String, Integer>> f : seen) {
                for (Map.Entry<String, Integer> e : f.get().entrySet()) {
                    Integer earlier = all.putIfAbsent(e.getKey(), e.getValue());
                    assertThat(earlier == null || earlier.equals(e.getValue())).as(e.getKey()).isTrue();
                }
            }
            Set<Integer> distinct = new HashSet<>(all.values());
            assertThat(distinct).hasSize(all.size());
            assertThat(ids.size()).isEqualTo(all.size());
            for (Map.Entry<String, Integer> e : all.entrySet()) {
                assertThat(ids.value(e.getValue())).isEqualTo(e.getKey());
                assertThat(ids.id(e.getKey())).isEqualTo(e.getValue());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
