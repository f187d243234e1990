package io.locusdb.bench.eris;

import io.locusdb.core.storage.index.LongRadixTree;
import java.util.Arrays;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The index of one ERIS partition, on one thread as an AEU runs it: the prefix tree the AEUs hold
 * ({@code art}), next to the sorted map they held before ({@code treemap}) and the concurrent skip list the shared-index
 * baseline of the ERIS benchmarks uses ({@code skiplist}), in the same run. Batches of random lookups and upserts of
 * existing keys (an AEU runs its lookups as a batch), and range scans of 1,000 keys. Keys are {@code dense} (0..n-1)
 * or {@code sparse} (random 64-bit). Reported per operation (per key for lookups and upserts, per scan for scans);
 * the ratio against {@code treemap} in the same run is the figure of merit.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g", "-XX:+UseParallelGC"})
@State(Scope.Thread)
public class PartitionIndexBenchmark {
    private static final int BATCH = 1024;
    private static final int SCAN_KEYS = 1000;

    @Param({"art", "treemap", "skiplist"})
    public String index;

    @Param({"1000000", "8000000"})
    public int keys;

    @Param({"dense", "sparse"})
    public String distribution;

    private Index map;
    private long[] present;
    private long[] sorted;
    private final long[] batch = new long[BATCH];
    private SplittableRandom random;

    /** The three indexes behind one face. */
    private interface Index {
        long get(long key);

        long add(long key, long delta);

        long sum(long lo, long hi);
    }

    @Setup(Level.Trial)
    public void build() {
        SplittableRandom r = new SplittableRandom(42);
        present = new long[keys];
        for (int i = 0; i < keys; i++) {
            present[i] = distribution.equals("dense") ? i : r.nextLong();
        }
        sorted = present.clone();
        Arrays.sort(sorted);
        // Insert in random order, as upserts arrive.
        for (int i = keys - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            long t = present[i];
            present[i] = present[j];
            present[j] = t;
        }
        map = switch (index) {
            case "art" -> art();
            case "treemap" -> sortedMap(new TreeMap<>());
            case "skiplist" -> sortedMap(new ConcurrentSkipListMap<>());
            default -> throw new IllegalArgumentException("index " + index);
        };
        random = new SplittableRandom(7);
    }

    private Index art() {
        LongRadixTree tree = new LongRadixTree();
        for (long k : present) {
            tree.put(k, k & 1023);
        }
        return new Index() {
            @Override
            public long get(long key) {
                return tree.get(key, 0);
            }

            @Override
            public long add(long key, long delta) {
                return tree.add(key, delta);
            }

            @Override
            public long sum(long lo, long hi) {
                long[] total = new long[1];
                tree.forEach(lo, hi, (k, v) -> total[0] += v);
                return total[0];
            }
        };
    }

    private Index sortedMap(NavigableMap<Long, Long> m) {
        for (long k : present) {
            m.put(k, k & 1023);
        }
        return new Index() {
            @Override
            public long get(long key) {
                Long v = m.get(key);
                return v == null ? 0 : v;
            }

            @Override
            public long add(long key, long delta) {
                return m.merge(key, delta, Long::sum);
            }

            @Override
            public long sum(long lo, long hi) {
                long total = 0;
                for (long v : m.subMap(lo, true, hi, true).values()) {
                    total += v;
                }
                return total;
            }
        };
    }

    @Setup(Level.Invocation)
    public void nextBatch() {
        for (int i = 0; i < BATCH; i++) {
            batch[i] = present[random.nextInt(keys)];
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long lookups() {
        long sum = 0;
        for (long k : batch) {
            sum += map.get(k);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long upserts() {
        long sum = 0;
        for (long k : batch) {
            sum += map.add(k, 1);
        }
        return sum;
    }

    @Benchmark
    public long scan() {
        int from = random.nextInt(keys - SCAN_KEYS);
        return map.sum(sorted[from], sorted[from + SCAN_KEYS - 1]);
    }
}
